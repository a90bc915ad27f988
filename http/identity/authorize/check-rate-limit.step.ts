import { type FlowContext, type FlowEnv, fromEarlierStep, type StepOutcome } from './flow.context.ts';
import { showLoginForm, TOO_MANY_ATTEMPTS } from './show-login-form.ts';

/** Too many recent failures for this user name or address: the form again (429, Retry-After). */
export async function checkRateLimit(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'limiter' | 'seal' | 'secureCookies' | 'formTtlSeconds'>,
): Promise<StepOutcome> {
  const client = fromEarlierStep(ctx.client, 'client');
  const { username } = fromEarlierStep(ctx.credentials, 'credentials');
  const keys = {
    user: { tenant: client.tenant, directory: client.userSourceId, username },
    ...(ctx.req.ip !== undefined && { ip: ctx.req.ip }),
  };
  const verdict = await env.limiter.check(keys);
  if (!verdict.allowed) {
    const sealedRequest = fromEarlierStep(ctx.sealedRequest, 'sealed request');
    showLoginForm(ctx, env, {
      status: 429,
      sealedRequest,
      error: TOO_MANY_ATTEMPTS,
      username,
      retryAfterSeconds: verdict.retryAfterSeconds,
    });
    return 'answered';
  }
  ctx.loginAttempt = keys;
}
