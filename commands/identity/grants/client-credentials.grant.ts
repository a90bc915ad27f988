import type { TokenIssuer } from '../access-token.issuer.ts';
import type { IssueInput, TokenResponse } from '../identity.contracts.ts';
import { newGrantId, newJti } from './grant.ids.ts';

/**
 * client_credentials (RFC 6749 4.4): the client's machine user (default_user) is the subject; no ID token
 * (nobody authenticated) and no refresh token (4.4.3: the client simply asks again).
 *
 * Nothing is written: a token that nothing can continue (no refresh token, no code) needs no grant
 * stream, and at the token endpoint's rate an append per token would be most of its cost. It stays
 * revocable: its jti `<grantId>.<random>` names a grant whose stream is empty until the token is revoked
 * (RevokeToken with the token's verified expiry writes TokenRevoked there), and the revocation list holds
 * what was revoked, not what was issued.
 */
export type ClientCredentialsInput = Pick<IssueInput, 'client' | 'tenant' | 'subject' | 'scopes'>;

export function createClientCredentialsGrant(deps: { issuer: TokenIssuer }) {
  const { issuer } = deps;
  return async function issueClientCredentials(
    input: ClientCredentialsInput,
  ): Promise<TokenResponse & { grantId: string }> {
    const iat = issuer.nowSeconds();
    const ttl = await issuer.accessTtl(input.tenant);
    const grantId = newGrantId();
    return {
      access_token: await issuer.accessToken({
        jti: newJti(grantId),
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
  };
}
