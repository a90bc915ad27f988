import type { DomainEvent } from '../../../domain/core/event.ts';
import type { GrantState } from '../../../domain/identity/grant.decider.ts';
import type { Client } from '../../../domain/identity/model.ts';
import type { CommandResult } from '../../core/command-handler.ts';
import type { TokenIssuer } from '../access-token.issuer.ts';
import type { Directory, TokenResponse } from '../identity.contracts.ts';
import { OAuthError } from '../oauth.error.ts';
import type { RevocationList } from '../revocations.checker.ts';
import { oauthFromGrantError } from './grant.errors.ts';
import type { GrantHandler } from './grant.handler.ts';
import { grantIdOf, newJti, newRefreshToken, sha256 } from './grant.ids.ts';

/**
 * refresh_token (RFC 6749 6) with rotation: the presented refresh token is spent and a new one takes its
 * place; presenting a spent one again is reuse (OAuth 2.0 Security BCP 4.14) and revokes the whole grant,
 * every access token it issued included. A user disabled since the grant started ends the grant here, and
 * so does a revocation rule (its client or its user was disabled after the grant started, even if enabled
 * again since: revocation.rules.ts).
 */
export function createRefreshTokenGrant(deps: {
  grants: GrantHandler;
  issuer: TokenIssuer;
  refreshTokenTtlSeconds: number;
  directory?: Partial<Pick<Directory, 'getUser'>>;
  /** the revocation rules (a client or user disabled since the grant started) */
  revocations?: Pick<RevocationList, 'cutoff'>;
  now(): string;
}) {
  const { grants, issuer } = deps;

  return async function refresh(
    client: Client,
    refreshToken: string,
    scopes: string[] | undefined,
    commandId: string,
  ): Promise<TokenResponse> {
    const grantId =
      typeof refreshToken === 'string' && refreshToken.length <= 256 ? grantIdOf(refreshToken) : undefined;
    if (grantId === undefined) throw new OAuthError('invalid_grant', 'unknown refresh token');
    const before = await grants.load(grantId);
    if (before.grant === null) throw new OAuthError('invalid_grant', 'unknown refresh token');
    const { tenant, subject } = before.grant;

    // a user disabled since the grant started gets no new tokens: the grant ends here
    const user = deps.directory?.getUser ? await deps.directory.getUser(tenant, subject) : null;
    if (
      user !== null &&
      user.status !== 'active' &&
      before.status === 'active' &&
      before.grant.clientId === client.clientId
    ) {
      await grants.revokeGrant(grantId, 'user disabled', tenant);
      throw new OAuthError('invalid_grant', 'the user is disabled');
    }
    if (
      before.status === 'active' &&
      before.grant.clientId === client.clientId &&
      (await grantRevokedByRule(deps.revocations, before))
    ) {
      await grants.revokeGrant(grantId, 'client or user disabled', tenant);
      throw new OAuthError('invalid_grant', 'the client or the user was disabled after this grant started');
    }

    const iat = issuer.nowSeconds();
    const ttl = await issuer.accessTtl(tenant);
    const jti = newJti(grantId);
    const next = newRefreshToken(grantId);
    let result: CommandResult<DomainEvent, GrantState>;
    try {
      result = await grants.run(
        grantId,
        {
          type: 'RefreshGrant',
          data: {
            grantId,
            presentedId: sha256(refreshToken),
            clientId: client.clientId,
            ...(scopes !== undefined && { scopes }),
            newRefreshId: sha256(next),
            refreshExp: iat + deps.refreshTokenTtlSeconds,
            accessJti: jti,
            accessExp: iat + ttl,
            now: deps.now(),
          },
        },
        commandId,
        tenant,
        client.clientId,
      );
    } catch (err) {
      return oauthFromGrantError(err);
    }
    if (result.events.some((e) => e.type === 'RefreshTokenReused')) {
      throw new OAuthError('invalid_grant', 'the refresh token was used before; every token of its grant is revoked');
    }
    if (result.replayed) throw new OAuthError('invalid_grant', 'this refresh was processed already');
    const issued = result.events.find((e) => e.type === 'AccessTokenIssued')?.data as { scopes: string[] } | undefined;
    const granted = issued?.scopes ?? before.scopes;
    return {
      access_token: await issuer.accessToken({
        jti,
        iat,
        exp: iat + ttl,
        client: client.clientId,
        tenant,
        subject,
        scopes: granted,
      }),
      token_type: 'Bearer',
      expires_in: ttl,
      scope: granted.join(' '),
      refresh_token: next,
    };
  };
}

/** Whether a revocation rule covers the grant: its client or its user was disabled at or after its start. */
export async function grantRevokedByRule(
  revocations: Pick<RevocationList, 'cutoff'> | undefined,
  state: GrantState,
): Promise<boolean> {
  if (revocations === undefined || state.grant === null) return false;
  const { clientId, tenant, subject, startedAt } = state.grant;
  const cutoff = await revocations.cutoff({ clientId, tenant, subject });
  return cutoff !== undefined && Math.floor(Date.parse(startedAt) / 1000) <= cutoff;
}
