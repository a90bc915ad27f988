import { field } from './authorization-request.ts';
import { type FlowContext, type FlowEnv, fromEarlierStep, type StepOutcome } from './flow.context.ts';
import { showLoginForm } from './show-login-form.ts';

/** A username and a password, both present and of sane length; otherwise the form again (400). */
export function readCredentials(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'seal' | 'secureCookies' | 'formTtlSeconds'>,
): StepOutcome {
  const username = (field(ctx.params, 'username') ?? '').trim();
  const password = field(ctx.params, 'password') ?? '';
  if (username === '' || password === '' || username.length > 256 || password.length > 1024) {
    const sealedRequest = fromEarlierStep(ctx.sealedRequest, 'sealed request');
    showLoginForm(ctx, env, {
      status: 400,
      sealedRequest,
      error: 'Enter your username and password.',
      username: username.slice(0, 256),
    });
    return 'answered';
  }
  ctx.credentials = { username, password };
}
