import type { AccessContext } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { createTokenIssuer } from './access-token.issuer.ts';
import { type AccessTokenClaims, createTokenVerifier } from './access-token.verifier.ts';
import { createAuthorizationCodeRevocation } from './grants/authorization-code.grant.ts';
import { createClientCredentialsGrant } from './grants/client-credentials.grant.ts';
import { createGrantHandler } from './grants/grant.handler.ts';
import { grantIdOf } from './grants/grant.ids.ts';
import { createGrantStarter } from './grants/grant.starter.ts';
import { createRefreshTokenGrant } from './grants/refresh-token.grant.ts';
import type { Directory, IssueInput, TokenService } from './identity.contracts.ts';
import { createRevocationsChecker, type RevocationList } from './revocations.checker.ts';
import type { KeyRing } from './signing-key.ring.ts';
import { createTokenIntrospector } from './token.introspector.ts';
import { createTokenRevoker } from './token.revoker.ts';

export type { AccessTokenClaims } from './access-token.verifier.ts';
export type { RevocationList } from './revocations.checker.ts';

/**
 * The token service: access tokens, ID tokens, refresh tokens, grants and revocation, composed from one
 * file per part in node-oidc-provider's manner:
 *
 * | part | file |
 * |---|---|
 * | signing (RS256 JWTs, expires_in) | access-token.issuer.ts |
 * | verification (access tokens, id_token_hint) | access-token.verifier.ts |
 * | is it revoked? | revocations.checker.ts |
 * | client_credentials: nothing written | grants/client-credentials.grant.ts |
 * | authorization_code and password: GrantStarted | grants/grant.starter.ts |
 * | a reused code revokes its grant | grants/authorization-code.grant.ts |
 * | refresh_token with rotation and reuse detection | grants/refresh-token.grant.ts |
 * | grant streams (load, run a command) | grants/grant.handler.ts |
 * | RFC 7009 revocation, RFC 7662 introspection | token.revoker.ts, token.introspector.ts |
 *
 * Revocation: every revoked jti, and every rule (a disabled client or user: revocation.rules.ts), is on the revocation list (the `identity.revocations` projection, passed
 * in as `revocations`), and in this process's memory at once, so a token revoked here is refused by the
 * next request. Without `revocations` the grant stream itself is read (strongly consistent, one read).
 */
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

export type TokenServiceImpl = TokenService & {
  /**
   * the events a command of this process appended that revoke something (ClientDisabled, UserDisabled):
   * refused by the next request here, before the log reader hands them over
   */
  noteRevocations(events: Array<{ type: string; data: unknown }>): void;
  /** unix seconds: what a client or user had issued at or before it is revoked (revocation.rules.ts) */
  revocationCutoff: RevocationList['cutoff'];
  /** verifyAccessToken plus every claim (validate-token, introspection) */
  verifyAccessTokenClaims(token: string): Promise<{ context: AccessContext; claims: AccessTokenClaims }>;
  /** the grant id a jti or a refresh token belongs to (undefined when the string has no such shape) */
  grantIdOf(tokenOrJti: string): string | undefined;
};

export function createTokenService(deps: TokenServiceDeps): TokenServiceImpl {
  const { eventStore, clock, keyRing, config } = deps;
  const issuer = config.issuer;
  const now = () => clock.now().toISOString();

  // each needs the other: the check reads grant streams, and learns of the revocations written through them
  const revocations = createRevocationsChecker({
    clock,
    loadGrant: (grantId) => grants.load(grantId),
    ...(deps.revocations && { revocations: deps.revocations }),
  });
  const grants = createGrantHandler({ eventStore, clock, onEvents: revocations.note });

  const tokenIssuer = createTokenIssuer({
    clock,
    keyRing,
    issuer,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    ...(deps.directory && { directory: deps.directory }),
  });
  const verifier = createTokenVerifier({ clock, keyRing, issuer, revocations });
  const grantStarter = createGrantStarter({
    grants,
    issuer: tokenIssuer,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    now,
  });
  const clientCredentials = createClientCredentialsGrant({ issuer: tokenIssuer });

  return {
    grantIdOf,
    noteRevocations: revocations.note,
    revocationCutoff: revocations.cutoff,
    verifyAccessTokenClaims: verifier.verifyAccessTokenClaims,

    async issue(input: IssueInput) {
      if (input.grantType !== 'client_credentials') return grantStarter(input);
      if (input.refresh || input.codeId !== undefined || input.idToken !== undefined) {
        throw new Error('a client_credentials token comes without refresh token, code or ID token');
      }
      return clientCredentials(input);
    },

    refresh: createRefreshTokenGrant({
      grants,
      issuer: tokenIssuer,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      ...(deps.directory && { directory: deps.directory }),
      revocations,
      now,
    }),
    revokeByCode: createAuthorizationCodeRevocation({ grants }),
    revoke: createTokenRevoker({ grants, verifier, clock }),
    introspect: createTokenIntrospector({ grants, verifier, issuer, nowSeconds: tokenIssuer.nowSeconds, revocations }),
    verifyAccessToken: async (token) => (await verifier.verifyAccessTokenClaims(token)).context,
    verifyIdTokenHint: verifier.verifyIdTokenHint,
    jwks: async () => ({ keys: await keyRing.publishedJwks() }),
    signInternal: (claims, ttlSeconds) => tokenIssuer.internal(claims, ttlSeconds),
  };
}
