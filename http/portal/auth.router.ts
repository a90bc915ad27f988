import { createHash, randomBytes } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import { TENANT_CODE } from '../../domain/core/tenant-code.ts';
import { portalError } from '../../domain/portal/portal.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import {
  LOGIN_COOKIE,
  PORTAL_AUTH_BASE,
  PORTAL_BASE,
  PORTAL_CALLBACK_PATH,
  PORTAL_HEADER,
  PORTAL_LOGIN_PATH,
  PORTAL_LOGOUT_PATH,
  PORTAL_SESSION_PATH,
  PORTAL_SIGN_IN_PAGE,
  SESSION_COOKIE,
} from './portal.paths.ts';
import { isProviderError, type PortalClients, type PortalProvider, type Sealer } from './portal.ports.ts';
import { readCookies, setCookie } from './portal-cookies.ts';
import type { PortalSession, PortalSessions } from './portal-sessions.ts';
import { safeReturnTo } from './return-to.ts';

/**
 * The sign-in of the portal, as a confidential OpenID Connect client of the platform's own provider
 * (authorization code with PKCE S256, `state` and `nonce` checked), and its session:
 *
 *   GET  /portal/auth/login?tenant=&returnTo=   -> the provider's authorization endpoint
 *   GET  /portal/auth/callback?code=&state=     -> the session cookie, then returnTo
 *   POST /portal/auth/logout                    -> { redirectTo }: the provider's end-session URL
 *   GET  /portal/auth/session                   -> who is signed in, with which scopes (or 401)
 *
 * The tokens stay on the server (portal-sessions.ts); the browser holds an HttpOnly, SameSite=Strict cookie
 * with a random id. Problems of the sign-in come back to the sign-in page as `?error=<code>`, so the
 * application shows them in place; nothing is created then.
 */
export type AuthRouterDeps = {
  /** the issuer: PUBLIC_BASE_URL (this origin) */
  issuer: string;
  provider: PortalProvider;
  clients: PortalClients;
  sessions: PortalSessions;
  sealer: Sealer;
  clock: Clock;
  /** the tenant a sign-in without `tenant` is for (SEED_TENANT) */
  defaultTenant: string;
  /** the scopes the portal asks for (the user's roles decide which it gets) */
  scopes: readonly string[];
  /** the operator tenants (OPS_OPERATOR_TENANTS): the session answer says whether the session is of one */
  operatorTenants: readonly string[];
  secureCookies: boolean;
  registry: RouteRegistry;
};

const LOGIN_TTL_SECONDS = 600;

type LoginTransaction = {
  state: string;
  nonce: string;
  verifier: string;
  tenant: string;
  clientId: string;
  returnTo: string;
  expiresAt: number;
};

const random = () => randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

const sessionAnswer: JsonSchema = {
  type: 'object',
  properties: {
    tenant: { type: 'string' },
    user: {
      type: 'object',
      properties: { sub: { type: 'string' }, name: { type: 'string' }, username: { type: 'string' } },
      required: ['sub', 'name', 'username'],
    },
    scopes: { type: 'array', items: { type: 'string' } },
    platformAdmin: {
      type: 'boolean',
      description: 'a user of the platform tenant: may name another tenant where the API allows it',
    },
    operator: {
      type: 'boolean',
      description: 'a user of an operator tenant (OPS_OPERATOR_TENANTS): the operations API takes its ops:admin token',
    },
    expiresAt: { type: 'string', format: 'date-time' },
  },
  required: ['tenant', 'user', 'scopes', 'platformAdmin', 'operator', 'expiresAt'],
};

