import { type RequestHandler, type Response, Router } from 'express';
import { type BusCommands, type BusLookup, requireBus } from '../../commands/bridge/buses.commands.ts';
import type { SourceCommands } from '../../commands/bridge/sources.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { BUS_NAME, resolveBusRef } from '../../domain/bridge/bus.decider.ts';
import { SOURCE_KINDS, SOURCE_NAME } from '../../domain/bridge/event-source.decider.ts';
import {
  type Bus,
  type BusKind,
  type EventSource,
  PLATFORM_TENANT,
  type SourceKind,
} from '../../domain/bridge/model.ts';
import type { CatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, isPlatformAdmin, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * Buses and event sources, under `/api/platform/platform-pub/eventBridge/admin/v1`,
 * scope `bridge:admin` (the spec shows the portal, not an API: these paths are ours):
 *
 *   POST   /buses                                  create a bus {name, description?, kind?}: a tenant creates
 *                                                   custom buses; platform administrators also platform
 *                                                   (`platform`, `platform-*`) and baseline (`baseline-*`) buses
 *   GET    /buses                                  the tenant's custom buses and the platform's buses
 *   GET    /buses/{bus}                            one bus with its event sources
 *   DELETE /buses/{bus}                            delete a custom bus (platform buses: platform administrators)
 *   PUT    /buses/{bus}/sources/{source}           register (or re-register) an event source {kind, eventTypes, schemaId?}
 *   GET    /buses/{bus}/sources                    the bus's event sources
 *
 * `{bus}` is resolved as putEvent's eventBusName is: a plain name is the caller's custom bus or a platform
 * bus (reserved names), `<tenant>/<name>` (URL-encoded `/`) another tenant's, which only platform
 * administrators may read or change (others get 404: existence is not revealed).
 */

export type BusesRouterDeps = {
  buses: BusCommands;
  sources: SourceCommands;
  lookup: Pick<BusLookup, 'getBus'>;
  catalog: CatalogQueries;
  bearer: { authenticate: RequestHandler; requireScope(...scopes: string[]): RequestHandler };
  registry?: RouteRegistry;
};

const busName: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const busView: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string', enum: ['platform', 'baseline', 'custom'] },
    tenant: { type: 'string' },
    description: { type: 'string' },
  },
};
const sourceView: JsonSchema = {
  type: 'object',
  properties: {
    bus: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: [...SOURCE_KINDS] },
    eventTypes: { type: 'array', items: { type: 'string' } },
    schemaId: { type: 'string' },
  },
};

