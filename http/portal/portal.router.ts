import { Router } from 'express';
import type { Clock } from '../../infra/core/clock.port.ts';
import { AUDIT_BASE } from '../audit/audit.paths.ts';
import { BRIDGE_BASE } from '../bridge/bridge.paths.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { CACHE_CLEAR_PATH, HUB_BASE } from '../hub/hub.paths.ts';
import { ADMIN_BASE } from '../identity/identity.paths.ts';
import { OPS_BASE } from '../operations/operations.paths.ts';
import { WORKFLOW_BASES } from '../workflow/workflow.paths.ts';
import { apiProxy } from './api-proxy.ts';
import { createAuthRouter } from './auth.router.ts';
import { PORTAL_API_BASE, PORTAL_OPENAPI_PATH } from './portal.paths.ts';
import type { PortalClients, PortalProvider, Sealer } from './portal.ports.ts';
import type { PortalSessions } from './portal-sessions.ts';
import { createSpaRouter } from './spa.router.ts';

/** The API paths the proxy passes on: every service's base (spec/http/portal checks them against the OpenAPI documents). */
export const PROXIED_API_BASES: readonly string[] = [
  `${BRIDGE_BASE}/`,
  `${ADMIN_BASE}/`,
  `${AUDIT_BASE}/`,
  `${HUB_BASE}/`,
  CACHE_CLEAR_PATH,
  ...WORKFLOW_BASES.map((b) => `${b}/`),
  `${OPS_BASE}/`,
];

/**
 * The portal, served by the platform at `/portal` (one router, mounted before the service routers):
 * the sign-in and the session (auth.router.ts), the API proxy (api-proxy.ts), the built web console
 * (spa.router.ts) and the BFF's OpenAPI document.
 */
export type PortalRouterDeps = {
  issuer: string;
  provider: PortalProvider;
  clients: PortalClients;
  sessions: PortalSessions;
  sealer: Sealer;
  clock: Clock;
  defaultTenant: string;
  scopes: readonly string[];
  /** the tenants whose sessions the Operations area is for (OPS_OPERATOR_TENANTS) */
  operatorTenants: readonly string[];
  secureCookies: boolean;
  distDir: string;
  registry?: RouteRegistry;
};

export function createPortalRouter(deps: PortalRouterDeps): Router {
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(PORTAL_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Portal backend', registry, '1.0.0', {
      description: `The web console's backend-for-frontend: the sign-in through the platform's identity provider and the session. ${PORTAL_API_BASE}/<API path> passes calls on to the platform's APIs with the session's token (header x-portal: 1).`,
    });
    res.json(document);
  });
  router.use(createAuthRouter({ ...deps, registry }));
  router.all(`${PORTAL_API_BASE}/*splat`, apiProxy({ sessions: deps.sessions, apiBases: PROXIED_API_BASES }));
  router.use(createSpaRouter({ distDir: deps.distDir, issuer: deps.issuer, defaultTenant: deps.defaultTenant }));
  return router;
}
