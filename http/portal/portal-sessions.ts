import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { isProviderError, type PortalProvider, type Sealer, type TokenSet } from './portal.ports.ts';

/**
 * The portal's sessions, in a read-store collection every API process shares: any process serving the
 * portal answers a session another one created, and refreshes its tokens. The cookie holds a random
 * session id; the document is keyed by its SHA-256 (a copy of the store names no usable cookie) and holds
 * the tokens sealed with the key-encryption secret's box.
 *
 * The provider rotates refresh tokens and takes a second use of a spent one for theft (the whole grant is
 * revoked), so one refresh per session runs at a time: in a process, callers share the refresh in flight;
 * across processes, a lease on the document (compare-and-set) lets one process refresh while the others
 * use the access token they have, or wait briefly for the new one.
 */
export const PORTAL_SESSIONS = 'portal_sessions';

type Tokens = { accessToken: string; refreshToken?: string; idToken?: string };

type SessionDoc = Doc & {
  tenant: string;
  clientId: string;
  sub: string;
  name: string;
  username: string;
  scopes: string[];
  /** the Tokens, sealed */
  tokens: string;
  /** unix ms */
  accessExpiresAt: number;
  expiresAt: number;
  createdAt: number;
  refreshLeaseUntil?: number;
};

export type PortalSession = {
  /** the document id (the cookie value's hash), never the cookie value */
  id: string;
  tenant: string;
  clientId: string;
  sub: string;
  name: string;
  username: string;
  scopes: string[];
  /** unix ms */
  expiresAt: number;
  accessExpiresAt: number;
  tokens: Tokens;
};

export type PortalSessionsDeps = {
  readStore: ReadStore;
  sealer: Sealer;
  provider: Pick<PortalProvider, 'refresh'>;
  clock: Clock;
  /** how long a session lasts at most (the provider's SESSION_TTL_SECONDS) */
  ttlSeconds: number;
  /** refresh the access token when it expires within this many seconds (default 60) */
  refreshMarginSeconds?: number;
  /** how long a process holds the refresh lease (default 15 s) */
  leaseMs?: number;
  /** waits between looks while another process refreshes (default 250 ms, 20 looks) */
  waitMs?: number;
};

