import { type RequestHandler, type Response, Router } from 'express';
import type { UserMessageCommands, UserMessageView } from '../../commands/bridge/user-messages.commands.ts';
import {
  type InboxDoc,
  MAX_INBOX_PAGE_SIZE,
  type UserMessageQueries,
} from '../../projections/bridge/user-messages.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageSizeSchema } from '../core/paging.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { authOf, commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { INBOX_BASE } from './bridge.paths.ts';

/**
 * The user message box (TypeId 5 targets) for its users: any valid bearer token of our identity provider
 * (no scope needed: a user reads her own inbox), the user being the token's subject and the tenant the
 * token's. Another user's message is never listed, and reading or marking it answers 404 as for a message
 * that does not exist.
 *
 *   GET  /api/platform/platform-pub/eventBridge/messages/v1/inbox?unread=&page=&size=
 *            newest first; unread=true: unread only, unread=false: read only; page from 1, size 1-100 (20)
 *   GET  …/inbox/unread-count                 {unread}
 *   POST …/inbox/{messageId}/read             the message, marked read (again: unchanged, 200)
 *   POST …/inbox/read-all                     {marked}: every message the inbox lists as unread
 *
 * Lists come from the `bridge.inbox` projection, so a message delivered a moment ago may take a moment to
 * appear; marking one read is answered from its stream (immediately consistent).
 */
/** read-all marks at most this many per request (a client calls again while `more` is true) */
export const MAX_READ_ALL = 5000;

export type UserMessagesRouterDeps = {
  commands: UserMessageCommands;
  queries: UserMessageQueries;
  bearer: { authenticate: RequestHandler };
  registry?: RouteRegistry;
};

const messageSchema: JsonSchema = {
  type: 'object',
  properties: {
    messageId: { type: 'string' },
    messageType: { type: 'string' },
    messageLevel: { type: 'string' },
    productLine: { type: 'string' },
    messageCategory: { type: 'string' },
    body: {},
    read: { type: 'boolean' },
    readAt: { type: 'string', format: 'date-time' },
    deliveredAt: { type: 'string', format: 'date-time' },
    source: { type: 'string', description: 'the source of the event that caused the message' },
    eventType: { type: 'string', description: 'the type of the event that caused the message' },
  },
  required: ['messageId', 'read', 'deliveredAt'],
};

type Message = Pick<
  InboxDoc | UserMessageView,
  | 'messageId'
  | 'messageType'
  | 'messageLevel'
  | 'productLine'
  | 'messageCategory'
  | 'body'
  | 'read'
  | 'readAt'
  | 'deliveredAt'
  | 'origin'
>;

const view = (m: Message) => ({
  messageId: m.messageId,
  ...(m.messageType !== undefined && { messageType: m.messageType }),
  ...(m.messageLevel !== undefined && { messageLevel: m.messageLevel }),
  ...(m.productLine !== undefined && { productLine: m.productLine }),
  ...(m.messageCategory !== undefined && { messageCategory: m.messageCategory }),
  body: m.body,
  read: m.read,
  ...(m.readAt !== undefined && { readAt: m.readAt }),
  deliveredAt: m.deliveredAt,
  ...(m.origin !== undefined && { source: m.origin.source, eventType: m.origin.type }),
});

export function createUserMessagesRouter(deps: UserMessagesRouterDeps): Router {
  const { commands, queries, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(INBOX_BASE, bearer.authenticate);

  // an inbox is the token's user's, in the token's tenant: no other tenant can be named here
  const who = (res: Response) => ({ tenant: tenantOf(res), userId: authOf(res).subject });
  const ctx = (res: Response) => commandContext(res);

  registry.route(
    router,
    {
      method: 'get',
      path: INBOX_BASE,
      summary: "the caller's messages, newest first, paged",
      schemas: {
        query: {
          type: 'object',
          properties: {
            unread: { type: 'boolean', description: 'true: unread only; false: read only; absent: all' },
            page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
            size: pageSizeSchema({ max: MAX_INBOX_PAGE_SIZE, default: 20 }),
          },
          additionalProperties: false,
        },
        response: {
          type: 'object',
          properties: {
            items: { type: 'array', items: messageSchema },
            total: { type: 'integer' },
            page: { type: 'integer' },
            size: { type: 'integer' },
          },
        },
      },
      tags: ['inbox'],
    },
    async (req, res) => {
      const { tenant, userId } = who(res);
      const q = req.query as { unread?: boolean; page?: number; size?: number };
      const page = Number(q.page ?? 1);
      const size = Number(q.size ?? 20);
      const { items, total } = await queries.list(tenant, userId, {
        ...(q.unread !== undefined && { unread: q.unread === true }),
        page,
        size,
      });
      res.json({ items: items.map(view), total, page, size });
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: `${INBOX_BASE}/unread-count`,
      summary: "how many of the caller's messages are unread",
      schemas: {
        query: { type: 'object', additionalProperties: false },
        response: { type: 'object', properties: { unread: { type: 'integer' } } },
      },
      tags: ['inbox'],
    },
    async (_req, res) => {
      const { tenant, userId } = who(res);
      res.json({ unread: await queries.unreadCount(tenant, userId) });
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: `${INBOX_BASE}/read-all`,
      summary: "marks every unread message of the caller's inbox read",
      schemas: {
        response: {
          type: 'object',
          properties: {
            marked: { type: 'integer' },
            more: { type: 'boolean', description: `true when more than ${MAX_READ_ALL} were unread: call again` },
          },
        },
      },
      tags: ['inbox'],
    },
    async (req, res) => {
      const { tenant, userId } = who(res);
      const commandId = commandIdFrom(req);
      const context = ctx(res);
      let marked = 0;
      let seen = 0;
      let after: string | undefined;
      let more = false;
      for (;;) {
        const batch = await queries.unreadAfter(tenant, userId, after, 200);
        if (batch.length === 0) break;
        if (seen + batch.length > MAX_READ_ALL) {
          more = true;
          break;
        }
        marked += (
          await commands.markAllRead(
            userId,
            batch.map((b) => b.messageId),
            context,
            commandId,
          )
        ).marked;
        seen += batch.length;
        after = batch.at(-1)!.position;
      }
      res.json({ marked, more });
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: `${INBOX_BASE}/:messageId/read`,
      summary: 'marks one message of the caller read',
      schemas: {
        params: {
          type: 'object',
          properties: { messageId: { type: 'string', minLength: 1, maxLength: 128 } },
          required: ['messageId'],
        },
        response: messageSchema,
      },
      tags: ['inbox'],
    },
    async (req, res) => {
      const { userId } = who(res);
      const messageId = String(req.params.messageId);
      const message = await commands.markRead(userId, messageId, ctx(res), commandIdFrom(req));
      res.json(view(message));
    },
  );

  return router;
}
