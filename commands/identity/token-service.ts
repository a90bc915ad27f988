import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { compactVerify, errors as joseErrors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import { grantDecider, grantStream, type AccessTokenRef, type GrantCommand, type GrantState } from '../../domain/identity/grant.decider.ts';
import { PLATFORM_TENANT, type AccessContext, type Client } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler, type CommandResult } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';
import type { Directory, IdTokenInput, IssueInput, TokenResponse, TokenService } from './contracts.ts';
import type { KeyRing } from './key-ring.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * Access tokens, ID tokens, refresh tokens, grants and revocation (issue 3, items 3-5 and 7).
 *
 * - Access token: RS256 JWT, header {alg, kid, typ: JWT}; claims iss, sub, aud (= the issuer: the platform
 *   is the one resource server), exp, iat, scope, client_id, tenant, jti. The jti is `<grantId>.<random>`,
 *   so a revocation finds its grant without a lookup table.
 * - ID token: the spec's claims plus iss, iat, auth_time, nonce, azp (see idTokenClaims).
 * - Refresh token: opaque, `<grantId>.<256 random bits>`; only its SHA-256 reaches the log.
 * - Revocation: every revoked jti is on the revocation list (the `identity.revocations` projection, passed
 *   in as `revocations`), and in this process's memory at once, so a token revoked here is refused by the
 *   next request. Without `revocations` the grant stream itself is read (strongly consistent, one read).
 */
export type RevocationList = { isRevoked(jti: string): Promise<boolean> };

export type TokenServiceDeps = {
  eventStore: EventStore;
  clock: Clock;
  config: {
    /** config.publicBaseUrl: iss of every token and aud of access tokens */
    issuer: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
  };
  keyRing: KeyRing;
  /** tenant token lifetime (getTenant) and, at refresh, whether the user is still active (getUser) */
  directory?: Partial<Pick<Directory, 'getTenant' | 'getUser'>>;
  revocations?: RevocationList;
};

/** The access token's claims, as verified. */
export type AccessTokenClaims = JWTPayload & {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  scope: string;
  client_id: string;
  tenant: string;
  jti: string;
};

export type TokenServiceImpl = TokenService & {
  /** verifyAccessToken plus every claim (validate-token, introspection) */
  verifyAccessTokenClaims(token: string): Promise<{ context: AccessContext; claims: AccessTokenClaims }>;
  /** the grant id a jti or a refresh token belongs to (undefined when the string has no such shape) */
  grantIdOf(tokenOrJti: string): string | undefined;
};

const MAX_TOKEN_LENGTH = 8192;
const LOCAL_REVOCATIONS_PRUNE_AT = 10_000;

const random = (bytes: number) => randomBytes(bytes).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64url');
const GRANT_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The grant of an authorization code has a fixed id: a reused code revokes it, even before it is written. */
export const grantIdForCode = (codeId: string): string => derivedId(`grant/${codeId}`);

