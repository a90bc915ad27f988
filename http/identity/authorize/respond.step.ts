import { OIDC_SCOPES } from '../../../domain/identity/identity.scopes.ts';
import type { User } from '../../../domain/identity/model.ts';
import { commandMetadata } from '../../core/request-context.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import { type FlowContext, type FlowEnv, fromEarlierStep, type StepOutcome } from './flow.context.ts';
import { redirectBack } from './redirect-back.ts';

/** Scopes beyond openid/profile/email reach a user's token only when the user holds them as roles. */
const grantedScopes = (requested: string[], user: User) =>
  requested.filter((s) => (OIDC_SCOPES as readonly string[]).includes(s) || user.roles.includes(s));

/** Issues the authorization code for the signed-in user and redirects back with code, state and iss. */
export async function respond(ctx: FlowContext, env: Pick<FlowEnv, 'codes' | 'issuer'>): Promise<StepOutcome> {
  const client = fromEarlierStep(ctx.client, 'client');
  const user = fromEarlierStep(ctx.user, 'user');
  const session = fromEarlierStep(ctx.session, 'session');
  const request = ctx.request as AuthorizationRequest;
  const { code } = await env.codes.issue(
    {
      clientId: client.clientId,
      redirectUri: request.redirectUri,
      userId: user.userId,
      scopes: grantedScopes(request.scopes, user),
      ...(request.nonce !== undefined && { nonce: request.nonce }),
      ...(request.codeChallenge !== undefined && {
        codeChallenge: request.codeChallenge,
        method: request.method ?? 'S256',
      }),
      authTime: session.authTime,
      sessionId: session.sessionId,
    },
    commandMetadata(ctx.req, { tenant: client.tenant, actor: user.userId }),
  );
  redirectBack(ctx.res, env.issuer, request.redirectUri, { code, state: request.state });
  return 'answered';
}
