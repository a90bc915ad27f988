import { checkCsrf } from './check-csrf.step.ts';
import { checkRateLimit } from './check-rate-limit.step.ts';
import type { Step } from './flow.context.ts';
import { openLoginForm } from './open-login-form.step.ts';
import { readCredentials } from './read-credentials.step.ts';
import { recheckClient } from './recheck-client.step.ts';
import { respond } from './respond.step.ts';
import { startSession } from './start-session.step.ts';
import { verifyPassword } from './verify-password.step.ts';

/**
 * `POST /cas/oidc/login`, the login form's submission, in order: the form is ours and unexpired (error
 * pages otherwise), the credentials pass the rate limiter and the password check (the form again
 * otherwise), then a new session and the code, as the authorization flow would have answered.
 */
export const LOGIN_FLOW: readonly Step[] = [
  checkCsrf,
  openLoginForm,
  recheckClient,
  readCredentials,
  checkRateLimit,
  verifyPassword,
  startSession,
  respond,
];
