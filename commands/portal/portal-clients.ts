import { createHash, randomUUID } from 'node:crypto';
import type { ClientChanges } from '../../domain/identity/client.decider.ts';
import type { Client, PublicJwk } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { createDirectoryCommands } from '../identity/directory.commands.ts';
import { createDirectory } from '../identity/directory.lookups.ts';

/**
 * The portal's client of each tenant (`portal.<tenant>`), registered by the platform: a confidential
 * client (private_key_jwt with the platform's derived portal key), authorization code with PKCE and
 * refresh tokens, its redirect URI `<issuer>/portal/auth/callback`, its post-logout redirect `<issuer>/portal/`,
 * the portal's scopes. `ensure` registers it when missing and brings it back to these settings when they
 * changed (another PUBLIC_BASE_URL, a rotated key-encryption secret, a new service's scopes); a client an
 * administrator disabled stays disabled (the portal is closed for that tenant). Idempotent and safe when
 * several processes ensure at once: command ids are derived from the client and the change.
 */
export type PortalClientsDeps = {
  eventStore: EventStore;
  clock: Clock;
  issuer: string;
  /** the public keys the portal may sign its client assertions with (current first) */
  jwks: () => PublicJwk[];
  scopes: readonly string[];
  clientIdOf: (tenant: string) => string;
  callbackPath: string;
  postLogoutPath: string;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
};

type Desired = Required<
  Pick<ClientChanges, 'redirectUris' | 'postLogoutRedirectUris' | 'grantTypes' | 'authMethod' | 'scopes'>
> & { jwks: PublicJwk[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

const RECHECK_AFTER_MS = 5 * 60_000;

export function createPortalClients(deps: PortalClientsDeps) {
  const directory = createDirectory({ eventStore: deps.eventStore, clock: deps.clock });
  const commands = createDirectoryCommands({ eventStore: deps.eventStore, clock: deps.clock });
  // per process: a tenant whose client was found good is looked at again after a while, so that an edit of
  // the client by an administrator (its redirect URI, its keys) is undone without a restart
  const ensured = new Map<string, { clientId: string; until: number }>();

  const desired = (): Desired => ({
    redirectUris: [`${deps.issuer}${deps.callbackPath}`],
    postLogoutRedirectUris: [`${deps.issuer}${deps.postLogoutPath}`],
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethod: 'private_key_jwt',
    scopes: [...deps.scopes],
    jwks: deps.jwks(),
  });

  const changesOf = (client: Client, want: Desired): ClientChanges => {
    const changes: ClientChanges = {};
    if (!same(client.redirectUris, want.redirectUris)) changes.redirectUris = want.redirectUris;
    if (!same(client.postLogoutRedirectUris, want.postLogoutRedirectUris))
      changes.postLogoutRedirectUris = want.postLogoutRedirectUris;
    if (!same([...client.grantTypes].sort(), [...want.grantTypes].sort())) changes.grantTypes = want.grantTypes;
    if (client.authMethod !== want.authMethod) changes.authMethod = want.authMethod;
    if (!same([...client.scopes].sort(), [...want.scopes].sort())) changes.scopes = want.scopes;
    if (!same(client.jwks ?? [], want.jwks)) changes.jwks = want.jwks;
    return changes;
  };

  async function ensure(tenant: string): Promise<string | null> {
    const known = ensured.get(tenant);
    if (known !== undefined && known.until > deps.clock.now().getTime()) return known.clientId;
    const record = await directory.getTenant(tenant);
    if (record === null || record.status !== 'active') return null;
    const clientId = deps.clientIdOf(tenant);
    const ctx = { tenant, actor: 'system:portal', correlationId: randomUUID() };
    const want = desired();
    const existing = await directory.getClient(clientId);
    if (existing === null) {
      await commands.registerClient(
        { clientId, appName: 'Platform portal', ...want },
        ctx,
        `portal/client/${clientId}/register`,
      );
      deps.log?.info({ tenant, clientId }, 'portal client registered');
    } else {
      if (existing.tenant !== tenant) {
        deps.log?.warn(
          { tenant, clientId, owner: existing.tenant },
          'the portal client id is taken by a client of another tenant: no portal sign-in for this tenant',
        );
        return null;
      }
      if (existing.status !== 'active') return null;
      const changes = changesOf(existing, want);
      if (Object.keys(changes).length > 0) {
        // the command id names the change from this very state: the same change later is a new command
        await commands.updateClient(
          clientId,
          changes,
          ctx,
          `portal/client/${clientId}/update/${digest({ from: existing, changes })}`,
        );
        deps.log?.info({ tenant, clientId, changed: Object.keys(changes) }, 'portal client brought up to date');
      }
    }
    ensured.set(tenant, { clientId, until: deps.clock.now().getTime() + RECHECK_AFTER_MS });
    return clientId;
  }

  return { ensure };
}
