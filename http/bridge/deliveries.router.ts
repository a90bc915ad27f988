import { type Request, type RequestHandler, type Response, Router } from 'express';
import {
  type DeadLetterCommands,
  type DeadLetterFilter,
  MAX_REDRIVE_SELECTION,
} from '../../commands/bridge/dead-letters.commands.ts';
import type { RuleTargetCommands } from '../../commands/bridge/rule-target-state.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { DELIVERY_ERROR_CLASSES } from '../../domain/bridge/delivery-error-class.ts';
import { RULE_ID } from '../../domain/bridge/rule.decider.ts';
import { type RuleTargetRef, ruleTargetKey } from '../../domain/bridge/rule-target-state.decider.ts';
import type { DeliveryQueries } from '../../projections/bridge/deliveries.queries.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageAnswer, pageOf, pagingProperties } from '../core/paging.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * Delivery administration per rule target (the spec shows a portal, these paths are ours), under
 * `/api/platform/platform-pub/eventBridge/admin/v1/rules/{ruleId}/targets/{targetId}`:
 *
 *   GET    /dead-letters?limit=&offset=          the dead letter queue, oldest first
 *   GET    /dead-letters/{deliveryId}            one dead letter: the raw event, the payload and the last
 *                                                error, unchanged, with every attempt
 *   POST   /dead-letters/{deliveryId}/redrive    deliver it again (a new round of attempts, same delivery id)
 *   POST   /dead-letters/redrive                 every dead letter of the rule target
 *   DELETE /dead-letters/{deliveryId}            purge one (204)
 *   DELETE /dead-letters                         purge all
 *   GET    /status                               blocked or not (ErrorTolerance NONE), by which deliveries,
 *                                                and the deliveries per status (waiting: held by the block)
 *   POST   /resume                               an operator resumes a blocked rule target: the blocking
 *                                                deliveries get a new round, the waiting ones go in order
 *
 * and one list per tenant across its rules and targets, under `…/admin/v1/dead-letters`:
 *
 *   GET    /dead-letters?ruleId=&typeId=&errorClass=&from=&to=&limit=&offset=
 *                                                the tenant's dead letters (of its rules), oldest first, with
 *                                                rule, target, target type and error class
 *   POST   /dead-letters/redrive                 a selection: `{deliveryIds: [...]}` or `{filter: {ruleId,
 *                                                typeId, errorClass, from, to}}` (at most 1,000 at a time)
 *
 * Scope `bridge:admin`; the rule is the token tenant's (platform rules: the platform tenant's admins).
 * An unknown rule is 404 RULE.NOT_FOUND; a deleted rule keeps its dead letters. Writes honour the
 * Idempotency-Key header. Read models may lag the log by a moment: a redrive is visible in the list once
 * projected.
 */
export type DeliveriesRouterDeps = {
  deadLetters: DeadLetterCommands;
  ruleTargets: RuleTargetCommands;
  queries: DeliveryQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry?: RouteRegistry;
};

const TARGET_BASE = `${BRIDGE_ADMIN_BASE}/rules/:ruleId/targets/:targetId`;
const TENANT_DEAD_LETTERS = `${BRIDGE_ADMIN_BASE}/dead-letters`;