export function createTokenService(deps: TokenServiceDeps): TokenServiceImpl {
  const { eventStore, clock, keyRing, config } = deps;
  const issuer = config.issuer;
  const handle = commandHandler(eventStore, grantDecider);
  /** jti -> exp (unix seconds) of tokens revoked by this process; the revocation list catches up meanwhile */
  const revokedHere = new Map<string, number>();

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  const rememberRevoked = (tokens: AccessTokenRef[]) => {
    for (const t of tokens) revokedHere.set(t.jti, t.exp);
    if (revokedHere.size > LOCAL_REVOCATIONS_PRUNE_AT) {
      const now = nowSeconds();
      for (const [jti, exp] of revokedHere) if (exp <= now) revokedHere.delete(jti);
    }
  };

  const noteRevocations = (events: DomainEvent[]) => {
    for (const e of events) {
      if (e.type === 'GrantRevoked') rememberRevoked((e.data as { accessTokens: AccessTokenRef[] }).accessTokens);
      if (e.type === 'TokenRevoked') {
        const d = e.data as { jti: string; exp: number };
        rememberRevoked([{ jti: d.jti, exp: d.exp }]);
      }
    }
  };

  const grantIdOf = (tokenOrJti: string): string | undefined => {
    const dot = tokenOrJti.indexOf('.');
    const id = dot < 0 ? undefined : tokenOrJti.slice(0, dot);
    return id !== undefined && GRANT_ID.test(id) ? id : undefined;
  };

  async function loadGrant(grantId: string): Promise<GrantState> {
    const events = await eventStore.readStream(grantStream(grantId));
    let state = grantDecider.initialState();
    for (const e of events) state = grantDecider.evolve(state, e as unknown as Parameters<typeof grantDecider.evolve>[1]);
    return state;
  }

  async function run(grantId: string, command: GrantCommand, commandId: string, tenant: string, actor?: string) {
    const result = await handle({
      stream: grantStream(grantId),
      command,
      commandId,
      now: clock.now().toISOString(),
      context: { tenant, ...(actor !== undefined && { actor }) },
    });
    noteRevocations(result.events);
    return result;
  }

  /** expires_in: the tenant's token lifetime, else the default; never beyond what the key ring keeps keys for. */
  async function accessTtl(tenant: string): Promise<number> {
    let ttl = config.accessTokenTtlSeconds;
    const t = deps.directory?.getTenant ? await deps.directory.getTenant(tenant) : null;
    if (t && Number.isInteger(t.tokenLifetimeSeconds) && t.tokenLifetimeSeconds > 0) ttl = t.tokenLifetimeSeconds;
    return Math.min(ttl, keyRing.maxTokenLifetimeSeconds);
  }

  async function sign(claims: JWTPayload): Promise<string> {
    const { kid, privateKey } = await keyRing.signingKey();
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
  }

  const getKey = async (header: JWTHeaderParameters) => {
    if (header.alg !== 'RS256' || typeof header.kid !== 'string' || header.kid.length === 0 || header.kid.length > 128) {
      throw new TokenRejected('the token is not signed by this issuer');
    }
    const key = await keyRing.verificationKey(header.kid);
    if (key === null) throw new TokenRejected('the token is signed by an unknown key');
    return key;
  };

  async function isRevoked(jti: string): Promise<boolean> {
    if (revokedHere.has(jti)) return true;
    if (deps.revocations) return deps.revocations.isRevoked(jti);
    const grantId = grantIdOf(jti);
    if (grantId === undefined) return true;
    const grant = await loadGrant(grantId);
    return grant.status !== 'active' || grant.revokedJtis.includes(jti);
  }

  async function verifyAccessTokenClaims(token: string): Promise<{ context: AccessContext; claims: AccessTokenClaims }> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalidToken('malformed token');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer,
        audience: issuer,
        algorithms: ['RS256'],
        typ: 'JWT',
        currentDate: clock.now(),
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      }));
    } catch (err) {
      throw invalidToken(describeJoseError(err));
    }
    const c = payload as Partial<AccessTokenClaims>;
    if (typeof c.scope !== 'string' || typeof c.client_id !== 'string' || typeof c.tenant !== 'string' || typeof c.jti !== 'string') {
      throw invalidToken('not an access token');
    }
    if (await isRevoked(c.jti)) throw invalidToken('the access token was revoked');
    const claims = c as AccessTokenClaims;
    return {
      claims,
      context: {
        tenant: claims.tenant,
        subject: claims.sub,
        clientId: claims.client_id,
        scopes: claims.scope.split(' ').filter(Boolean),
        jti: claims.jti,
        exp: claims.exp,
      },
    };
  }

  async function accessToken(a: { grantId: string; jti: string; iat: number; exp: number; client: string; tenant: string; subject: string; scopes: string[] }) {
    return sign({
      iss: issuer,
      sub: a.subject,
      aud: issuer,
      exp: a.exp,
      iat: a.iat,
      scope: a.scopes.join(' '),
      client_id: a.client,
      tenant: a.tenant,
      jti: a.jti,
    });
  }

  const oauthFromDomain = (err: unknown): never => {
    if (isDomainError(err) && err.code.startsWith('GRANT.')) {
      if (err.code === 'GRANT.INVALID_SCOPE') throw new OAuthError('invalid_scope', err.message, { cause: err });
      throw new OAuthError('invalid_grant', err.message, { cause: err });
    }
    throw err;
  };

  const revokeGrant = async (grantId: string, reason: string, tenant: string, evenIfNotStarted = false) =>
    run(grantId, { type: 'RevokeGrant', data: { grantId, reason, now: clock.now().toISOString(), evenIfNotStarted } }, randomUUID(), tenant);

  return {
    grantIdOf,
    verifyAccessTokenClaims,

    async issue(input: IssueInput) {
      const iat = nowSeconds();
      const ttl = await accessTtl(input.tenant);
      const grantId = input.codeId !== undefined ? grantIdForCode(input.codeId) : random(16);
      const jti = `${grantId}.${random(12)}`;
      const refreshToken = input.refresh ? `${grantId}.${random(32)}` : undefined;
      const refreshExp = iat + config.refreshTokenTtlSeconds;
      let result: CommandResult<DomainEvent, GrantState>;
      try {
        result = await run(
          grantId,
          {
            type: 'StartGrant',
            data: {
              grantId,
              tenant: input.tenant,
              clientId: input.client.clientId,
              subject: input.subject,
              scopes: input.scopes,
              ...(input.codeId !== undefined && { codeId: input.codeId }),
              accessJti: jti,
              accessExp: iat + ttl,
              ...(refreshToken !== undefined && { refreshTokenId: sha256(refreshToken), refreshExp }),
              now: clock.now().toISOString(),
            },
          },
          input.commandId,
          input.tenant,
          input.client.clientId,
        );
      } catch (err) {
        if (isDomainError(err) && err.code === 'GRANT.REVOKED') {
          throw new OAuthError('invalid_grant', 'the authorization code was used twice; its tokens are revoked', { cause: err });
        }
        return oauthFromDomain(err);
      }
      // the same command id again: its tokens were handed out then and cannot be shown a second time
      if (result.replayed) throw new OAuthError('invalid_grant', 'this grant was issued already');

      const response: TokenResponse & { grantId: string } = {
        access_token: await accessToken({
          grantId,
          jti,
          iat,
          exp: iat + ttl,
          client: input.client.clientId,
          tenant: input.tenant,
          subject: input.subject,
          scopes: input.scopes,
        }),
        token_type: 'Bearer',
        expires_in: ttl,
        scope: input.scopes.join(' '),
        grantId,
      };
      if (input.idToken !== undefined) {
        response.id_token = await sign(idTokenClaims(issuer, input.client, input.tenant, input.scopes, input.idToken, iat, iat + ttl));
      }
      if (refreshToken !== undefined) response.refresh_token = refreshToken;
      return response;
    },

    async refresh(client: Client, refreshToken: string, scopes: string[] | undefined, commandId: string) {
      const grantId = typeof refreshToken === 'string' && refreshToken.length <= 256 ? grantIdOf(refreshToken) : undefined;
      if (grantId === undefined) throw new OAuthError('invalid_grant', 'unknown refresh token');
      const before = await loadGrant(grantId);
      if (before.grant === null) throw new OAuthError('invalid_grant', 'unknown refresh token');
      const { tenant, subject } = before.grant;

      // a user disabled since the grant started gets no new tokens: the grant ends here
      const user = deps.directory?.getUser ? await deps.directory.getUser(tenant, subject) : null;
      if (user !== null && user.status !== 'active' && before.status === 'active' && before.grant.clientId === client.clientId) {
        await revokeGrant(grantId, 'user disabled', tenant);
        throw new OAuthError('invalid_grant', 'the user is disabled');
      }

      const iat = nowSeconds();
      const ttl = await accessTtl(tenant);
      const jti = `${grantId}.${random(12)}`;
      const next = `${grantId}.${random(32)}`;
      let result: CommandResult<DomainEvent, GrantState>;
      try {
        result = await run(
          grantId,
          {
            type: 'RefreshGrant',
            data: {
              grantId,
              presentedId: sha256(refreshToken),
              clientId: client.clientId,
              ...(scopes !== undefined && { scopes }),
              newRefreshId: sha256(next),
              refreshExp: iat + config.refreshTokenTtlSeconds,
              accessJti: jti,
              accessExp: iat + ttl,
              now: clock.now().toISOString(),
            },
          },
          commandId,
          tenant,
          client.clientId,
        );
      } catch (err) {
        return oauthFromDomain(err);
      }
      if (result.events.some((e) => e.type === 'RefreshTokenReused')) {
        throw new OAuthError('invalid_grant', 'the refresh token was used before; every token of its grant is revoked');
      }
      if (result.replayed) throw new OAuthError('invalid_grant', 'this refresh was processed already');
      const issued = result.events.find((e) => e.type === 'AccessTokenIssued')?.data as { scopes: string[] } | undefined;
      const granted = issued?.scopes ?? before.scopes;
      return {
        access_token: await accessToken({ grantId, jti, iat, exp: iat + ttl, client: client.clientId, tenant, subject, scopes: granted }),
        token_type: 'Bearer',
        expires_in: ttl,
        scope: granted.join(' '),
        refresh_token: next,
      };
    },

    async revokeByCode(codeId: string, reason: string) {
      const grantId = grantIdForCode(codeId);
      const grant = await loadGrant(grantId);
      // written even when the grant does not exist yet: the redemption that is still issuing then fails
      await revokeGrant(grantId, reason, grant.grant?.tenant ?? PLATFORM_TENANT, true);
    },

    async revoke(client: Client, token: string, hint?: 'access_token' | 'refresh_token') {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return;
      const asAccess = async (): Promise<boolean> => {
        if (token.split('.').length !== 3) return false;
        let claims: Partial<AccessTokenClaims>;
        try {
          // the signature must hold (a forged jti must not revoke someone's token); an expired token needs no revocation
          ({ payload: claims } = await jwtVerify(token, getKey, { issuer, audience: issuer, algorithms: ['RS256'], currentDate: clock.now() }));
        } catch {
          return false;
        }
        if (typeof claims.jti !== 'string' || claims.client_id !== client.clientId) return true; // not this client's: nothing to do
        const grantId = grantIdOf(claims.jti);
        if (grantId === undefined) return true;
        await run(
          grantId,
          { type: 'RevokeToken', data: { grantId, jti: claims.jti, now: clock.now().toISOString() } },
          randomUUID(),
          typeof claims.tenant === 'string' ? claims.tenant : PLATFORM_TENANT,
          client.clientId,
        );
        return true;
      };
      const asRefresh = async (): Promise<boolean> => {
        const grantId = token.split('.').length === 2 ? grantIdOf(token) : undefined;
        if (grantId === undefined) return false;
        const grant = await loadGrant(grantId);
        if (grant.status !== 'active' || grant.grant?.clientId !== client.clientId || grant.refresh?.id !== sha256(token)) return false;
        // RFC 7009 2.1: revoking a refresh token ends the grant, access tokens included
        await revokeGrant(grantId, 'refresh token revoked by the client', grant.grant.tenant);
        return true;
      };
      if (hint === 'refresh_token') {
        if (!(await asRefresh())) await asAccess();
      } else if (!(await asAccess())) await asRefresh();
    },

    async introspect(token: string) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return { active: false };
      const parts = token.split('.').length;
      if (parts === 3) {
        try {
          const { claims } = await verifyAccessTokenClaims(token);
          return {
            active: true,
            token_type: 'Bearer',
            scope: claims.scope,
            client_id: claims.client_id,
            sub: claims.sub,
            tenant: claims.tenant,
            exp: claims.exp,
            iat: claims.iat,
            iss: claims.iss,
            aud: claims.aud,
            jti: claims.jti,
          };
        } catch {
          return { active: false };
        }
      }
      const grantId = parts === 2 ? grantIdOf(token) : undefined;
      if (grantId === undefined) return { active: false };
      const grant = await loadGrant(grantId);
      if (grant.status !== 'active' || grant.grant === null || grant.refresh === null) return { active: false };
      if (grant.refresh.id !== sha256(token) || grant.refresh.exp <= nowSeconds()) return { active: false };
      return {
        active: true,
        token_type: 'refresh_token',
        scope: grant.scopes.join(' '),
        client_id: grant.grant.clientId,
        sub: grant.grant.subject,
        tenant: grant.grant.tenant,
        exp: grant.refresh.exp,
        iss: issuer,
      };
    },

    async verifyAccessToken(token: string) {
      return (await verifyAccessTokenClaims(token)).context;
    },

    async verifyIdTokenHint(idToken: string) {
      const bad = () => new OAuthError('invalid_request', 'id_token_hint is not an ID token of this issuer');
      if (typeof idToken !== 'string' || idToken.length === 0 || idToken.length > MAX_TOKEN_LENGTH) throw bad();
      let payload: Record<string, unknown>;
      try {
        // signature only: an expired ID token is a fine hint (OIDC RP-Initiated Logout 1.0, 2)
        const verified = await compactVerify(idToken, getKey, { algorithms: ['RS256'] });
        payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
      } catch {
        throw bad();
      }
      const aud = typeof payload.aud === 'string' ? [payload.aud] : payload.aud;
      if (
        payload.iss !== issuer ||
        typeof payload.sub !== 'string' ||
        typeof payload.tenant !== 'string' ||
        !Array.isArray(aud) ||
        !aud.every((a) => typeof a === 'string') ||
        aud.includes(issuer) // an access token is not an ID token
      ) {
        throw bad();
      }
      return {
        sub: payload.sub,
        aud: aud as string[],
        tenant: payload.tenant,
        ...(typeof payload.sid === 'string' && { sid: payload.sid }),
      };
    },

    async jwks() {
      return { keys: await keyRing.publishedJwks() };
    },

    async signInternal(claims: Record<string, unknown>, ttlSeconds: number) {
      const iat = nowSeconds();
      return sign({
        iss: issuer,
        // not the issuer: an internal token is never accepted as an access token
        aud: `${issuer}/internal`,
        jti: random(16),
        ...claims,
        iat,
        exp: iat + ttlSeconds,
      });
    },
  };
}

