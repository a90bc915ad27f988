import type { TokenVerifier } from './access-token.verifier.ts';
import { MAX_TOKEN_LENGTH } from './access-token.verifier.ts';
import type { GrantHandler } from './grants/grant.handler.ts';
import { grantIdOf, sha256 } from './grants/grant.ids.ts';
import { grantRevokedByRule } from './grants/refresh-token.grant.ts';
import type { RevocationList } from './revocations.checker.ts';

/**
 * RFC 7662 introspection: an access token is active when it verifies (signature, expiry, revocation); a
 * refresh token when it is its grant's current one, unexpired, the grant is active and no revocation rule
 * covers it (its client or user disabled since it started). Anything else, however malformed, is
 * `{ active: false }`.
 */
export function createTokenIntrospector(deps: {
  grants: GrantHandler;
  verifier: Pick<TokenVerifier, 'verifyAccessTokenClaims'>;
  issuer: string;
  nowSeconds(): number;
  revocations?: Pick<RevocationList, 'cutoff'>;
}) {
  return async function introspect(token: string): Promise<Record<string, unknown>> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return { active: false };
    const parts = token.split('.').length;
    if (parts === 3) {
      try {
        const { claims } = await deps.verifier.verifyAccessTokenClaims(token);
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
    const grant = await deps.grants.load(grantId);
    if (grant.status !== 'active' || grant.grant === null || grant.refresh === null) return { active: false };
    if (grant.refresh.id !== sha256(token) || grant.refresh.exp <= deps.nowSeconds()) return { active: false };
    if (await grantRevokedByRule(deps.revocations, grant)) return { active: false };
    return {
      active: true,
      token_type: 'refresh_token',
      scope: grant.scopes.join(' '),
      client_id: grant.grant.clientId,
      sub: grant.grant.subject,
      tenant: grant.grant.tenant,
      exp: grant.refresh.exp,
      iss: deps.issuer,
    };
  };
}
