import { createHash } from 'node:crypto';
import { CLIENT_ID, clientStream } from '../../domain/identity/client.decider.ts';
import type { Client, Tenant, User } from '../../domain/identity/model.ts';
import { TENANT_CODE, tenantStream } from '../../domain/identity/tenant.decider.ts';
import { DIRECTORY_ID, USER_ID, userStream } from '../../domain/identity/user.decider.ts';
import { usernameKey, usernameStream } from '../../domain/identity/username.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { createDirectoryCache, type DirectoryCache } from './directory.cache.ts';
import type { Directory } from './identity.contracts.ts';
import { dummyVerify, MAX_SECRET_LENGTH, verifySecret } from './password.hash.ts';

export type DirectoryDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** the process's directory in memory (fed by the log reader); default: a private one, read through */
  cache?: DirectoryCache;
  /** the scrypt check of a secret against its stored hash (password.hash.ts verifySecret; tests count it) */
  verifySecret?: (secret: string, hash: string) => Promise<boolean>;
};

/** The contract's Directory plus a one-call sign-in check for the login page. */
export type DirectoryService = Directory & {
  /**
   * The user when the username exists in that directory, is active and the password matches; null
   * otherwise. Always spends one scrypt, whether or not the user exists, so the answer time does not tell.
   */
  authenticate(tenant: string, directory: string, username: string, password: string): Promise<User | null>;
};

/** How long a verified client secret stays verified in memory (it is re-checked with scrypt after). */
const VERIFIED_SECRET_TTL_MS = 10 * 60 * 1000;
const VERIFIED_SECRET_MAX = 10_000;

/**
 * Lookups for the OAuth flows, from the directory in memory (directory.cache.ts), which answers as the
 * streams themselves would: a client registered or a user disabled a moment ago, even by another process,
 * is seen at once, because every security decision (client, user, username) is confirmed against the
 * stream's current revision. Only a tenant's token lifetime is taken from memory as it is, once the
 * memory follows the log. The admin API's listings use the projection.
 *
 * Not telling whether a user exists: `findUserByUsername` answers null for a missing user, and a caller
 * that got null must still spend a scrypt before answering: `await dummyVerify(password)` (from
 * password.hash.ts), or simply use `authenticate`, which does both. A disabled user's `verifyPassword`
 * runs scrypt too and answers false, exactly like a wrong password.
 *
 * Client secrets are ≥256-bit random values (or an operator's SEED_CLIENT_SECRET), hashed with the same
 * scrypt, which is deliberately slow. The token endpoint checks them on every request, so a successful
 * check is remembered for ten minutes, bounded, as a SHA-256 of (client id, the client's revision, stored
 * hash, secret): only that digest is kept, never the secret, and any change to the client (a rotated
 * secret, a new registration) is a new revision, so the old entry no longer matches. Checks of the same
 * digest that overlap share one scrypt: a client's burst of token requests just after a start (16 at once
 * in the benchmark) costs one derivation, not one each; different secrets still cost one each.
 */
export function createDirectory({
  eventStore,
  clock,
  cache = createDirectoryCache({ eventStore }),
  verifySecret: verify = verifySecret,
}: DirectoryDeps): DirectoryService {
  const verifiedSecrets = new Map<string, number>();
  /** scrypt checks under way, by the same digest as verifiedSecrets (an entry lives while its check runs) */
  const verifying = new Map<string, Promise<boolean>>();
  /** the revision each client object was read at (the objects are the memory's own, one per revision) */
  const clientRevisions = new WeakMap<Client, number>();

  const getUser = async (tenant: string, userId: string): Promise<User | null> => {
    if (!TENANT_CODE.test(tenant) || !USER_ID.test(userId)) return null;
    const { state } = await cache.lookup('user', userStream(tenant, userId), 'verified');
    return state.status === 'exists' ? state.user : null;
  };

  const findUserByUsername = async (tenant: string, directory: string, username: string): Promise<User | null> => {
    if (!TENANT_CODE.test(tenant) || !DIRECTORY_ID.test(directory) || username.length === 0 || username.length > 128)
      return null;
    const { state: reservation } = await cache.lookup(
      'username',
      usernameStream(tenant, directory, username),
      'verified',
    );
    if (reservation.status !== 'reserved') return null;
    const user = await getUser(tenant, reservation.userId);
    // a reservation whose user was never written, or that belongs to another registration, finds nobody
    if (user === null || user.directory !== directory || usernameKey(user.username) !== usernameKey(username))
      return null;
    return user;
  };

  const verifyPassword = async (user: User, password: string): Promise<boolean> => {
    const ok = await verifySecret(password, user.passwordHash);
    return ok && user.status === 'active';
  };

  return {
    async getTenant(code: string): Promise<Tenant | null> {
      if (!TENANT_CODE.test(code)) return null;
      const { state } = await cache.lookup('tenant', tenantStream(code), 'recent');
      return state.status === 'exists' ? state.tenant : null;
    },

    async getClient(clientId: string): Promise<Client | null> {
      if (!CLIENT_ID.test(clientId)) return null;
      const { state, revision } = await cache.lookup('client', clientStream(clientId), 'verified');
      if (state.status !== 'exists') return null;
      clientRevisions.set(state.client, revision);
      return state.client;
    },

    async verifyClientSecret(client: Client, secret: string): Promise<boolean> {
      if (client.secretHash === undefined) {
        await dummyVerify(secret);
        return false;
      }
      if (secret.length === 0 || secret.length > MAX_SECRET_LENGTH) return false;
      const key = createHash('sha256')
        .update(`${client.clientId}\0${clientRevisions.get(client) ?? -1}\0${client.secretHash}\0`)
        .update(secret)
        .digest('base64url');
      const now = clock.now().getTime();
      const until = verifiedSecrets.get(key);
      if (until !== undefined && until > now) return true;
      let check = verifying.get(key);
      if (check === undefined) {
        check = verify(secret, client.secretHash).finally(() => verifying.delete(key));
        verifying.set(key, check);
      }
      const ok = await check;
      if (ok) {
        if (verifiedSecrets.size >= VERIFIED_SECRET_MAX) {
          // drop the oldest entries (a Map iterates in insertion order)
          for (const k of [...verifiedSecrets.keys()].slice(0, VERIFIED_SECRET_MAX / 10)) verifiedSecrets.delete(k);
        }
        verifiedSecrets.delete(key);
        verifiedSecrets.set(key, now + VERIFIED_SECRET_TTL_MS);
      }
      return ok;
    },

    findUserByUsername,
    getUser,
    verifyPassword,

    async authenticate(tenant, directory, username, password) {
      const user = await findUserByUsername(tenant, directory, username);
      if (user === null) {
        await dummyVerify(password);
        return null;
      }
      return (await verifyPassword(user, password)) ? user : null;
    },
  };
}
