import type { RequestHandler } from 'express';
import { portalError } from '../../domain/portal/portal.errors.ts';
import { sessionOf } from './auth.router.ts';
import { PORTAL_API_BASE, PORTAL_HEADER } from './portal.paths.ts';
import { isProviderError } from './portal.ports.ts';
import type { PortalSessions } from './portal-sessions.ts';

/**
 * `/portal/api/<API path>`: the backend-for-frontend's proxy. It needs the session cookie and the portal's
 * header, puts the session's access token (refreshed when near its end) in `Authorization`, rewrites the
 * request to the API path and lets the request go on through the app: the platform's own routers answer it
 * in this process, with their own validation, tenancy rule and errors, which reach the browser unchanged.
 * The portal's router is mounted before the service routers for that (infra/services.ts). So the proxy
 * reaches the services this process serves: a split deployment serves the portal beside them.
 *
 * Only the services' API paths are passed on (`apiBases`): not the provider's OAuth endpoints, not
 * /portal itself, not health or metrics.
 */
export type ApiProxyDeps = {
  sessions: PortalSessions;
  /** path prefixes of the platform's APIs */
  apiBases: readonly string[];
};

const PREFIX = `${PORTAL_API_BASE}/`;

export function apiProxy(deps: ApiProxyDeps): RequestHandler {
  const bases = deps.apiBases.map((b) => b.toLowerCase());
  return async (req, res, next) => {
    try {
      if (req.get(PORTAL_HEADER) !== '1')
        throw portalError('PORTAL.HEADER_REQUIRED', `calls of ${PORTAL_API_BASE} need the header ${PORTAL_HEADER}: 1`);
      const session = await sessionOf(deps.sessions, req);
      if (session === null) throw portalError('PORTAL.NO_SESSION', 'not signed in, or the session has ended');
      const rest = req.url.slice(PREFIX.length - 1);
      const path = rest.split('?', 1)[0]!.toLowerCase();
      // no dot segments either: `/api/../portal` must not walk out of the bases
      if (!bases.some((b) => path.startsWith(b)) || /(^|\/)\.\.?(\/|$)|%2e|%2f|%5c/i.test(path)) {
        throw portalError('PORTAL.NOT_PROXIED', `${PORTAL_API_BASE} passes on the platform's API paths only`, {
          path: rest.split('?', 1)[0],
        });
      }
      let token: string | null;
      try {
        token = await deps.sessions.accessToken(session);
      } catch (err) {
        // the provider cannot refresh the token now: a passing outage, not the platform's fault
        if (!isProviderError(err) || !err.unavailable) throw err;
        res.set('Retry-After', '5');
        throw portalError(
          'PORTAL.PROVIDER_UNAVAILABLE',
          'the identity provider cannot renew the session now: try again',
        );
      }
      if (token === null) throw portalError('PORTAL.NO_SESSION', 'the session has ended: sign in again');
      req.url = rest;
      req.headers.authorization = `Bearer ${token}`;
      // the portal's cookies are not the APIs' business
      delete req.headers.cookie;
      res.set('Cache-Control', 'no-store');
      next();
    } catch (err) {
      next(err);
    }
  };
}
