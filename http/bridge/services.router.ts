import { type RequestHandler, Router } from 'express';
import type { ServiceRegistryCommands } from '../../commands/bridge/service-registry.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { RECEIVED_EVENT_PATH } from '../../domain/bridge/bridge.paths.ts';
import { SERVICE_NAME, type ServiceEntry } from '../../domain/bridge/service-entry.decider.ts';
import type { ServiceQueries } from '../../projections/bridge/services.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, isPlatformAdmin, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * The service registry: where preset HTTP client targets (TypeId 3) deliver, by
 * service name, under `/api/platform/platform-pub/eventBridge/admin/v1/services` (scope bridge:admin):
 *
 *   GET    /services                   the tenant's entries and the platform's (scope: tenant | platform;
 *                                      a platform entry the tenant's own entry of the same name hides is
 *                                      `overridden: true`)
 *   GET    /services/{name}            the entry a rule of the tenant delivers to (its own, else the platform's)
 *   PUT    /services/{name}            {baseUrl, receivePath?}: the tenant's own entry (a platform-tenant
 *                                      administrator's entries are the platform's, seen by every tenant)
 *   DELETE /services/{name}            the tenant's own entry (204)
 *
 * Targets resolve names at delivery time: a change counts for the next delivery, without a restart.
 * SERVICE_REGISTRY seeds platform entries at start. Writes honour the Idempotency-Key header; the listing
 * follows the log by a moment (a read model).
 */
export type ServicesRouterDeps = {
  commands: ServiceRegistryCommands;
  queries: ServiceQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry?: RouteRegistry;
};

const BASE = `${BRIDGE_ADMIN_BASE}/services`;

const nameParams: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string', pattern: SERVICE_NAME.source } },
  required: ['name'],
};
const noQuery: JsonSchema = { type: 'object', additionalProperties: false };
const entrySchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    baseUrl: { type: 'string' },
    receivePath: { type: 'string' },
    url: { type: 'string', description: 'where deliveries go: baseUrl + receivePath' },
    scope: { type: 'string', enum: ['tenant', 'platform'] },
    overridden: { type: 'boolean' },
    updatedAt: { type: 'string' },
  },
  example: {
    name: 'claims',
    baseUrl: 'https://claims.internal:8443',
    receivePath: RECEIVED_EVENT_PATH,
    url: `https://claims.internal:8443${RECEIVED_EVENT_PATH}`,
    scope: 'tenant',
  },
};

const view = (e: ServiceEntry, scope: 'tenant' | 'platform', extra: Record<string, unknown> = {}) => ({
  name: e.name,
  baseUrl: e.baseUrl,
  receivePath: e.receivePath,
  url: `${e.baseUrl}${e.receivePath}`,
  scope,
  ...extra,
});

export function createServicesRouter(deps: ServicesRouterDeps): Router {
  const { commands, queries, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(BASE, bearer.authenticate, bearer.requireScope(BRIDGE_ADMIN_SCOPE));
  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    schemas: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
  ) =>
    registry.route(
      router,
      { method, path: `${BASE}${path}`, summary, schemas, successStatus, tags: ['bridge services'] },
      handler,
    );

  route(
    'get',
    '',
    "the tenant's service entries and the platform's",
    { query: noQuery, response: { type: 'object', properties: { items: { type: 'array', items: entrySchema } } } },
    async (_req, res) => {
      const items = await queries.list(tenantOf(res));
      res.json({ items: items.map((d) => view(d, d.scope, { overridden: d.overridden, updatedAt: d.updatedAt })) });
    },
  );

  route(
    'get',
    '/:name',
    'the entry a rule of the tenant delivers to: its own, else the platform’s',
    { params: nameParams, query: noQuery, response: entrySchema },
    async (req, res) => {
      const found = await commands.resolve(tenantOf(res), String(req.params.name));
      if (found === null)
        throw bridgeError('SERVICE.NOT_FOUND', `no service ${String(req.params.name)} in the registry`);
      res.json(view(found, found.scope));
    },
  );

  route(
    'put',
    '/:name',
    'set a service entry of the tenant (a platform administrator: of the platform, seen by every tenant)',
    {
      params: nameParams,
      query: noQuery,
      body: {
        type: 'object',
        properties: {
          baseUrl: {
            type: 'string',
            minLength: 1,
            maxLength: 2000,
            description: 'http or https, without query or fragment',
          },
          receivePath: { type: 'string', minLength: 1, maxLength: 512, description: `default ${RECEIVED_EVENT_PATH}` },
        },
        required: ['baseUrl'],
        additionalProperties: false,
        example: { baseUrl: 'https://claims.internal:8443' },
      },
      response: entrySchema,
    },
    async (req, res) => {
      const b = req.body as { baseUrl: string; receivePath?: string };
      const { entry } = await commands.set(
        {
          name: String(req.params.name),
          baseUrl: b.baseUrl,
          ...(b.receivePath !== undefined && { receivePath: b.receivePath }),
        },
        commandContext(res),
        commandIdFrom(req),
      );
      res.json(view(entry, isPlatformAdmin(res) ? 'platform' : 'tenant'));
    },
  );

  route(
    'delete',
    '/:name',
    "remove the tenant's own entry",
    { params: nameParams, query: noQuery },
    async (req, res) => {
      const tenant = tenantOf(res);
      const name = String(req.params.name);
      if ((await commands.get(tenant, name)) === null)
        throw bridgeError(
          'SERVICE.NOT_FOUND',
          `the tenant has no entry ${name} (a platform entry is removed by a platform administrator)`,
        );
      await commands.remove(name, commandContext(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  return router;
}
