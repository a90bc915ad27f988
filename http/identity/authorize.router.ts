import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { isValidCodeChallenge, resolvePkceMethod, type PkceMethod } from '../../domain/identity/pkce.ts';
import { OIDC_SCOPES, type Client, type User } from '../../domain/identity/model.ts';
import type { SessionStartedData } from '../../domain/identity/session.decider.ts';
import type { Codes } from '../../commands/identity/codes.ts';
import type { Directory, TokenService } from '../../commands/identity/contracts.ts';
import type { LoginLimiter } from '../../commands/identity/login-limiter.ts';
import { dummyVerify as defaultDummyVerify } from '../../commands/identity/password-hash.ts';
import type { Sessions } from '../../commands/identity/sessions.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { isStoreUnavailable } from '../../infra/core/store-errors.ts';
import { commandMetadata } from '../core/request-context.ts';
import {
  cookie,
  createLoginFormSeal,
  LOGIN_COOKIE,
  readCookies,
  SESSION_COOKIE,
} from './login-form.ts';
import { errorPage, loginPage, sendPage, signedOutPage } from './pages.ts';

/**
 * The browser-facing endpoints of the provider: the authorization endpoint with its login form, the login
 * POST, and RP-initiated logout. Until client_id and redirect_uri are known good, every problem is an
 * error page (never a redirect: an open redirector would hand codes or errors to anyone); after that,
 * problems go back to the client by redirect with `error` and `state` (RFC 6749 4.1.2.1).
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
   * answer is the same either way). Default: the scrypt of commands/identity/password-hash.ts.
   */
  dummyVerify?: (password: string) => Promise<boolean>;
};

/** The validated authorization request: what the login form carries sealed, and what a code records. */
export type AuthorizationRequest = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  nonce?: string;
  codeChallenge?: string;
  method?: PkceMethod;
  maxAge?: number;
  prompt: string[];
};

export const INVALID_CREDENTIALS = 'Invalid username or password.';
export const TOO_MANY_ATTEMPTS = 'Too many failed sign-in attempts. Please wait a few minutes and try again.';

/** A problem shown on a page of ours: the redirect target is unknown or untrusted. */
class PageError extends Error {
  constructor(readonly status: number, readonly title: string, message: string) {
    super(message);
  }
}
/** A problem reported to the client by redirect. */
class RedirectError extends Error {
  constructor(readonly error: string, readonly description: string) {
    super(description);
  }
}

const badRequestPage = (message: string) => new PageError(400, 'Sign-in request rejected', message);

type Params = Record<string, unknown>;
const paramsOf = (req: Request): Params =>
  (req.method === 'GET' ? req.query : typeof req.body === 'object' && req.body !== null ? req.body : {}) as Params;

