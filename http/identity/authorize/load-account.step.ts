import type { AuthorizationRequest } from './authorization-request.ts';
import { type FlowContext, type FlowEnv, fromEarlierStep } from './flow.context.ts';

/**
 * The session's user, when the session can serve this request: same tenant as the client, no
 * prompt=login, signed in recently enough for max_age, and the user still active in the client's user
 * source. Otherwise no user (the login form, or login_required with prompt=none).
 */
export async function loadAccount(ctx: FlowContext, env: Pick<FlowEnv, 'directory' | 'nowSeconds'>): Promise<void> {
  ctx.user = null;
  const session = ctx.session;
  const client = fromEarlierStep(ctx.client, 'client');
  const request = ctx.request as AuthorizationRequest;
  if (!session || session.tenant !== client.tenant) return;
  if (request.prompt.includes('login')) return;
  // max_age=0 asks for a fresh login, like prompt=login (an authentication this very second included)
  if (request.maxAge !== undefined && (request.maxAge === 0 || env.nowSeconds() - session.authTime > request.maxAge))
    return;
  const user = await env.directory.getUser(session.tenant, session.userId);
  if (user?.status !== 'active' || user.directory !== client.userSourceId) return;
  ctx.user = user;
}
