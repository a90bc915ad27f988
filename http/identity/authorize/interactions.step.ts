import type { AuthorizationRequest } from './authorization-request.ts';
import { RedirectError } from './authorize.errors.ts';
import type { FlowContext, FlowEnv, StepOutcome } from './flow.context.ts';
import { showLoginForm } from './show-login-form.ts';

/**
 * Without a usable signed-in user the browser must sign in: the login form (carrying the request
 * sealed), or login_required to the client when it asked for no page at all (prompt=none).
 */
export function interactions(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'seal' | 'secureCookies' | 'formTtlSeconds' | 'nowSeconds'>,
): StepOutcome {
  if (ctx.user && ctx.session) return;
  const request = ctx.request as AuthorizationRequest;
  if (request.prompt.includes('none')) throw new RedirectError('login_required', 'the user is not signed in');
  showLoginForm(ctx, env, {
    status: 200,
    sealedRequest: env.seal.seal(request, env.nowSeconds() + env.formTtlSeconds),
  });
  return 'answered';
}