const schemas = {
  login: {
    query: {
      type: 'object',
      properties: {
        tenant: { type: 'string', maxLength: 63, description: 'the tenant to sign in to (default: the seeded tenant)' },
        returnTo: { type: 'string', maxLength: 2000, description: 'a path of the portal to land on after the sign-in' },
      },
    },
  },
  callback: {
    query: {
      type: 'object',
      properties: {
        code: { type: 'string', maxLength: 512 },
        state: { type: 'string', maxLength: 512 },
        iss: { type: 'string', maxLength: 2000 },
        error: { type: 'string', maxLength: 200 },
        error_description: { type: 'string', maxLength: 2000 },
      },
    },
  },
  logout: {
    response: {
      type: 'object',
      properties: {
        redirectTo: { type: 'string', description: "where the browser goes next: the provider's end-session endpoint" },
      },
      required: ['redirectTo'],
    },
  },
  session: { response: sessionAnswer },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export function sessionView(session: PortalSession, operatorTenants: readonly string[]) {
  return {
    tenant: session.tenant,
    user: { sub: session.sub, name: session.name, username: session.username },
    scopes: session.scopes,
    platformAdmin: session.tenant === PLATFORM_TENANT,
    operator: operatorTenants.includes(session.tenant),
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}

export function createAuthRouter(deps: AuthRouterDeps): Router {
  const { issuer, provider, clients, sessions, sealer, registry } = deps;
  const router = Router();
  const redirectUri = `${issuer}${PORTAL_CALLBACK_PATH}`;
  const postLogoutRedirectUri = `${issuer}${PORTAL_BASE}/`;
  /** the session's grant ends at the provider: its refresh token, or else its access token */
  const revokeGrantOf = (session: PortalSession) => {
    const { refreshToken, accessToken } = session.tokens;
    return provider.revoke(
      refreshToken !== undefined
        ? { clientId: session.clientId, token: refreshToken, hint: 'refresh_token' }
        : { clientId: session.clientId, token: accessToken, hint: 'access_token' },
    );
  };
  const loginCookie = (value: string, maxAgeSeconds: number) =>
    setCookie(LOGIN_COOKIE, value, {
      path: PORTAL_AUTH_BASE,
      sameSite: 'Lax',
      secure: deps.secureCookies,
      maxAgeSeconds,
    });
  const sessionCookie = (value: string, maxAgeSeconds: number) =>
    setCookie(SESSION_COOKIE, value, {
      path: PORTAL_BASE,
      sameSite: 'Strict',
      secure: deps.secureCookies,
      maxAgeSeconds,
    });
  const noStore = (res: Response) =>
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' });

  /** back to the sign-in page with an error code it explains (and the tenant, to keep the field) */
  const backToSignIn = (res: Response, error: string, extra: Record<string, string> = {}) => {
    const url = new URL(`${issuer}${PORTAL_SIGN_IN_PAGE}`);
    url.search = new URLSearchParams({ error, ...extra }).toString();
    noStore(res).append('Set-Cookie', loginCookie('', 0)).redirect(303, `${url.pathname}${url.search}`);
  };

  registry.route(
    router,
    {
      method: 'get',
      path: PORTAL_LOGIN_PATH,
      summary: "start a sign-in: redirects to the provider's authorization endpoint",
      schemas: schemas.login,
      successStatus: 302,
      tags: ['sign-in'],
    },
    async (req, res) => {
      const q = req.query as { tenant?: string; returnTo?: string };
      const returnTo = safeReturnTo(q.returnTo, issuer);
      if (returnTo === null)
        throw portalError('PORTAL.RETURN_TO_INVALID', 'returnTo must be a path of the portal on this origin', [
          { in: 'query', field: 'returnTo', message: 'must be a path under /portal/' },
        ]);
      const tenant = q.tenant === undefined || q.tenant === '' ? deps.defaultTenant : q.tenant.trim().toLowerCase();
      const clientId = TENANT_CODE.test(tenant) ? await clients.ensure(tenant) : null;
      if (clientId === null) return backToSignIn(res, 'unknown_tenant', { tenant });

      const tx: LoginTransaction = {
        state: random(),
        nonce: random(),
        verifier: random(),
        tenant,
        clientId,
        returnTo,
        expiresAt: deps.clock.now().getTime() + LOGIN_TTL_SECONDS * 1000,
      };
      const url = new URL(provider.authorizationEndpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: deps.scopes.join(' '),
        state: tx.state,
        nonce: tx.nonce,
        code_challenge: s256(tx.verifier),
        code_challenge_method: 'S256',
      }).toString();
      noStore(res)
        .append('Set-Cookie', loginCookie(sealer.seal(JSON.stringify(tx), 'portal-login'), LOGIN_TTL_SECONDS))
        .redirect(302, url.href);
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: PORTAL_CALLBACK_PATH,
      summary:
        'the redirect URI: checks state, redeems the code, verifies the ID token and its nonce, starts the session',
      schemas: schemas.callback,
      successStatus: 303,
      tags: ['sign-in'],
    },
    async (req, res) => {
      const q = req.query as {
        code?: string;
        state?: string;
        iss?: string;
        error?: string;
        error_description?: string;
      };
      const tx = openTransaction(readCookies(req)[LOGIN_COOKIE]);
      if (tx === null) return backToSignIn(res, 'login_expired');
      if (q.state === undefined || q.state !== tx.state)
        return backToSignIn(res, 'state_mismatch', { tenant: tx.tenant });
      // RFC 9207: the answer names its issuer; a mix-up with another provider stops here
      if (q.iss !== issuer) return backToSignIn(res, 'issuer_mismatch', { tenant: tx.tenant });
      if (q.error !== undefined) return backToSignIn(res, 'provider_refused', { tenant: tx.tenant, detail: q.error });
      if (q.code === undefined) return backToSignIn(res, 'provider_refused', { tenant: tx.tenant, detail: 'no code' });

      let tokens;
      let claims;
      try {
        tokens = await provider.redeemCode({
          clientId: tx.clientId,
          code: q.code,
          codeVerifier: tx.verifier,
          redirectUri,
        });
        if (tokens.idToken === undefined) return backToSignIn(res, 'id_token_invalid', { tenant: tx.tenant });
        claims = await provider.verifyIdToken({ clientId: tx.clientId, idToken: tokens.idToken, nonce: tx.nonce });
      } catch (err) {
        if (!isProviderError(err)) throw err;
        return backToSignIn(
          res,
          err.unavailable
            ? 'provider_unavailable'
            : err.error === 'id_token_invalid'
              ? 'id_token_invalid'
              : 'token_refused',
          { tenant: tx.tenant },
        );
      }
      if (claims.tenant !== tx.tenant) return backToSignIn(res, 'id_token_invalid', { tenant: tx.tenant });

      // a new sign-in replaces the browser's previous session: it ends, and its grant is revoked
      const previous = await sessions.end(readCookies(req)[SESSION_COOKIE]);
      if (previous !== null) await revokeGrantOf(previous);
      const { cookie, session } = await sessions.create({ tenant: tx.tenant, clientId: tx.clientId, claims, tokens });
      const maxAge = Math.floor((session.expiresAt - deps.clock.now().getTime()) / 1000);
      noStore(res)
        .append('Set-Cookie', loginCookie('', 0))
        .append('Set-Cookie', sessionCookie(cookie, maxAge))
        .redirect(303, tx.returnTo);
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: PORTAL_LOGOUT_PATH,
      summary: "end the session (and revoke its refresh token); answers the provider's end-session URL to go to",
      schemas: schemas.logout,
      tags: ['sign-in'],
    },
    async (req, res) => {
      if (req.get(PORTAL_HEADER) !== '1')
        throw portalError('PORTAL.HEADER_REQUIRED', `the sign-out needs the header ${PORTAL_HEADER}: 1`);
      const session = await sessions.end(readCookies(req)[SESSION_COOKIE]);
      noStore(res).append('Set-Cookie', sessionCookie('', 0));
      if (session === null) return res.json({ redirectTo: `${PORTAL_SIGN_IN_PAGE}` });
      await revokeGrantOf(session);
      const { idToken } = session.tokens;
      const url = new URL(provider.endSessionEndpoint);
      url.search = new URLSearchParams({
        client_id: session.clientId,
        post_logout_redirect_uri: postLogoutRedirectUri,
        ...(idToken !== undefined && { id_token_hint: idToken }),
      }).toString();
      res.json({ redirectTo: url.href });
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: PORTAL_SESSION_PATH,
      summary: 'the signed-in user, tenant and scopes (401 PORTAL.NO_SESSION without a session)',
      schemas: schemas.session,
      tags: ['sign-in'],
    },
    async (req, res) => {
      const session = await sessions.get(readCookies(req)[SESSION_COOKIE]);
      noStore(res);
      if (session === null) throw portalError('PORTAL.NO_SESSION', 'not signed in');
      res.json(sessionView(session, deps.operatorTenants));
    },
  );

  function openTransaction(value: string | undefined): LoginTransaction | null {
    if (value === undefined || value === '' || value.length > 4096) return null;
    try {
      const tx = JSON.parse(sealer.open(value, 'portal-login')) as LoginTransaction;
      return tx.expiresAt > deps.clock.now().getTime() ? tx : null;
    } catch {
      return null;
    }
  }

  return router;
}

/** the session of a request's cookie (the API proxy's and the session endpoint's lookup) */
export const sessionOf = (sessions: PortalSessions, req: Request) => sessions.get(readCookies(req)[SESSION_COOKIE]);
