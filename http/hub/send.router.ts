import { type RequestHandler, type Response, Router } from 'express';
import type { ProgressQueries } from '../../commands/hub/progress.queries.ts';
import type { Sender } from '../../commands/hub/send.commands.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { SendRequestInput } from '../../domain/hub/send-request.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { BearerChallenge } from '../core/bearer-challenge.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { authOf, commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import {
  HUB_OPERATOR_SCOPE,
  HUB_SEND_SCOPE,
  MESSAGE_PATH,
  MESSAGE_TIMELINE_PATH,
  SEND_PATH,
  SEND_REQUEST_PATH,
} from './hub.paths.ts';
import { acknowledgementSchema, sendBody } from './hub.schemas.ts';

/**
 * Sending and progress (spec "Communication hub (routes relative to /comm/v1)"):
 *
 *   POST /comm/v1/notifications/send        scope hub:send. 201 first acceptance, 200 equivalent replay of the
 *                                           RequestId (the stored acknowledgement), 409 SEND.REQUEST_CONFLICT,
 *                                           404 SEND.DEFINITION_NOT_FOUND, 422 SEND.NOT_SENDABLE, 400 for bad
 *                                           input (SEND.INVALID, SEND.RECIPIENTS_INVALID, REQUEST.INVALID)
 *   GET  /comm/v1/send-requests/getById?requestId= | ?notificationId=   scope hub:send: live progress
 *   GET  /comm/v1/messages/getById?messageId=        scope hub:send or hub:operator: one message, its attempts
 *   GET  /comm/v1/messages/timeline?messageId=       the same scopes: the message's append-only events
 *
 * The RequestId is the idempotency key (an Idempotency-Key header is not needed and not used here).
 */
export type SendRouterDeps = {
  sender: Sender;
  progress: ProgressQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

/** any one of the scopes (bearer.requireScope requires all it lists) */
export const requireAnyScope =
  (...scopes: string[]): RequestHandler =>
  (_req, res, next) => {
    if (scopes.some((s) => authOf(res).scopes.includes(s))) return next();
    next(
      new BearerChallenge(
        'AUTH.INSUFFICIENT_SCOPE',
        `the access token needs one of the scopes ${scopes.join(', ')}`,
        `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`,
        { required: scopes },
      ),
    );
  };

const messageQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['messageId'],
  properties: { messageId: { type: 'string', minLength: 1, maxLength: 64 } },
};
const sendRequestQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requestId: { type: 'string', minLength: 1, maxLength: 64 },
    notificationId: { type: 'string', minLength: 1, maxLength: 64 },
  },
  description: 'give requestId or notificationId',
};

export function createSendRouter(deps: SendRouterDeps): Router {
  const { sender, progress, bearer, registry } = deps;
  const router = Router();
  const send = [bearer.authenticate, bearer.requireScope(HUB_SEND_SCOPE)];
  const read = [bearer.authenticate, requireAnyScope(HUB_SEND_SCOPE, HUB_OPERATOR_SCOPE)];
  const tags = ['hub notifications'];
  const ctx = (res: Response) => commandContext(res);

  registry.route(
    router,
    {
      method: 'post',
      path: SEND_PATH,
      summary: 'send a notification (201 accepted, 200 replay, 409, 404, 422)',
      schemas: { body: sendBody, response: acknowledgementSchema },
      successStatus: 201,
      tags,
    },
    ...send,
    async (req, res) => {
      const r = await sender.send(req.body as SendRequestInput, ctx(res));
      res.status(r.status).json(r.acknowledgement);
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: SEND_REQUEST_PATH,
      summary: 'live progress of a send request (by RequestId or NotificationId)',
      schemas: { query: sendRequestQuery },
      tags,
    },
    ...send,
    async (req, res) => {
      const q = req.query as { requestId?: string; notificationId?: string };
      if ((q.requestId === undefined) === (q.notificationId === undefined)) {
        throw coreError('REQUEST.INVALID', 'give requestId or notificationId', [
          {
            in: 'query',
            field: 'requestId',
            message: 'give requestId or notificationId (one of them)',
            keyword: 'oneOf',
          },
        ]);
      }
      res.json(await progress.sendRequest(tenantOf(res), q));
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: MESSAGE_PATH,
      summary: 'one message with its attempts (investigation)',
      schemas: { query: messageQuery },
      tags,
    },
    ...read,
    async (req, res) => {
      res.json(await progress.message(tenantOf(res), String((req.query as { messageId: string }).messageId)));
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: MESSAGE_TIMELINE_PATH,
      summary: "the message's append-only events, oldest first",
      schemas: { query: messageQuery },
      tags,
    },
    ...read,
    async (req, res) => {
      res.json(await progress.timeline(tenantOf(res), String((req.query as { messageId: string }).messageId)));
    },
  );
  return router;
}