/** One value of a parameter; repeated parameters are refused (RFC 6749 3.1). */
function one(params: Params, name: string, onRepeat: (name: string) => Error): string | undefined {
  const v = params[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw onRepeat(name);
  return v;
}

export function createAuthorizeRouter(deps: AuthorizeRouterDeps): Router {
  const seal = createLoginFormSeal(deps.formKey);
  const formTtl = deps.loginFormTtlSeconds ?? 900;
  const dummyVerify = deps.dummyVerify ?? defaultDummyVerify;
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);
  const router = Router();

  /** Pages catch their own failures: a browser gets a page, never JSON or a stack. */
  const page = (fn: (req: Request, res: Response) => Promise<void>): RequestHandler => async (req, res) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (err instanceof PageError) return sendPage(res, err.status, errorPage(err.title, err.message));
      const unavailable = isStoreUnavailable(err);
      deps.log?.[unavailable ? 'warn' : 'error']({ err, path: req.path }, 'identity page failed');
      sendPage(
        res,
        unavailable ? 503 : 500,
        errorPage('Something went wrong', 'The sign-in service could not complete your request. Please try again later.'),
        unavailable ? { 'Retry-After': '5' } : {},
      );
    }
  };

  // ----- authorization request: the checks, in order (node-oidc-provider's style: one small step each) -----

  type Ctx = { params: Params; client?: Client; request: Partial<AuthorizationRequest> };
  const repeatedPage = (name: string) => badRequestPage(`The parameter ${name} was given more than once.`);
  const repeated = (name: string) => new RedirectError('invalid_request', `${name} must be given once`);

  const steps: Array<{ name: string; run(ctx: Ctx): Promise<void> | void }> = [
    {
      name: 'checkClient',
      async run(ctx) {
        const clientId = one(ctx.params, 'client_id', repeatedPage);
        if (clientId === undefined) throw badRequestPage('The request has no client_id.');
        const client = clientId.length <= 200 ? await deps.directory.getClient(clientId) : null;
        if (!client || client.status !== 'active') throw badRequestPage('The application (client_id) is unknown.');
        ctx.client = client;
        ctx.request.clientId = clientId;
      },
    },
    {
      name: 'checkRedirectUri',
      run(ctx) {
        const uri = one(ctx.params, 'redirect_uri', repeatedPage);
        if (uri === undefined) throw badRequestPage('The request has no redirect_uri.');
        // exact string comparison with a registered URI (no prefix, no normalisation)
        if (!ctx.client!.redirectUris.includes(uri)) {
          throw badRequestPage('The redirect_uri is not registered for this application.');
        }
        ctx.request.redirectUri = uri;
        // from here on errors go back to the client, with its state when it sent one
        const state = ctx.params.state;
        if (typeof state === 'string' && state !== '' && state.length <= 2048) ctx.request.state = state;
      },
    },
    {
      name: 'checkUnsupportedParameters',
      run(ctx) {
        if (ctx.params.request !== undefined) throw new RedirectError('request_not_supported', 'request objects are not supported');
        if (ctx.params.request_uri !== undefined) throw new RedirectError('request_uri_not_supported', 'request_uri is not supported');
        const mode = one(ctx.params, 'response_mode', repeated);
        if (mode !== undefined && mode !== 'query') throw new RedirectError('invalid_request', 'only response_mode=query is supported');
      },
    },
    {
      name: 'checkResponseType',
      run(ctx) {
        const type = one(ctx.params, 'response_type', repeated);
        if (type === undefined) throw new RedirectError('invalid_request', 'response_type is required');
        if (type !== 'code') throw new RedirectError('unsupported_response_type', 'only response_type=code is supported');
        if (!ctx.client!.grantTypes.includes('authorization_code')) {
          throw new RedirectError('unauthorized_client', 'the client is not registered for the authorization_code grant');
        }
      },
    },
    {
      name: 'checkState',
      run(ctx) {
        // The spec makes state required: without it the client cannot tie the answer to its request.
        const state = one(ctx.params, 'state', repeated);
        if (state === undefined) throw new RedirectError('invalid_request', 'state is required');
        if (state.length > 2048) throw new RedirectError('invalid_request', 'state is too long');
      },
    },
    {
      name: 'checkScope',
      run(ctx) {
        const scope = one(ctx.params, 'scope', repeated);
        if (scope === undefined) throw new RedirectError('invalid_request', 'scope is required');
        const scopes = [...new Set(scope.split(' ').filter((s) => s !== ''))];
        const allowed = new Set<string>([...OIDC_SCOPES, ...ctx.client!.scopes]);
        const unknown = scopes.filter((s) => !allowed.has(s));
        if (scopes.length === 0 || unknown.length > 0) {
          throw new RedirectError('invalid_scope', `scope not allowed for this client: ${unknown.join(' ') || '(empty)'}`);
        }
        ctx.request.scopes = scopes;
      },
    },
    {
      name: 'checkNonce',
      run(ctx) {
        const nonce = one(ctx.params, 'nonce', repeated);
        if (nonce !== undefined && nonce.length > 512) throw new RedirectError('invalid_request', 'nonce is too long');
        if (nonce !== undefined) ctx.request.nonce = nonce;
      },
    },
    {
      name: 'checkPkce',
      run(ctx) {
        const challenge = one(ctx.params, 'code_challenge', repeated);
        const method = one(ctx.params, 'code_challenge_method', repeated);
        if (challenge === undefined) {
          if (method !== undefined) throw new RedirectError('invalid_request', 'code_challenge_method without code_challenge');
          if (ctx.client!.authMethod === 'none') {
            throw new RedirectError('invalid_request', 'PKCE is required for public clients: send code_challenge (S256)');
          }
          return;
        }
        const resolved = resolvePkceMethod(method, ctx.client!.allowPlainPkce);
        if (!resolved.ok) throw new RedirectError('invalid_request', resolved.reason);
        if (!isValidCodeChallenge(challenge)) throw new RedirectError('invalid_request', 'code_challenge must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
        ctx.request.codeChallenge = challenge;
        ctx.request.method = resolved.method;
      },
    },
    {
      name: 'checkPromptAndMaxAge',
      run(ctx) {
        const prompt = (one(ctx.params, 'prompt', repeated) ?? '').split(' ').filter((p) => p !== '');
        if (prompt.includes('none') && prompt.length > 1) throw new RedirectError('invalid_request', 'prompt=none cannot be combined');
        ctx.request.prompt = prompt;
        const maxAge = one(ctx.params, 'max_age', repeated);
        if (maxAge !== undefined) {
          if (!/^\d{1,10}$/.test(maxAge)) throw new RedirectError('invalid_request', 'max_age must be a non-negative integer');
          ctx.request.maxAge = Number(maxAge);
        }
      },
    },
  ];

  /** Redirect back to the client: code or error, with state and iss (RFC 9207, mix-up defence). */
  const redirectBack = (res: Response, redirectUri: string, params: Record<string, string | undefined>) => {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    url.searchParams.set('iss', deps.issuer);
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' }).redirect(302, url.href);
  };

  /** Scopes beyond openid/profile/email reach a user's token only when the user holds them as roles. */
  const grantedScopes = (requested: string[], user: User) =>
    requested.filter((s) => (OIDC_SCOPES as readonly string[]).includes(s) || user.roles.includes(s));

  const issueCode = async (req: Request, res: Response, request: AuthorizationRequest, client: Client, user: User, session: SessionStartedData) => {
    const { code } = await deps.codes.issue({
      clientId: client.clientId,
      tenant: client.tenant,
      redirectUri: request.redirectUri,
      userId: user.userId,
      scopes: grantedScopes(request.scopes, user),
      ...(request.nonce !== undefined && { nonce: request.nonce }),
      ...(request.codeChallenge !== undefined && { codeChallenge: request.codeChallenge, method: request.method ?? 'S256' }),
      authTime: session.authTime,
      sessionId: session.sessionId,
      context: commandMetadata(req, { tenant: client.tenant, actor: user.userId }),
    });
    redirectBack(res, request.redirectUri, { code, state: request.state });
  };

  /** The signed-in user of a session, when the session can serve this client's request. */
  const sessionUser = async (session: SessionStartedData | null, client: Client, request: AuthorizationRequest): Promise<User | null> => {
    if (!session || session.tenant !== client.tenant) return null;
    if (request.prompt.includes('login')) return null;
    // max_age=0 asks for a fresh login, like prompt=login (an authentication this very second included)
    if (request.maxAge !== undefined && (request.maxAge === 0 || nowSeconds() - session.authTime > request.maxAge)) return null;
    const user = await deps.directory.getUser(session.tenant, session.userId);
    if (!user || user.status !== 'active' || user.directory !== client.userSourceId) return null;
    return user;
  };

  const showLoginForm = (
    req: Request,
    res: Response,
    client: Client,
    sealed: string,
    status: number,
    error?: string,
    username?: string,
    retryAfterSeconds?: number,
  ) => {
    let csrfCookie = readCookies(req)[LOGIN_COOKIE];
    const headers: Record<string, string> = {};
    if (csrfCookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(csrfCookie)) {
      csrfCookie = seal.newCsrfCookie();
      res.append('Set-Cookie', cookie(LOGIN_COOKIE, csrfCookie, { secure: deps.secureCookies, maxAgeSeconds: formTtl }));
    }
    if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
    sendPage(
      res,
      status,
      loginPage({
        appName: client.appName ?? client.clientId,
        request: sealed,
        csrf: seal.csrfToken(csrfCookie),
        ...(error !== undefined && { error }),
        ...(username !== undefined && { username }),
      }),
      headers,
    );
  };

  const authorize = page(async (req, res) => {
    const ctx: Ctx = { params: paramsOf(req), request: {} };
    try {
      for (const step of steps) await step.run(ctx);
    } catch (err) {
      if (err instanceof RedirectError && ctx.request.redirectUri !== undefined) {
        return redirectBack(res, ctx.request.redirectUri, { error: err.error, error_description: err.description, state: ctx.request.state });
      }
      throw err;
    }
    const request = ctx.request as AuthorizationRequest;
    const client = ctx.client!;
    const session = await deps.sessions.get(readCookies(req)[SESSION_COOKIE]);
    const user = await sessionUser(session, client, request);
    if (user && session) return issueCode(req, res, request, client, user, session);
    if (request.prompt.includes('none')) {
      return redirectBack(res, request.redirectUri, { error: 'login_required', error_description: 'the user is not signed in', state: request.state });
    }
    showLoginForm(req, res, client, seal.seal(request, nowSeconds() + formTtl), 200);
  });

  const login = page(async (req, res) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Params;
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
    const cookies = readCookies(req);
    if (!seal.csrfMatches(cookies[LOGIN_COOKIE], body.csrf)) {
      throw new PageError(403, 'Sign-in form expired', 'The sign-in form could not be verified. Go back to the application and start again.');
    }
    const sealed = field('request');
    const opened = seal.unseal<AuthorizationRequest>(sealed, nowSeconds());
    if (!opened.ok) {
      throw opened.reason === 'expired'
        ? badRequestPage('This sign-in page has expired. Go back to the application and start again.')
        : badRequestPage('The sign-in request is invalid. Go back to the application and start again.');
    }
    const request = opened.value;
    const client = await deps.directory.getClient(request.clientId);
    if (!client || client.status !== 'active' || !client.redirectUris.includes(request.redirectUri)) {
      throw badRequestPage('The application is no longer available.');
    }
    const username = (field('username') ?? '').trim();
    const password = field('password') ?? '';
    if (username === '' || password === '' || username.length > 256 || password.length > 1024) {
      return showLoginForm(req, res, client, sealed!, 400, 'Enter your username and password.', username.slice(0, 256));
    }

    const keys = { user: { tenant: client.tenant, directory: client.userSourceId, username }, ...(req.ip !== undefined && { ip: req.ip }) };
    const verdict = await deps.limiter.check(keys);
    if (!verdict.allowed) return showLoginForm(req, res, client, sealed!, 429, TOO_MANY_ATTEMPTS, username, verdict.retryAfterSeconds);

    const user = await deps.directory.findUserByUsername(client.tenant, client.userSourceId, username);
    let ok = false;
    // the hash is always checked (a disabled user answers as slowly as a wrong password)
    if (user) ok = (await deps.directory.verifyPassword(user, password)) && user.status === 'active';
    else await dummyVerify(password);
    if (!ok || !user) {
      await deps.limiter.recordFailure(keys);
      deps.log?.info({ clientId: client.clientId, tenant: client.tenant }, 'login failed');
      return showLoginForm(req, res, client, sealed!, 401, INVALID_CREDENTIALS, username);
    }
    await deps.limiter.recordSuccess(keys);

    const meta = commandMetadata(req, { tenant: client.tenant, actor: user.userId });
    await deps.sessions.end(cookies[SESSION_COOKIE], meta);
    const { cookieValue, session } = await deps.sessions.start({ tenant: client.tenant, userId: user.userId, authTime: nowSeconds(), context: meta });
    res.append('Set-Cookie', cookie(SESSION_COOKIE, cookieValue, { secure: deps.secureCookies, maxAgeSeconds: deps.sessionTtlSeconds }));
    res.append('Set-Cookie', cookie(LOGIN_COOKIE, '', { secure: deps.secureCookies, maxAgeSeconds: 0 }));
    await issueCode(req, res, request, client, user, session);
  });

  const logout = page(async (req, res) => {
    const params = paramsOf(req);
    const hint = one(params, 'id_token_hint', repeatedPage);
    let clientId = one(params, 'client_id', repeatedPage);
    const target = one(params, 'post_logout_redirect_uri', repeatedPage);
    const state = one(params, 'state', repeatedPage);
    const signOutRejected = (message: string) => new PageError(400, 'Sign-out request rejected', message);

    if (hint !== undefined) {
      let claims;
      try {
        claims = await deps.tokens.verifyIdTokenHint(hint);
      } catch (err) {
        if (isStoreUnavailable(err)) throw err;
        throw signOutRejected('The id_token_hint is not a valid ID token of this provider.');
      }
      if (clientId !== undefined && !claims.aud.includes(clientId)) throw signOutRejected('The id_token_hint was not issued to this client_id.');
      if (clientId === undefined && claims.aud.length === 1) clientId = claims.aud[0];
    }
    let redirect: string | undefined;
    if (target !== undefined) {
      if (clientId === undefined) throw signOutRejected('post_logout_redirect_uri needs client_id or id_token_hint.');
      const client = await deps.directory.getClient(clientId);
      if (!client || client.status !== 'active') throw signOutRejected('The application (client_id) is unknown.');
      if (!client.postLogoutRedirectUris.includes(target)) {
        throw signOutRejected('The post_logout_redirect_uri is not registered for this application.');
      }
      redirect = target;
    }

    const cookieValue = readCookies(req)[SESSION_COOKIE];
    const session = await deps.sessions.get(cookieValue);
    await deps.sessions.end(cookieValue, commandMetadata(req, { tenant: session?.tenant ?? 'platform', ...(session && { actor: session.userId }) }));
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', { secure: deps.secureCookies, maxAgeSeconds: 0 }));

    if (redirect !== undefined) {
      const url = new URL(redirect);
      if (state !== undefined) url.searchParams.set('state', state);
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(302, url.href);
      return;
    }
    sendPage(res, 200, signedOutPage());
  });

  router.get('/cas/oidc/authorize', authorize);
  router.post('/cas/oidc/authorize', authorize);
  router.post('/cas/oidc/login', login);
  router.get('/cas/oidc/logout', logout);
  router.post('/cas/oidc/logout', logout);
  return router;
}
