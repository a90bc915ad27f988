import { type RequestHandler, Router } from 'express';
import type { DirectoryCommands } from '../../commands/identity/directory.commands.ts';
import type { Directory } from '../../commands/identity/identity.contracts.ts';
import type { KeyRing } from '../../commands/identity/signing-key.ring.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createDirectoryQueries } from '../../projections/identity/directory.projection.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { createAdminClientsRouter } from './admin-clients.router.ts';
import { createAdminKeysRouter } from './admin-keys.router.ts';
import { createAdminTenantsRouter } from './admin-tenants.router.ts';
import { createAdminUsersRouter } from './admin-users.router.ts';
import { ADMIN_BASE, ADMIN_OPENAPI_PATH, IDENTITY_ADMIN_SCOPE } from './identity.paths.ts';

export { clientView, tenantView, userView } from './admin.views.ts';
export { ADMIN_BASE } from './identity.paths.ts';

/**
 * The identity provider's administration API, under `/cas/admin/v1` (the spec shows the portal, not an
 * API: these paths are ours). Every route needs a bearer token with the scope `identity:admin`.
 *
 * One file per resource: admin-tenants.router.ts, admin-users.router.ts, admin-clients.router.ts,
 * admin-keys.router.ts. What
 * they share: tenant isolation (admin.access.ts: the platform's tenancy rule, http/core/tenancy.ts, where a
 * `platform` admin also names any tenant), schema pieces (admin.schemas.ts), body parsing (admin.request.ts) and the
 * answers (admin.views.ts: snake_case, never a secret hash).
 */
export type AdminRouterDeps = {
  directory: Pick<Directory, 'getTenant' | 'getClient' | 'getUser'>;
  commands: DirectoryCommands;
  readStore: ReadStore;
  auth: { authenticate: RequestHandler; requireScope(scope: string): RequestHandler };
  clock: Clock;
  /** the provider's signing keys (`/keys`); a router built without them (a directory-only test) has no such routes */
  keyRing?: Pick<KeyRing, 'keys' | 'rotate'>;
  /** routes are recorded here for the OpenAPI document (a private registry when absent) */
  registry?: RouteRegistry;
};

export function createAdminRouter(deps: AdminRouterDeps): Router {
  const { directory, commands, auth } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const queries = createDirectoryQueries(deps.readStore);
  const router = Router();

  // The OpenAPI 3 document of this API, from the routes the resources declare through the
  // registry (the identity service's registry also holds the OAuth endpoints: only the admin routes are
  // listed). Public, before the token check, like the bridge's and the discovery documents.
  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(ADMIN_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument(
      'Identity provider administration',
      { routes: registry.routes.filter((r) => r.path.startsWith(`${ADMIN_BASE}/`)) },
      '1.0.0',
      {
        description: `Tenants, users, clients and signing keys of the identity provider. Every operation needs a bearer token with the scope ${IDENTITY_ADMIN_SCOPE}; a platform-tenant administrator may name any tenant.`,
        bearerScopes: [IDENTITY_ADMIN_SCOPE],
      },
    );
    res.json(document);
  });

  // before every resource: an unknown admin path without a token is 401, not 404
  router.use(ADMIN_BASE, auth.authenticate, auth.requireScope(IDENTITY_ADMIN_SCOPE));
  router.use(createAdminTenantsRouter({ directory, commands, queries, registry }));
  router.use(createAdminUsersRouter({ directory, commands, queries, registry }));
  router.use(createAdminClientsRouter({ directory, commands, queries, registry }));
  if (deps.keyRing !== undefined)
    router.use(createAdminKeysRouter({ keyRing: deps.keyRing, clock: deps.clock, registry }));
  return router;
}
