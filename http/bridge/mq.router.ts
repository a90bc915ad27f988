import { type Request, type RequestHandler, type Response, Router } from 'express';
import {
  DEFAULT_MQ_GROUP,
  MAX_PULL_MESSAGES,
  MAX_WAIT_MS,
  MQ_GROUP_NAME,
  type MqConsumers,
} from '../../commands/bridge/mq-consumers.commands.ts';
import type { MqMessage } from '../../commands/bridge/mq-topics.store.ts';
import { MQ_TOPIC } from '../../domain/bridge/mq.decider.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { authOf, targetTenant } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_CONSUME_SCOPE, MQ_BASE } from './bridge.paths.ts';

/**
 * The platform message queue for consuming services (TypeId 2 targets write it), scope `bridge:consume`:
 *
 *   GET  /api/platform/platform-pub/eventBridge/mq/v1/topics/{topic}/messages?group=&max=&wait=
 *        the visible messages after the group's committed offset (at most `max`, default 10, up to 100),
 *        leased to this caller for 30 s; when none is pending, waits up to `wait` seconds (default 0,
 *        capped at 30) for one to arrive. Answers {topic, group, app, messages: [{offset, deliveryId,
 *        sendType, body, enqueuedAt}], committedOffset, lease: {id, expiresAt, from, to} | null}.
 *   POST …/topics/{topic}/ack {group?, offset, leaseId?}
 *        commits the offset (forwards only): the group's next pull starts after it. Answers
 *        {committedOffset, leaseReleased}.
 *   GET  …/topics/{topic}/position?group=   {committedOffset, headOffset, lag, lease}
 *
 * Who consumes: the app is the token's client (`client_id`): an APP message is visible to the clients
 * its APP_NAME lists, a BROADCAST message to every client. `group` (default `default`) names one of the
 * app's consumer groups: independent positions over the same topic; consumers sharing a group share its
 * position and take turns (the lease). The tenant is the token's (`?tenant=` with the cross-tenant scope,
 * as elsewhere).
 */
export type MqRouterDeps = {
  consumers: MqConsumers;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry?: RouteRegistry;
};

const topic: JsonSchema = { type: 'string', pattern: MQ_TOPIC.source };
const group: JsonSchema = { type: 'string', pattern: MQ_GROUP_NAME.source, default: DEFAULT_MQ_GROUP };
const tenant: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
const topicPath = { type: 'object', properties: { topic }, required: ['topic'] };
const lease: JsonSchema = {
  type: 'object',
  nullable: true,
  properties: {
    id: { type: 'string' },
    expiresAt: { type: 'string' },
    from: { type: 'integer' },
    to: { type: 'integer' },
  },
};
const message: JsonSchema = {
  type: 'object',
  properties: {
    offset: { type: 'integer' },
    deliveryId: { type: 'string' },
    sendType: { type: 'string', enum: ['APP', 'BROADCAST'] },
    body: {},
    enqueuedAt: { type: 'string' },
  },
};

const schemas = {
  pull: {
    params: topicPath,
    query: {
      type: 'object',
      properties: {
        group,
        max: { type: 'integer', minimum: 1, maximum: MAX_PULL_MESSAGES, default: 10 },
        wait: {
          type: 'integer',
          minimum: 0,
          maximum: 3600,
          default: 0,
          description: 'seconds to wait when nothing is pending (capped at 30)',
        },
        tenant,
      },
      additionalProperties: false,
    },
    response: {
      type: 'object',
      properties: {
        topic: { type: 'string' },
        group: { type: 'string' },
        app: { type: 'string' },
        messages: { type: 'array', items: message },
        committedOffset: { type: 'integer' },
        lease,
      },
    },
  },
  ack: {
    params: topicPath,
    query: { type: 'object', properties: { tenant }, additionalProperties: false },
    body: {
      type: 'object',
      properties: { group, offset: { type: 'integer', minimum: 0 }, leaseId: { type: 'string', maxLength: 100 } },
      required: ['offset'],
      additionalProperties: false,
    },
    response: {
      type: 'object',
      properties: { committedOffset: { type: 'integer' }, leaseReleased: { type: 'boolean' } },
    },
  },
  position: {
    params: topicPath,
    query: { type: 'object', properties: { group, tenant }, additionalProperties: false },
    response: {
      type: 'object',
      properties: {
        committedOffset: { type: 'integer' },
        headOffset: { type: 'integer' },
        lag: { type: 'integer' },
        lease,
      },
    },
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

const messageJson = (m: MqMessage) => ({
  offset: m.offset,
  deliveryId: m.deliveryId,
  sendType: m.sendType,
  body: m.body,
  enqueuedAt: m.enqueuedAt,
});
const leaseJson = (l: { id: string; until: string; from: number; to: number } | null | undefined) =>
  l ? { id: l.id, expiresAt: l.until, from: l.from, to: l.to } : null;

export function createMqRouter(deps: MqRouterDeps): Router {
  const { consumers, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(`${MQ_BASE}/topics`, bearer.authenticate, bearer.requireScope(BRIDGE_CONSUME_SCOPE));

  const route = (
    m: HttpMethod,
    path: string,
    summary: string,
    s: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
  ) =>
    registry.route(
      router,
      { method: m, path: `${MQ_BASE}${path}`, summary, schemas: s, tags: ['bridge message queue'] },
      handler,
    );

  const refOf = (req: Request, res: Response, groupName: unknown) => ({
    tenant: targetTenant(res, (req.query as { tenant?: string }).tenant),
    app: authOf(res).clientId,
    group: typeof groupName === 'string' ? groupName : DEFAULT_MQ_GROUP,
    topic: req.params.topic as string,
  });

  route(
    'get',
    '/topics/:topic/messages',
    'pull messages after the group’s committed offset (long poll with wait)',
    schemas.pull,
    async (req, res) => {
      const q = req.query as unknown as { group: string; max: number; wait: number };
      const ref = refOf(req, res, q.group);
      // a caller that hangs up stops its wait
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableEnded) abort.abort();
      });
      const r = await consumers.pull({
        ...ref,
        max: q.max,
        waitMs: Math.min(q.wait * 1000, MAX_WAIT_MS),
        signal: abort.signal,
      });
      res.set('Cache-Control', 'no-store').json({
        topic: ref.topic,
        group: ref.group,
        app: ref.app,
        messages: r.messages.map(messageJson),
        committedOffset: r.committedOffset,
        lease: leaseJson(r.lease),
      });
    },
  );

  route('post', '/topics/:topic/ack', 'commit the group’s offset (forwards only)', schemas.ack, async (req, res) => {
    const b = req.body as { group: string; offset: number; leaseId?: string };
    const r = await consumers.ack({
      ...refOf(req, res, b.group),
      offset: b.offset,
      ...(b.leaseId !== undefined && { leaseId: b.leaseId }),
    });
    res.json(r);
  });

  route(
    'get',
    '/topics/:topic/position',
    'the group’s committed offset, the topic’s newest offset and the lag',
    schemas.position,
    async (req, res) => {
      const q = req.query as unknown as { group: string };
      const s = await consumers.status(refOf(req, res, q.group));
      res.set('Cache-Control', 'no-store').json({
        committedOffset: s.committedOffset,
        headOffset: s.headOffset,
        lag: Math.max(0, s.headOffset - s.committedOffset),
        lease: leaseJson(s.lease),
      });
    },
  );

  return router;
}