const schemas = {
  createBus: {
    body: {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: BUS_NAME.source },
        description: { type: 'string', maxLength: 500 },
        kind: { type: 'string', enum: ['platform', 'baseline', 'custom'], default: 'custom' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    response: busView,
  },
  list: { response: { type: 'object', properties: { items: { type: 'array', items: busView } } } },
  busPath: { params: { type: 'object', properties: { bus: busName }, required: ['bus'] } },
  getBus: {
    params: { type: 'object', properties: { bus: busName }, required: ['bus'] },
    response: {
      ...busView,
      properties: { ...(busView.properties as object), sources: { type: 'array', items: sourceView } },
    },
  },
  registerSource: {
    params: {
      type: 'object',
      properties: { bus: busName, source: { type: 'string', pattern: SOURCE_NAME.source } },
      required: ['bus', 'source'],
    },
    body: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: [...SOURCE_KINDS] },
        eventTypes: {
          type: 'array',
          maxItems: 100,
          items: { type: 'string', minLength: 1, maxLength: 256 },
          default: [],
        },
        schemaId: { type: 'string', minLength: 1, maxLength: 200 },
      },
      required: ['kind'],
      additionalProperties: false,
    },
    response: sourceView,
  },
  listSources: {
    params: { type: 'object', properties: { bus: busName }, required: ['bus'] },
    response: { type: 'object', properties: { items: { type: 'array', items: sourceView } } },
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export const busOf = (b: Bus) => ({
  name: b.name,
  kind: b.kind,
  tenant: b.tenant,
  ...(b.description !== undefined && { description: b.description }),
});
export const sourceOf = (s: Pick<EventSource, 'bus' | 'name' | 'kind' | 'eventTypes' | 'schemaId'>) => ({
  bus: s.bus,
  name: s.name,
  kind: s.kind,
  eventTypes: s.eventTypes,
  ...(s.schemaId !== undefined && { schemaId: s.schemaId }),
});

export function createBusesRouter(deps: BusesRouterDeps): Router {
  const { buses, sources, lookup, catalog, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(`${BRIDGE_ADMIN_BASE}/buses`, bearer.authenticate, bearer.requireScope(BRIDGE_ADMIN_SCOPE));

  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    s: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
  ) =>
    registry.route(
      router,
      { method, path: `${BRIDGE_ADMIN_BASE}${path}`, summary, schemas: s, successStatus, tags: ['buses and sources'] },
      handler,
    );

  const ctx = (res: Response) => commandContext(res);

  /** the bus a path names, as the caller may see it (its own, the platform's, any for platform admins); 404 otherwise */
  const busRef = (res: Response, name: string) => {
    const tenant = tenantOf(res);
    const ref = resolveBusRef(name, tenant);
    if (ref === null || (ref.tenant !== tenant && ref.tenant !== PLATFORM_TENANT && !isPlatformAdmin(res))) {
      throw bridgeError('BUS.NOT_FOUND', `no bus ${name}`, { bus: name });
    }
    return ref;
  };

  route(
    'post',
    '/buses',
    'create a bus',
    schemas.createBus,
    async (req, res) => {
      const b = req.body as { name: string; description?: string; kind: BusKind };
      const { bus } = await buses.createBus(
        { name: b.name, kind: b.kind, ...(b.description !== undefined && { description: b.description }) },
        ctx(res),
        commandIdFrom(req),
      );
      res.status(201).json(busOf(bus));
    },
    201,
  );

  route('get', '/buses', "the tenant's custom buses and the platform's buses", schemas.list, async (_req, res) => {
    const items = await catalog.listBuses(tenantOf(res));
    res.json({ items: items.map(busOf) });
  });

  route('get', '/buses/:bus', 'one bus with its event sources', schemas.getBus, async (req, res) => {
    const ref = busRef(res, String(req.params.bus));
    const bus = await requireBus(lookup, ref.tenant, ref.name);
    const list = await catalog.listSources(bus.tenant, bus.name);
    res.json({ ...busOf(bus), sources: list.map(sourceOf) });
  });

  route(
    'delete',
    '/buses/:bus',
    'delete a bus',
    schemas.busPath,
    async (req, res) => {
      const ref = busRef(res, String(req.params.bus));
      await buses.deleteBus(ref, ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  route(
    'put',
    '/buses/:bus/sources/:source',
    'register an event source on a bus (again: replaces it)',
    schemas.registerSource,
    async (req, res) => {
      const ref = busRef(res, String(req.params.bus));
      const b = req.body as { kind: SourceKind; eventTypes: string[]; schemaId?: string };
      const { source } = await sources.registerSource(
        {
          busTenant: ref.tenant,
          bus: ref.name,
          name: String(req.params.source),
          kind: b.kind,
          eventTypes: b.eventTypes,
          ...(b.schemaId !== undefined && { schemaId: b.schemaId }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.json(sourceOf(source));
    },
  );

  route('get', '/buses/:bus/sources', "a bus's event sources", schemas.listSources, async (req, res) => {
    const ref = busRef(res, String(req.params.bus));
    const bus = await requireBus(lookup, ref.tenant, ref.name);
    res.json({ items: (await catalog.listSources(bus.tenant, bus.name)).map(sourceOf) });
  });

  return router;
}
