import { cookie, LOGIN_COOKIE, readCookies } from '../login-form.ts';
import { loginPage, sendPage } from '../pages.ts';
import { type FlowContext, type FlowEnv, fromEarlierStep } from './flow.context.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password.';
export const TOO_MANY_ATTEMPTS = 'Too many failed sign-in attempts. Please wait a few minutes and try again.';

export type LoginFormAnswer = {
  status: number;
  /** the authorization request, sealed (login-form.ts) */
  sealedRequest: string;
  error?: string;
  /** the username to fill in again */
  username?: string;
  retryAfterSeconds?: number;
};

/**
 * Answers with the HTML login form for the context's client. The CSRF token is derived from the pre-login
 * cookie, which is set here when the browser has none (or a malformed one).
 */
export function showLoginForm(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'seal' | 'secureCookies' | 'formTtlSeconds'>,
  answer: LoginFormAnswer,
): void {
  const { req, res } = ctx;
  const client = fromEarlierStep(ctx.client, 'client');
  let csrfCookie = readCookies(req)[LOGIN_COOKIE];
  const headers: Record<string, string> = {};
  if (csrfCookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(csrfCookie)) {
    csrfCookie = env.seal.newCsrfCookie();
    res.append(
      'Set-Cookie',
      cookie(LOGIN_COOKIE, csrfCookie, { secure: env.secureCookies, maxAgeSeconds: env.formTtlSeconds }),
    );
  }
  if (answer.retryAfterSeconds !== undefined) headers['Retry-After'] = String(answer.retryAfterSeconds);
  sendPage(
    res,
    answer.status,
    loginPage({
      appName: client.appName ?? client.clientId,
      request: answer.sealedRequest,
      csrf: env.seal.csrfToken(csrfCookie),
      ...(answer.error !== undefined && { error: answer.error }),
      ...(answer.username !== undefined && { username: answer.username }),
    }),
    headers,
  );
}
