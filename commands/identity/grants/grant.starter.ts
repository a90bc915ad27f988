import { isDomainError } from '../../../domain/core/domain-error.ts';
import type { DomainEvent } from '../../../domain/core/event.ts';
import type { GrantState } from '../../../domain/identity/grant.decider.ts';
import type { CommandResult } from '../../core/command-handler.ts';
import type { TokenIssuer } from '../access-token.issuer.ts';
import type { IssueInput, TokenResponse } from '../identity.contracts.ts';
import { OAuthError } from '../oauth.error.ts';
import { oauthFromGrantError } from './grant.errors.ts';
import type { GrantHandler } from './grant.handler.ts';
import { grantIdForCode, newGrantId, newJti, newRefreshToken, sha256 } from './grant.ids.ts';

/**
 * Starts a grant (GrantStarted) and issues its tokens: the authorization_code grant (the grant id derived
 * from the code, so a reused code revokes it even before it is written) and the password grant. A grant
 * with a stream is what a refresh token continues and what a reused code revokes as a whole.
 */
export function createGrantStarter(deps: {
  grants: GrantHandler;
  issuer: TokenIssuer;
  refreshTokenTtlSeconds: number;
  now(): string;
}) {
  const { grants, issuer } = deps;

  return async function startGrant(input: IssueInput): Promise<TokenResponse & { grantId: string }> {
    const iat = issuer.nowSeconds();
    const ttl = await issuer.accessTtl(input.tenant);
    const grantId = input.codeId !== undefined ? grantIdForCode(input.codeId) : newGrantId();
    const jti = newJti(grantId);
    const refreshToken = input.refresh ? newRefreshToken(grantId) : undefined;
    const refreshExp = iat + deps.refreshTokenTtlSeconds;
    let result: CommandResult<DomainEvent, GrantState>;
    try {
      result = await grants.run(
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
            now: deps.now(),
          },
        },
        input.commandId,
        input.tenant,
        input.client.clientId,
      );
    } catch (err) {
      if (isDomainError(err) && err.code === 'GRANT.REVOKED') {
        throw new OAuthError('invalid_grant', 'the authorization code was used twice; its tokens are revoked', {
          cause: err,
        });
      }
      return oauthFromGrantError(err);
    }
    // the same command id again: its tokens were handed out then and cannot be shown a second time
    if (result.replayed) throw new OAuthError('invalid_grant', 'this grant was issued already');

    const response: TokenResponse & { grantId: string } = {
      access_token: await issuer.accessToken({
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
      response.id_token = await issuer.idToken(input.client, input.tenant, input.scopes, input.idToken, iat, iat + ttl);
    }
    if (refreshToken !== undefined) response.refresh_token = refreshToken;
    return response;
  };
}
