/**
 * The portal's paths, cookies and header, in one place (DESIGN "Services as modules"). The web console is
 * served under `/portal`; its backend-for-frontend answers under `/portal/auth` (sign-in, sign-out, the
 * session) and `/portal/api` (the platform's APIs with the session's token).
 */
export const PORTAL_BASE = '/portal';
export const PORTAL_AUTH_BASE = `${PORTAL_BASE}/auth`;
export const PORTAL_LOGIN_PATH = `${PORTAL_AUTH_BASE}/login`;
export const PORTAL_CALLBACK_PATH = `${PORTAL_AUTH_BASE}/callback`;
export const PORTAL_LOGOUT_PATH = `${PORTAL_AUTH_BASE}/logout`;
export const PORTAL_SESSION_PATH = `${PORTAL_AUTH_BASE}/session`;
/** the BFF's own OpenAPI 3 document (the sign-in endpoints and the session) */
export const PORTAL_OPENAPI_PATH = `${PORTAL_BASE}/openapi.json`;
/** `/portal/api/<an API path>`: the API path with the session's bearer token */
export const PORTAL_API_BASE = `${PORTAL_BASE}/api`;
/** the single-page application's sign-in page (errors of the sign-in come back to it as `?error=`) */
export const PORTAL_SIGN_IN_PAGE = `${PORTAL_BASE}/sign-in`;

/** the session cookie: HttpOnly, SameSite=Strict, Path=/portal */
export const SESSION_COOKIE = 'portal_session';
/** the sign-in in progress (state, nonce, PKCE verifier, sealed): HttpOnly, SameSite=Lax, Path=/portal/auth, 10 minutes */
export const LOGIN_COOKIE = 'portal_login';
/**
 * Every call of `/portal/api` and the sign-out carry this header: a form or a link of another site cannot
 * add it, and a script of another origin cannot send it without a CORS preflight nobody answers (CSRF
 * defence beside SameSite=Strict).
 */
export const PORTAL_HEADER = 'x-portal';
