import { type RequestHandler, type Response, Router } from 'express';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import { tenantCodeSchema } from '../../domain/core/tenant-code.ts';
import type { TraceDoc } from '../../projections/bridge/trace.projection.ts';
import type { TraceQueries } from '../../projections/bridge/trace.queries.ts';
import { pageSizeSchema } from '../core/paging.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { PLATFORM_ADMINS_NAME_ANY, targetTenant } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * The event trace (spec "Event trace"), scope `bridge:admin`, the caller's tenant's events
 * (`?tenant=` names another as the tenancy rule allows: a platform administrator any, a cross-tenant
 * token those its client may access; http/core/tenancy.ts):
 *
 *   GET /trace/events/{eventId}       one event's trace by the eventId putEvent answered
 *   GET /trace/events?…               by time range: from (inclusive), to (exclusive) — ISO instants of
 *                                     receipt — with optional bus, source, type and id (the producer's
 *                                     event id: (source, id) finds an event by its own id); newest first,
 *                                     `limit` (1-200, default 50) per page, `cursor` = `next` of the last page
 *
 * A trace has the spec's three stages: receipt (time, source, type, subject, bus, publisher, the event),
 * filtering (rules evaluated, matched — with the conversion outcome per target — and skipped, and which
 * kind of rule applied: platform or tenant), delivery (time and status per target, each attempt).
 * `filtering` is null until the router has processed the event.
 */
export type TraceRouterDeps = {
  queries: TraceQueries;
  bearer: { authenticate: RequestHandler; requireScope(...scopes: string[]): RequestHandler };
  registry?: RouteRegistry;
};

const tenant: JsonSchema = tenantCodeSchema;
const instant: JsonSchema = { type: 'string', format: 'date-time' };

const traceView = (d: TraceDoc) => ({
  eventId: d.id,
  tenant: d.tenant,
  bus: d.busTenant === d.tenant || d.busTenant === PLATFORM_TENANT ? d.bus : `${d.busTenant}/${d.bus}`,
  receipt: {
    receivedAt: d.receivedAt,
    source: d.source,
    type: d.type,
    ...(d.subject !== undefined && { subject: d.subject }),
    id: d.sourceEventId,
    ...(d.time !== undefined && { time: d.time }),
    publisher: d.publisher,
  },
  event: d.event,
  filtering: d.filtering,
  delivery: d.delivery,
  // repeats of (source, id) with other content (absent when there were none)
  ...(d.notes !== undefined && { notes: d.notes }),
});

const traceSchema: JsonSchema = {
  type: 'object',
  properties: {
    eventId: { type: 'string' },
    tenant: { type: 'string' },
    bus: { type: 'string' },
    receipt: { type: 'object' },
    event: { type: 'object' },
    filtering: { type: 'object', nullable: true },
    delivery: { type: 'array', items: { type: 'object' } },
    notes: {
      type: 'array',
      description: 'repeats of the event’s (source, id) whose content differed: when, which fields, who sent them',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string' },
          kind: { type: 'string', enum: ['duplicate-content-differs'] },
          fields: { type: 'array', items: { type: 'string' } },
          publisher: { type: 'object' },
        },
      },
    },
  },
};

export function createTraceRouter(deps: TraceRouterDeps): Router {
  const { queries, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(`${BRIDGE_ADMIN_BASE}/trace`, bearer.authenticate, bearer.requireScope(BRIDGE_ADMIN_SCOPE));

  const tenantOf = (res: Response, requested: unknown): string =>
    targetTenant(res, requested, PLATFORM_ADMINS_NAME_ANY);

  registry.route(
    router,
    {
      method: 'get',
      path: `${BRIDGE_ADMIN_BASE}/trace/events/:eventId`,
      summary: "one event's trace by the eventId putEvent answered",
      schemas: {
        params: {
          type: 'object',
          properties: { eventId: { type: 'string', minLength: 1, maxLength: 128 } },
          required: ['eventId'],
        },
        query: { type: 'object', properties: { tenant }, additionalProperties: false },
        response: traceSchema,
      },
      tags: ['trace'],
    },
    async (req, res) => {
      const doc = await queries.byEventId(tenantOf(res, req.query.tenant), String(req.params.eventId));
      if (doc === null)
        throw bridgeError('TRACE.NOT_FOUND', 'no trace for this event id', { eventId: req.params.eventId });
      res.json(traceView(doc));
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: `${BRIDGE_ADMIN_BASE}/trace/events`,
      summary: 'traces by time range of receipt, with bus, source, type and id filters, newest first, paged',
      schemas: {
        query: {
          type: 'object',
          properties: {
            from: instant,
            to: instant,
            bus: { type: 'string', minLength: 1, maxLength: 200 },
            source: { type: 'string', minLength: 1, maxLength: 256 },
            type: { type: 'string', minLength: 1, maxLength: 256 },
            id: { type: 'string', minLength: 1, maxLength: 256 },
            limit: pageSizeSchema(),
            cursor: { type: 'string', minLength: 1, maxLength: 1000 },
            tenant,
          },
          additionalProperties: false,
        },
        response: {
          type: 'object',
          properties: { items: { type: 'array', items: traceSchema }, next: { type: 'string', nullable: true } },
        },
      },
      tags: ['trace'],
    },
    async (req, res) => {
      const q = req.query as Record<string, string | number | undefined>;
      const str = (k: string) => (q[k] === undefined ? undefined : String(q[k]));
      // ISO instants in any offset: compared as the stored UTC form
      const iso = (k: string) => (q[k] === undefined ? undefined : new Date(String(q[k])).toISOString());
      const t = tenantOf(res, q.tenant);
      if (str('id') !== undefined) {
        if (str('source') === undefined) {
          throw coreError('REQUEST.INVALID', 'id is the producer’s event id: it needs source too', [
            { in: 'query', field: 'source', message: 'is required with id', keyword: 'dependentRequired' },
          ]);
        }
        // (source, id): the producer's own id; few documents, no paging needed
        const found = await queries.bySourceId(t, str('source')!, str('id')!, str('bus'));
        const fromIso = iso('from');
        const toIso = iso('to');
        const items = found.filter(
          (d) =>
            (fromIso === undefined || d.receivedAt >= fromIso) &&
            (toIso === undefined || d.receivedAt < toIso) &&
            (str('type') === undefined || d.type === str('type')),
        );
        res.json({ items: items.map(traceView), next: null });
        return;
      }
      const page = await queries.list({
        tenant: t,
        limit: Number(q.limit ?? 50),
        ...(iso('from') !== undefined && { from: iso('from')! }),
        ...(iso('to') !== undefined && { to: iso('to')! }),
        ...(str('bus') !== undefined && { bus: str('bus')! }),
        ...(str('source') !== undefined && { source: str('source')! }),
        ...(str('type') !== undefined && { type: str('type')! }),
        ...(str('cursor') !== undefined && { cursor: str('cursor')! }),
      });
      res.json({ items: page.items.map(traceView), next: page.next });
    },
  );

  return router;
}
