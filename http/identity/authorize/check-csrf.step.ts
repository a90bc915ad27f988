import { LOGIN_COOKIE, readCookies } from '../login-form.ts';
import { PageError } from './authorize.errors.ts';
import type { FlowContext, FlowEnv } from './flow.context.ts';

/** The posted CSRF token matches the pre-login cookie (signed double submit, login-form.ts). */
export function checkCsrf(ctx: FlowContext, env: Pick<FlowEnv, 'seal'>): void {
  if (!env.seal.csrfMatches(readCookies(ctx.req)[LOGIN_COOKIE], ctx.params.csrf)) {
    throw new PageError(
      403,
      'Sign-in form expired',
      'The sign-in form could not be verified. Go back to the application and start again.',
    );
  }
}
