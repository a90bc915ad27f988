import { type FlowContext, type FlowEnv, fromEarlierStep, type StepOutcome } from './flow.context.ts';
import { INVALID_CREDENTIALS, showLoginForm } from './show-login-form.ts';

/**
 * The user of the client's user source with this name, active, with this password. The hash is always
 * checked (an unknown or disabled user answers as slowly as a wrong password) and every failure gives the
 * same answer: the form again (401), the failure counted by the rate limiter.
 */
export async function verifyPassword(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'directory' | 'limiter' | 'dummyVerify' | 'log' | 'seal' | 'secureCookies' | 'formTtlSeconds'>,
): Promise<StepOutcome> {
  const client = fromEarlierStep(ctx.client, 'client');
  const { username, password } = fromEarlierStep(ctx.credentials, 'credentials');
  const keys = fromEarlierStep(ctx.loginAttempt, 'login attempt');
  const user = await env.directory.findUserByUsername(client.tenant, client.userSourceId, username);
  let ok = false;
  if (user) ok = (await env.directory.verifyPassword(user, password)) && user.status === 'active';
  else await env.dummyVerify(password);
  if (!ok || !user) {
    await env.limiter.recordFailure(keys);
    env.log?.info({ clientId: client.clientId, tenant: client.tenant }, 'login failed');
    const sealedRequest = fromEarlierStep(ctx.sealedRequest, 'sealed request');
    showLoginForm(ctx, env, { status: 401, sealedRequest, error: INVALID_CREDENTIALS, username });
    return 'answered';
  }
  await env.limiter.recordSuccess(keys);
  ctx.user = user;
}