export type PortalSessions = {
  ensure(): Promise<void>;
  /** a new session: the cookie value to set, and the session */
  create(input: {
    tenant: string;
    clientId: string;
    claims: { sub: string; name?: string; username?: string };
    tokens: TokenSet;
  }): Promise<{ cookie: string; session: PortalSession }>;
  /** the live session of a cookie value, or null (unknown, expired: an expired one is removed) */
  get(cookie: string | undefined): Promise<PortalSession | null>;
  /** an access token valid for a while yet, refreshed when near its end; null when the session cannot go on */
  accessToken(session: PortalSession): Promise<string | null>;
  /** removes the session, answering it (for the sign-out's revocation) */
  end(cookie: string | undefined): Promise<PortalSession | null>;
  /** removes every expired session; answers how many */
  purgeExpired(): Promise<number>;
};

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
const idOf = (cookie: string) => createHash('sha256').update(cookie, 'utf8').digest('hex');
const aadOf = (id: string) => `portal-session/${id}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createPortalSessions(deps: PortalSessionsDeps): PortalSessions {
  const { readStore, sealer, provider, clock } = deps;
  const marginMs = (deps.refreshMarginSeconds ?? 60) * 1000;
  const leaseMs = deps.leaseMs ?? 15_000;
  const waitMs = deps.waitMs ?? 250;
  const sessions = () => readStore.collection<SessionDoc>(PORTAL_SESSIONS);
  const now = () => clock.now().getTime();
  const inFlight = new Map<string, Promise<string | null>>();

  const toSession = (doc: SessionDoc): PortalSession => ({
    id: doc.id,
    tenant: doc.tenant,
    clientId: doc.clientId,
    sub: doc.sub,
    name: doc.name,
    username: doc.username,
    scopes: doc.scopes,
    expiresAt: doc.expiresAt,
    accessExpiresAt: doc.accessExpiresAt,
    tokens: JSON.parse(sealer.open(doc.tokens, aadOf(doc.id))) as Tokens,
  });

  const seal = (id: string, tokens: Tokens) => sealer.seal(JSON.stringify(tokens), aadOf(id));

  const load = async (id: string): Promise<PortalSession | null> => {
    const doc = await sessions().get(id);
    if (doc === null) return null;
    if (doc.expiresAt <= now()) {
      await sessions().delete(id);
      return null;
    }
    try {
      return toSession(doc);
    } catch {
      // sealed under a key-encryption secret no longer configured: the session cannot go on
      await sessions().delete(id);
      return null;
    }
  };

  /** the refresh, by the process holding the lease */
  async function refreshHeld(session: PortalSession): Promise<string | null> {
    const refreshToken = session.tokens.refreshToken;
    if (refreshToken === undefined) {
      // nothing can renew it: the session ends with its access token (which also drops the lease)
      await sessions().delete(session.id);
      return null;
    }
    let fresh: TokenSet;
    try {
      fresh = await provider.refresh({ clientId: session.clientId, refreshToken });
    } catch (err) {
      await sessions().patch(session.id, { $unset: ['refreshLeaseUntil'] });
      // the grant is gone (revoked, expired, the user disabled): so is the session
      if (isProviderError(err) && !err.unavailable) {
        await sessions().delete(session.id);
        return null;
      }
      throw err;
    }
    const tokens: Tokens = {
      accessToken: fresh.accessToken,
      refreshToken: fresh.refreshToken ?? refreshToken,
      ...((fresh.idToken ?? session.tokens.idToken) !== undefined && {
        idToken: fresh.idToken ?? session.tokens.idToken,
      }),
    };
    await sessions().patch(session.id, {
      $set: {
        tokens: seal(session.id, tokens),
        accessExpiresAt: now() + fresh.expiresIn * 1000,
        ...(fresh.scopes.length > 0 && { scopes: fresh.scopes }),
      },
      $unset: ['refreshLeaseUntil'],
    });
    return fresh.accessToken;
  }

  async function refresh(session: PortalSession): Promise<string | null> {
    const at = now();
    const leased = await sessions().findOneAndUpdate(
      { id: session.id, $or: [{ refreshLeaseUntil: { $exists: false } }, { refreshLeaseUntil: { $lt: at } }] },
      { $set: { refreshLeaseUntil: at + leaseMs } },
    );
    if (leased !== null) {
      // another process may have refreshed between our read and the lease: use its token
      if (leased.accessExpiresAt - marginMs > at) {
        await sessions().patch(session.id, { $unset: ['refreshLeaseUntil'] });
        return toSession(leased).tokens.accessToken;
      }
      return refreshHeld(toSession(leased));
    }
    // another process refreshes: the current token while it lasts, else the new one once it is there
    if (session.accessExpiresAt > at + 5000) return session.tokens.accessToken;
    for (let look = 0; look < 20; look++) {
      await sleep(waitMs);
      const current = await load(session.id);
      if (current === null) return null;
      if (current.accessExpiresAt > now() + 5000) return current.tokens.accessToken;
    }
    return null;
  }

  return {
    async ensure() {
      await readStore.ensureCollection(PORTAL_SESSIONS, { indexes: [{ name: 'expires', fields: { expiresAt: 1 } }] });
    },

    async create({ tenant, clientId, claims, tokens }) {
      const cookie = randomBytes(32).toString('base64url');
      const id = idOf(cookie);
      const at = now();
      const doc: SessionDoc = {
        id,
        tenant,
        clientId,
        sub: claims.sub,
        name: claims.name ?? claims.username ?? claims.sub,
        username: claims.username ?? claims.sub,
        scopes: tokens.scopes,
        tokens: seal(id, {
          accessToken: tokens.accessToken,
          ...(tokens.refreshToken !== undefined && { refreshToken: tokens.refreshToken }),
          ...(tokens.idToken !== undefined && { idToken: tokens.idToken }),
        }),
        accessExpiresAt: at + tokens.expiresIn * 1000,
        expiresAt: at + deps.ttlSeconds * 1000,
        createdAt: at,
      };
      await sessions().upsert(doc);
      return { cookie, session: toSession(doc) };
    },

    async get(cookie) {
      if (cookie === undefined || !COOKIE_VALUE.test(cookie)) return null;
      return load(idOf(cookie));
    },

    async accessToken(session) {
      if (session.accessExpiresAt - marginMs > now()) return session.tokens.accessToken;
      const running = inFlight.get(session.id);
      if (running !== undefined) return running;
      const started = refresh(session).finally(() => inFlight.delete(session.id));
      inFlight.set(session.id, started);
      return started;
    },

    async end(cookie) {
      if (cookie === undefined || !COOKIE_VALUE.test(cookie)) return null;
      const id = idOf(cookie);
      const session = await load(id);
      await sessions().delete(id);
      return session;
    },

    async purgeExpired() {
      return sessions().deleteMany({ expiresAt: { $lte: now() } });
    },
  };
}