const deadLetterFilterProperties = {
  ruleId: { type: 'string', pattern: RULE_ID.source },
  typeId: {
    type: 'integer',
    minimum: 1,
    maximum: 5,
    description: 'the target type: 1 mail, 2 message queue, 3 preset HTTP, 4 API destination, 5 message box',
  },
  errorClass: { type: 'string', enum: [...DELIVERY_ERROR_CLASSES] },
  from: { type: 'string', format: 'date-time', description: 'dead-lettered at or after' },
  to: { type: 'string', format: 'date-time', description: 'dead-lettered before' },
};
const tenantListQuery: JsonSchema = {
  type: 'object',
  properties: { ...deadLetterFilterProperties, ...pagingProperties() },
  additionalProperties: false,
};
const redriveSelection: JsonSchema = {
  type: 'object',
  oneOf: [
    {
      type: 'object',
      properties: {
        deliveryIds: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_REDRIVE_SELECTION,
          uniqueItems: true,
          items: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
      required: ['deliveryIds'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { filter: { type: 'object', properties: deadLetterFilterProperties, additionalProperties: false } },
      required: ['filter'],
      additionalProperties: false,
    },
  ],
  example: { filter: { ruleId: 'order-alerts', errorClass: 'http-5xx', from: '2026-11-22T00:00:00Z' } },
};
const instantOf = (v: unknown): string | undefined => (typeof v === 'string' ? new Date(v).toISOString() : undefined);
const filterOf = (q: Record<string, unknown>): DeadLetterFilter => ({
  ...(typeof q.ruleId === 'string' && { ruleId: q.ruleId }),
  ...(typeof q.typeId === 'number' && { typeId: q.typeId }),
  ...(typeof q.errorClass === 'string' && { errorClass: q.errorClass as DeadLetterFilter['errorClass'] & string }),
  ...(q.from !== undefined && { from: instantOf(q.from)! }),
  ...(q.to !== undefined && { to: instantOf(q.to)! }),
});

const ruleTargetParams: JsonSchema = {
  type: 'object',
  properties: {
    ruleId: { type: 'string', pattern: RULE_ID.source },
    targetId: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
  },
  required: ['ruleId', 'targetId'],
};
const deliveryParams: JsonSchema = {
  type: 'object',
  properties: { ...ruleTargetParams.properties, deliveryId: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  required: ['ruleId', 'targetId', 'deliveryId'],
};
const page: JsonSchema = {
  type: 'object',
  properties: pagingProperties(),
  additionalProperties: false,
};
const noQuery: JsonSchema = { type: 'object', additionalProperties: false };

const deadLetterSchema: JsonSchema = {
  type: 'object',
  properties: {
    deliveryId: { type: 'string' },
    ruleId: { type: 'string' },
    targetId: { type: 'integer' },
    typeId: { type: 'integer' },
    errorClass: { type: 'string', enum: [...DELIVERY_ERROR_CLASSES] },
    eventId: { type: 'string' },
    tenant: { type: 'string' },
    source: { type: 'string' },
    type: { type: 'string' },
    sourceEventId: { type: 'string' },
    deadLetteredAt: { type: 'string' },
    lastError: { type: 'string' },
    httpStatus: { type: 'integer' },
    attempts: { type: 'integer' },
  },
};
const statusSchema: JsonSchema = {
  type: 'object',
  properties: {
    ruleId: { type: 'string' },
    targetId: { type: 'integer' },
    blocked: { type: 'boolean' },
    blockedAt: { type: 'string' },
    blockedBy: { type: 'array', items: { type: 'object' } },
    resumedAt: { type: 'string' },
    counts: { type: 'object' },
  },
};

export function createDeliveriesRouter(deps: DeliveriesRouterDeps): Router {
  const { deadLetters, ruleTargets, queries, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(
    `${BRIDGE_ADMIN_BASE}/rules/:ruleId/targets`,
    bearer.authenticate,
    bearer.requireScope(BRIDGE_ADMIN_SCOPE),
  );
  router.use(TENANT_DEAD_LETTERS, bearer.authenticate, bearer.requireScope(BRIDGE_ADMIN_SCOPE));

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
      { method, path: `${TARGET_BASE}${path}`, summary, schemas, successStatus, tags: ['bridge deliveries'] },
      handler,
    );

  const ctx = (res: Response) => commandContext(res);
  /** the rule target of the path, of the token's tenant; 404 when the rule never existed */
  const refOf = async (req: Request, res: Response): Promise<RuleTargetRef> => {
    const ruleTenant = tenantOf(res);
    const ruleId = String(req.params.ruleId);
    if (!(await ruleTargets.ruleKnown(ruleTenant, ruleId)))
      throw bridgeError('RULE.NOT_FOUND', 'no such rule', { ruleId });
    return { ruleTenant, ruleId, targetId: Number(req.params.targetId) };
  };
  const deliveryIdOf = (req: Request) => String(req.params.deliveryId);

  const entryJson = <T extends { eventKey: string }>({ eventKey, ...rest }: T) => ({ ...rest, eventId: eventKey });

  route(
    'get',
    '/dead-letters',
    'the dead letter queue of a rule target, oldest first (paged)',
    {
      params: ruleTargetParams,
      query: page,
      response: pageOf(deadLetterSchema),
    },
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number };
      const r = await deadLetters.list(await refOf(req, res), q);
      res.json(pageAnswer(r, q, ({ stream: _s, ...e }) => entryJson(e)));
    },
  );

  route(
    'get',
    '/dead-letters/:deliveryId',
    'one dead letter: the raw event, the payload and the last error, unchanged, with its attempts',
    {
      params: deliveryParams,
      query: noQuery,
      response: {
        type: 'object',
        properties: {
          ...deadLetterSchema.properties,
          event: { type: 'object' },
          payload: {},
          history: { type: 'array', items: { type: 'object' } },
        },
      },
    },
    async (req, res) => {
      const { stream: _s, ...detail } = await deadLetters.inspect(await refOf(req, res), deliveryIdOf(req));
      res.json(entryJson(detail));
    },
  );

  route(
    'post',
    '/dead-letters/:deliveryId/redrive',
    'deliver a dead letter again: a new round of attempts with the same delivery id',
    {
      params: deliveryParams,
      query: noQuery,
      response: { type: 'object', properties: { deliveryId: { type: 'string' }, redriven: { type: 'boolean' } } },
    },
    async (req, res) => {
      await deadLetters.redrive(await refOf(req, res), deliveryIdOf(req), ctx(res), commandIdFrom(req));
      res.status(202).json({ deliveryId: deliveryIdOf(req), redriven: true });
    },
    202,
  );

  route(
    'post',
    '/dead-letters/redrive',
    'deliver every dead letter of the rule target again',
    {
      params: ruleTargetParams,
      query: noQuery,
      response: {
        type: 'object',
        properties: { redriven: { type: 'array', items: { type: 'string' } }, count: { type: 'integer' } },
      },
    },
    async (req, res) => {
      const ids = await deadLetters.redriveAll(await refOf(req, res), ctx(res), commandIdFrom(req));
      res.status(202).json({ redriven: ids, count: ids.length });
    },
    202,
  );

  route(
    'delete',
    '/dead-letters/:deliveryId',
    'purge one dead letter',
    { params: deliveryParams, query: noQuery },
    async (req, res) => {
      await deadLetters.purge(await refOf(req, res), deliveryIdOf(req), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  route(
    'delete',
    '/dead-letters',
    'purge the dead letter queue of the rule target',
    {
      params: ruleTargetParams,
      query: noQuery,
      response: {
        type: 'object',
        properties: { purged: { type: 'array', items: { type: 'string' } }, count: { type: 'integer' } },
      },
    },
    async (req, res) => {
      const ids = await deadLetters.purgeAll(await refOf(req, res), ctx(res), commandIdFrom(req));
      res.json({ purged: ids, count: ids.length });
    },
  );

  // the tenant's dead letters, across its rules and targets
  registry.route(
    router,
    {
      method: 'get',
      path: TENANT_DEAD_LETTERS,
      summary:
        "the tenant's dead letters across its rules and targets, oldest first, filtered by rule, target type, error class and time",
      schemas: {
        query: tenantListQuery,
        response: pageOf(deadLetterSchema),
      },
      tags: ['bridge deliveries'],
    },
    async (req, res) => {
      const q = req.query as Record<string, unknown> & { limit: number; offset: number };
      const r = await deadLetters.listTenant(tenantOf(res), filterOf(q), { limit: q.limit, offset: q.offset });
      res.json(pageAnswer(r, q, ({ stream: _s, ...e }) => entryJson(e)));
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: `${TENANT_DEAD_LETTERS}/redrive`,
      summary: `deliver a selection of the tenant's dead letters again: by id, or the first ${MAX_REDRIVE_SELECTION} a filter matches`,
      schemas: {
        body: redriveSelection,
        response: {
          type: 'object',
          properties: {
            redriven: { type: 'array', items: { type: 'string' } },
            count: { type: 'integer' },
            skipped: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      successStatus: 202,
      tags: ['bridge deliveries'],
    },
    async (req, res) => {
      const b = req.body as { deliveryIds?: string[]; filter?: Record<string, unknown> };
      const selection =
        b.deliveryIds !== undefined ? { deliveryIds: b.deliveryIds } : { filter: filterOf(b.filter ?? {}) };
      const r = await deadLetters.redriveSelection(selection, ctx(res), commandIdFrom(req));
      res.status(202).json({ redriven: r.redriven, count: r.redriven.length, skipped: r.skipped });
    },
  );

  const statusOf = async (ref: RuleTargetRef) => {
    const [state, counts] = await Promise.all([ruleTargets.get(ref), queries.counts(ruleTargetKey(ref))]);
    const { ruleTenant: _t, ...view } = state;
    return { ...view, counts };
  };

  route(
    'get',
    '/status',
    'whether the rule target is blocked (ErrorTolerance NONE), and its deliveries per status',
    {
      params: ruleTargetParams,
      query: noQuery,
      response: statusSchema,
    },
    async (req, res) => {
      res.json(await statusOf(await refOf(req, res)));
    },
  );

  route(
    'post',
    '/resume',
    'resume a blocked rule target: the blocking deliveries get a new round, the waiting ones go in order',
    {
      params: ruleTargetParams,
      query: noQuery,
      response: {
        type: 'object',
        properties: { ...statusSchema.properties, released: { type: 'array', items: { type: 'object' } } },
      },
    },
    async (req, res) => {
      const ref = await refOf(req, res);
      const { released } = await ruleTargets.resume(ref, ctx(res), commandIdFrom(req));
      res.json({ ...(await statusOf(ref)), released });
    },
  );

  return router;
}
