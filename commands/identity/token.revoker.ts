import { type Client, PLATFORM_TENANT } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { newCommandId } from '../core/event-id.ts';
import type { AccessTokenClaims, TokenVerifier } from './access-token.verifier.ts';
import { MAX_TOKEN_LENGTH } from './access-token.verifier.ts';
import type { GrantHandler } from './grants/grant.handler.ts';
import { grantIdOf, sha256 } from './grants/grant.ids.ts';

/**
 * RFC 7009 token revocation, for the client the token was issued to; unknown tokens, other clients'
 * tokens and forgeries change nothing and are not an error.
 *
 * - An access token: its signature must hold (a forged jti must not revoke someone's token); an expired
 *   one needs no revocation. RevokeToken carries its verified expiry, so a token issued without a grant
 *   stream (client_credentials) is revoked as well as one of a started grant.
 * - A refresh token ends its grant, access tokens included (2.1).
 */
export function createTokenRevoker(deps: {
  grants: GrantHandler;
  verifier: Pick<TokenVerifier, 'verifySigned'>;
  clock: Clock;
}) {
  const { grants, clock } = deps;

  return async function revoke(client: Client, token: string, hint?: 'access_token' | 'refresh_token'): Promise<void> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return;
    const asAccess = async (): Promise<boolean> => {
      if (token.split('.').length !== 3) return false;
      let claims: Partial<AccessTokenClaims>;
      try {
        claims = await deps.verifier.verifySigned(token);
      } catch {
        return false;
      }
      if (typeof claims.jti !== 'string' || claims.client_id !== client.clientId) return true; // not this client's: nothing to do
      const grantId = grantIdOf(claims.jti);
      if (grantId === undefined || typeof claims.exp !== 'number') return true;
      await grants.run(
        grantId,
        { type: 'RevokeToken', data: { grantId, jti: claims.jti, exp: claims.exp, now: clock.now().toISOString() } },
        newCommandId(),
        typeof claims.tenant === 'string' ? claims.tenant : PLATFORM_TENANT,
        client.clientId,
      );
      return true;
    };
    const asRefresh = async (): Promise<boolean> => {
      const grantId = token.split('.').length === 2 ? grantIdOf(token) : undefined;
      if (grantId === undefined) return false;
      const grant = await grants.load(grantId);
      if (grant.status !== 'active' || grant.grant?.clientId !== client.clientId || grant.refresh?.id !== sha256(token))
        return false;
      await grants.revokeGrant(grantId, 'refresh token revoked by the client', grant.grant.tenant);
      return true;
    };
    if (hint === 'refresh_token') {
      if (!(await asRefresh())) await asAccess();
    } else if (!(await asAccess())) await asRefresh();
  };
}
