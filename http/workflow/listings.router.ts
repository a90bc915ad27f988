import { Router } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { localDateTime, parseDateTime } from '../../domain/workflow/time/iso8601.ts';
import type { InstanceDoc, InstanceQueries } from '../../projections/workflow/instances.projection.ts';
import type { TimerQueries } from '../../projections/workflow/timers.projection.ts';
import { pageAnswer, pageOf, pagingProperties } from '../core/paging.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * The tenant's lists over the read models (scope workflow:user; the projections' latency applies):
 * `GET /process-instances` (newest first, by state, process key, business key; called instances included)
 * and `GET /timers` (the pending timers, soonest first, each with its instance's key and business key).
 */
const STATES = ['ACTIVE', 'COMPLETED', 'TERMINATED'] as const;
const key = { type: 'string', minLength: 1, maxLength: 255 };
const nullable = (type: string) => ({ type: [type, 'null'] });
const links: JsonSchema = {
  type: 'array',
  items: { type: 'object', properties: { rel: { type: 'string' }, href: { type: 'string' } } },
};
const instanceSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    rootInstanceId: { type: 'string' },
    parentInstanceId: nullable('string'),
    processDefinitionId: { type: 'string' },
    processDefinitionKey: { type: 'string' },
    processDefinitionVersion: { type: 'integer' },
    businessKey: { type: 'string' },
    state: { type: 'string', enum: [...STATES] },
    startedDate: { type: 'string' },
    endedDate: nullable('string'),
    links,
  },
};
const timerSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    processInstanceId: { type: 'string' },
    elementId: { type: 'string' },
    boundary: { type: 'boolean' },
    dueDate: { type: 'string' },
    processDefinitionId: nullable('string'),
    processDefinitionKey: nullable('string'),
    businessKey: nullable('string'),
    links,
  },
};
const schemas = {
  instances: {
    query: {
      type: 'object',
      properties: {
        state: { type: 'string', enum: [...STATES] },
        processDefinitionKey: key,
        businessKey: key,
        ...pagingProperties(),
      },
      additionalProperties: false,
    },
    response: pageOf(instanceSchema),
  },
  timers: {
    query: {
      type: 'object',
      properties: { dueBefore: { type: 'string', minLength: 10, maxLength: 40 }, ...pagingProperties() },
      additionalProperties: false,
    },
    response: pageOf(timerSchema),
  },
};

const instanceLink = (base: string, id: string) => ({
  rel: 'processInstance',
  href: `${base}/process-instances/${id}`,
});

export function createListingsRouter(deps: {
  instances: InstanceQueries;
  timers: TimerQueries;
  registry: RouteRegistry;
}): Router {
  const { registry } = deps;
  const router = Router();

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/process-instances',
      summary: "the tenant's process instances, newest first, by state, key or business key",
      schemas: schemas.instances,
      tags: ['process instances'],
    },
    async (req, res, base) => {
      const q = req.query as unknown as {
        state?: (typeof STATES)[number];
        processDefinitionKey?: string;
        businessKey?: string;
        limit: number;
        offset: number;
      };
      const page = await deps.instances.list(tenantOf(res), q);
      res.json(
        pageAnswer(page, q, (d: InstanceDoc) => ({
          id: d.id,
          rootInstanceId: d.rootInstanceId,
          parentInstanceId: d.parentInstanceId,
          processDefinitionId: d.processDefinitionId,
          processDefinitionKey: d.processKey,
          processDefinitionVersion: d.version,
          businessKey: d.businessKey,
          state: d.state,
          startedDate: localDateTime(d.startedAt),
          endedDate: d.endedAt === null ? null : localDateTime(d.endedAt),
          links: [instanceLink(base, d.id)],
        })),
      );
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/timers',
      summary: "the tenant's pending timers, soonest first",
      schemas: schemas.timers,
      tags: ['timers'],
    },
    async (req, res, base) => {
      const q = req.query as unknown as { dueBefore?: string; limit: number; offset: number };
      let dueBefore: string | undefined;
      if (q.dueBefore !== undefined) {
        const at = parseDateTime(q.dueBefore);
        if (at === null)
          throw coreError('REQUEST.INVALID', 'dueBefore: an ISO 8601 date or date-time is expected', [
            { in: 'query', field: 'dueBefore', message: 'an ISO 8601 date or date-time is expected' },
          ]);
        dueBefore = at;
      }
      const tenant = tenantOf(res);
      const page = await deps.timers.list(tenant, {
        limit: q.limit,
        offset: q.offset,
        ...(dueBefore && { dueBefore }),
      });
      const owners = new Map(
        (await deps.instances.byIds(tenant, [...new Set(page.items.map((t) => t.instanceId))])).map((d) => [d.id, d]),
      );
      res.json(
        pageAnswer(page, q, (t) => {
          const owner = owners.get(t.instanceId);
          return {
            id: t.id,
            processInstanceId: t.instanceId,
            elementId: t.elementId,
            boundary: t.boundary,
            dueDate: localDateTime(t.dueAt),
            processDefinitionId: owner?.processDefinitionId ?? null,
            processDefinitionKey: owner?.processKey ?? null,
            businessKey: owner?.businessKey ?? null,
            links: [instanceLink(base, t.instanceId)],
          };
        }),
      );
    },
  );

  return router;
}