/**
 * ID token claims. The spec's: sub, aud (array with the client_id), exp, name, nickname,
 * preferred_username, email, userName, tenant. Added (issue 3, item 4): iss (the spec lists "no iss claim"
 * as a known gap; OIDC Core 2 requires it and certified relying parties refuse a token without it), iat,
 * auth_time, nonce (echoed), azp. Profile claims need the `profile` scope and email the `email` scope
 * (OIDC Core 5.4); userName and tenant, the platform's extensions, are always there.
 */
export function idTokenClaims(
  issuer: string,
  client: Client,
  tenant: string,
  scopes: string[],
  input: IdTokenInput,
  iat: number,
  exp: number,
): JWTPayload {
  const { user } = input;
  const profile = scopes.includes('profile');
  const email = scopes.includes('email');
  const sid = (input as IdTokenInput & { sid?: unknown }).sid;
  return {
    iss: issuer,
    sub: user.userId,
    aud: [client.clientId],
    exp,
    iat,
    auth_time: input.authTime,
    ...(input.nonce !== undefined && { nonce: input.nonce }),
    azp: client.clientId,
    ...(profile && { name: user.name, preferred_username: user.username }),
    ...(profile && user.nickname !== undefined && { nickname: user.nickname }),
    ...(email && user.email !== undefined && { email: user.email }),
    userName: user.username,
    tenant,
    ...(typeof sid === 'string' && { sid }),
  };
}

/** A failure of the key lookup: its message is safe to show. */
class TokenRejected extends Error {}

function invalidToken(description: string): OAuthError {
  return new OAuthError('invalid_token', description);
}

function describeJoseError(err: unknown): string {
  if (err instanceof TokenRejected) return err.message;
  if (err instanceof joseErrors.JWTExpired) return 'the access token expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return 'the token was issued by another issuer';
    if (err.claim === 'aud') return 'the token is not meant for this resource';
    if (err.claim === 'typ') return 'the token is not an access token';
    return `the token's ${err.claim} claim is not valid`;
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature is not valid';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is not signed with RS256';
  return 'malformed token';
}
