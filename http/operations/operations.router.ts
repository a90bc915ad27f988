import { Router } from 'express';
import { opsError } from '../../domain/operations/operations.errors.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { pageAnswer } from '../core/paging.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import {
  OPS_ADMIN_SCOPE,
  OPS_BASE,
  OPS_OPENAPI_PATH,
  PARKED,
  PROJECTIONS,
  READINESS,
  REBUILD,
  REBUILDS,
  RETRY,
} from './operations.paths.ts';
import type { OperationsBackend } from './operations.ports.ts';
import {
  nameParams,
  parkedPage,
  parkedQuery,
  projectionList,
  readinessView,
  rebuildParams,
  rebuildView,
  retryView,
} from './operations.schemas.ts';
import { operatorOnly } from './operator-only.ts';
import type { TimelineBackend } from './timeline.ports.ts';
import { registerTimelineRoutes } from './timeline.routes.ts';

/**
 * The operations API (`/ops/v1`, scope ops:admin, a token of an operator tenant): what `platform
 * projections`, `projections parked|retry`, `platform rebuild` and /health/ready tell, over HTTP for the
 * portal. Every route is the platform's, never a tenant's: no `tenant` parameter.
 *
 *   GET  /ops/v1/projections                 each projection: version, generation, position, head, lag, parked, state
 *   GET  /ops/v1/projections/{name}/parked   its parked events, a page at a time (limit, offset)
 *   POST /ops/v1/projections/{name}/retry    applies them again: { applied, failed }
 *   POST /ops/v1/projections/{name}/rebuild  202: a rebuild in the background (409 REBUILD.RUNNING while one runs)
 *   GET  /ops/v1/rebuilds/{id}               its progress and state
 *   GET  /ops/v1/readiness                   the readiness checks and the work engines' backlogs
 *   GET  /ops/v1/timeline, /ops/v1/streams/{stream}/state   the incident view (timeline.routes.ts)
 */
export type OperationsRouterDeps = {
  backend: OperationsBackend;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  operatorTenants: readonly string[];
  /** the incident view's events and states (`platform replay`) */
  timeline: TimelineBackend;
};

export function createOperationsRouter(deps: OperationsRouterDeps): { router: Router; registry: RouteRegistry } {
  const { backend, bearer } = deps;
  const registry = createRouteRegistry();
  const router = Router();

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(OPS_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Operations', registry, '1.0.0', {
      description:
        "The platform's projections, their parked events and rebuilds, readiness and the work engines' backlogs, and the incident timeline (scope ops:admin, a token of an operator tenant).",
      bearerScopes: [OPS_ADMIN_SCOPE],
    });
    res.json(document);
  });
  router.use(OPS_BASE, bearer.authenticate, bearer.requireScope(OPS_ADMIN_SCOPE), operatorOnly(deps.operatorTenants));

  const known = (name: string): string => {
    if (!backend.names().includes(name))
      throw opsError('PROJECTION.NOT_FOUND', `no projection ${name}`, { name, projections: backend.names() });
    return name;
  };
  const nameOf = (params: unknown) => known((params as { name: string }).name);

  registry.route(
    router,
    {
      method: 'get',
      path: PROJECTIONS,
      summary: 'the projections',
      schemas: { response: projectionList },
      tags: ['projections'],
    },
    async (_req, res) => {
      res.json({ items: await backend.projections() });
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: PARKED,
      summary: "a projection's parked events, in log order",
      schemas: { params: nameParams, query: parkedQuery, response: parkedPage },
      tags: ['projections'],
    },
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number };
      const page = await backend.parked(nameOf(req.params), q);
      res.json(pageAnswer(page, q, (parked) => parked));
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: RETRY,
      summary: "apply a projection's parked events again",
      schemas: { params: nameParams, response: retryView },
      tags: ['projections'],
    },
    async (req, res) => {
      res.json(await backend.retry(nameOf(req.params)));
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: REBUILD,
      summary: 'start a rebuild of the projection beside its live generation',
      schemas: { params: nameParams, response: rebuildView },
      successStatus: 202,
      tags: ['rebuilds'],
    },
    async (req, res) => {
      const started = await backend.startRebuild(nameOf(req.params));
      res.status(202).location(`${OPS_BASE}/rebuilds/${started.id}`).json(started);
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: REBUILDS,
      summary: "a rebuild's progress and state",
      schemas: { params: rebuildParams, response: rebuildView },
      tags: ['rebuilds'],
    },
    async (req, res) => {
      res.json(await backend.rebuild((req.params as { id: string }).id));
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: READINESS,
      summary: "the readiness checks and the work engines' backlogs",
      schemas: { response: readinessView },
      tags: ['readiness'],
    },
    async (_req, res) => {
      res.json(await backend.readiness());
    },
  );

  registerTimelineRoutes(router, registry, deps.timeline);

  return { router, registry };
}
