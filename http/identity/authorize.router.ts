import { type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import type { Codes } from '../../commands/identity/authorization-codes.commands.ts';
import type { Directory, TokenService } from '../../commands/identity/identity.contracts.ts';
import type { LoginLimiter } from '../../commands/identity/login.limiter.ts';
import { dummyVerify as defaultDummyVerify } from '../../commands/identity/password.hash.ts';
import type { Sessions } from '../../commands/identity/sessions.commands.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { AUTHORIZATION_FLOW } from './authorize/authorization.flow.ts';
import { paramsOf } from './authorize/authorization-request.ts';
import type { FlowContext, FlowEnv, Step } from './authorize/flow.context.ts';
import { runFlow } from './authorize/flow.runner.ts';
import { LOGIN_FLOW } from './authorize/login.flow.ts';
import { createLogoutHandler } from './authorize/logout.handler.ts';
import { pageHandler } from './authorize/page.handler.ts';
import { AUTHORIZE_PATH, LOGIN_PATH, LOGOUT_PATH } from './identity.paths.ts';
import { createLoginFormSeal } from './login-form.ts';

export type { AuthorizationRequest } from './authorize/authorization-request.ts';
export { INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from './authorize/show-login-form.ts';

/**
 * The browser-facing endpoints of the provider: the authorization endpoint with its login form, the login
 * POST, and RP-initiated logout. Authorization and login are lists of small named steps
 * (authorize/authorization.flow.ts, authorize/login.flow.ts, one file per step) run in order by
 * authorize/flow.runner.ts. Until client_id and redirect_uri are known good, every problem is an error
 * page (never a redirect: an open redirector would hand codes or errors to anyone); after that, problems
 * go back to the client by redirect with `error` and `state` (RFC 6749 4.1.2.1).
 */
export type AuthorizeRouterDeps = {
  directory: Directory;
  codes: Pick<Codes, 'issue'>;
  sessions: Pick<Sessions, 'get' | 'start' | 'end'>;
  limiter: Pick<LoginLimiter, 'check' | 'recordFailure' | 'recordSuccess'>;
  tokens: Pick<TokenService, 'verifyIdTokenHint'>;
  clock: Clock;
  /** the issuer, sent as `iss` in authorization responses (RFC 9207) */
  issuer: string;
  /** HMAC key of the login form (sealed request, CSRF); at least 32 bytes, the same in every process */
  formKey: Uint8Array;
  secureCookies: boolean;
  sessionTtlSeconds: number;
  /** how long a login form may be submitted (default 900 s) */
  loginFormTtlSeconds?: number;
  log?: Logger;
  /**
   * Spends a password check's time and answers false: unknown user names take as long as known ones (the
   * answer is the same either way). Default: the scrypt of commands/identity/password.hash.ts.
   */
  dummyVerify?: (password: string) => Promise<boolean>;
};

export function createAuthorizeRouter(deps: AuthorizeRouterDeps): Router {
  const env: FlowEnv = {
    directory: deps.directory,
    codes: deps.codes,
    sessions: deps.sessions,
    limiter: deps.limiter,
    issuer: deps.issuer,
    seal: createLoginFormSeal(deps.formKey),
    formTtlSeconds: deps.loginFormTtlSeconds ?? 900,
    secureCookies: deps.secureCookies,
    sessionTtlSeconds: deps.sessionTtlSeconds,
    ...(deps.log !== undefined && { log: deps.log }),
    dummyVerify: deps.dummyVerify ?? defaultDummyVerify,
    nowSeconds: () => Math.floor(deps.clock.now().getTime() / 1000),
  };
  const page = pageHandler(deps.log);
  const flow = (steps: readonly Step[]) =>
    page((req: Request, res: Response) => {
      const ctx: FlowContext = { req, res, params: paramsOf(req), request: {} };
      return runFlow(steps, ctx, env);
    });

  const authorize = flow(AUTHORIZATION_FLOW);
  const login = flow(LOGIN_FLOW);
  const logout = page(createLogoutHandler(deps));

  const router = Router();
  router.get(AUTHORIZE_PATH, authorize);
  router.post(AUTHORIZE_PATH, authorize);
  router.post(LOGIN_PATH, login);
  router.get(LOGOUT_PATH, logout);
  router.post(LOGOUT_PATH, logout);
  return router;
}
