import { randomUUID } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import type { HousekeepingJob, HousekeepingParams } from '../../commands/hub/housekeeping.job.ts';
import type { OperatorCommands } from '../../commands/hub/operator.commands.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import {
  HOUSEKEEPING_RUN_PATH,
  HUB_ADMIN_SCOPE,
  HUB_OPERATOR_SCOPE,
  MESSAGE_CANCEL_PATH,
  MESSAGE_COMPLETE_ROLE_PATH,
  MESSAGE_ELIGIBILITY_PATH,
  MESSAGE_MANUAL_RECEIPT_PATH,
  MESSAGE_RETRY_PATH,
  NOTIFICATION_CANCEL_PATH,
} from './hub.paths.ts';

/**
 * Operator actions and housekeeping (docs/hub.md#operator-actions, docs/hub.md#housekeeping):
 *
 *   POST /comm/v1/messages/retry?messageId=            {Reason}  one MANUAL attempt (scope hub:operator)
 *   GET  /comm/v1/messages/actionEligibility?messageId=          {Actions: {RETRY|CANCEL|MANUAL_RECEIPT|COMPLETE_CHAIN: {Eligible, Reason?, Message?}}}
 *   POST /comm/v1/messages/cancel?messageId=           {Reason}  unsent work → CANCELLED
 *   POST /comm/v1/notifications/cancel?notificationId= {Reason}  every unsent message of the notification
 *   POST /comm/v1/messages/manualReceipt?messageId=    {Status: DELIVERED|FAILED, VerificationReason, EvidenceReference?}
 *   POST /comm/v1/messages/completeRole?messageId=     {Reason}  the message's role completed: unsent candidates SUPPRESSED
 *   POST /comm/v1/housekeeping/run  {days?, dryRun?, archiveBeforeDelete?, pageSize?, limit?}  (scope hub:admin)
 *
 * Actions answer 200; a refusal is 409 OPERATOR.NOT_ELIGIBLE (details.Reason) or, for a retry a customer
 * policy denies (quiet hours …), 409 OPERATOR.DENIED_BY_POLICY; nothing is changed then. Each action is
 * idempotent per request: the `Idempotency-Key` header (else the client's `X-Request-Id`) names it, and the
 * same request resent answers what it did the first time (`Replayed: true`) without acting again.
 */
export type OperatorRouterDeps = {
  operator: OperatorCommands;
  housekeeping: HousekeepingJob;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

const reason: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  description: "the operator's reason (recorded in the message timeline)",
};
const idQuery = (name: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: [name],
  properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } },
});
const reasonBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Reason'],
  properties: { Reason: reason },
};
const manualReceiptBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Status', 'VerificationReason'],
  properties: {
    Status: { type: 'string', enum: ['DELIVERED', 'FAILED'] },
    VerificationReason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'how the operator verified the outcome',
    },
    EvidenceReference: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'where the evidence is (a ticket, a provider reference …)',
    },
  },
};
const housekeepingBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    days: {
      type: 'integer',
      minimum: -1,
      maximum: 36500,
      description: 'retention in days (-1: disabled); default comm.hub.housekeeping.retention-days',
    },
    dryRun: { type: 'boolean', default: true },
    archiveBeforeDelete: { type: 'boolean', default: false },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 100000, default: 1000 },
  },
};
const eligibility: JsonSchema = {
  type: 'object',
  properties: { Eligible: { type: 'boolean' }, Reason: { type: 'string' }, Message: { type: 'string' } },
};
const eligibilityView: JsonSchema = {
  type: 'object',
  properties: {
    MessageId: { type: 'string' },
    NotificationId: { type: 'string' },
    State: { type: 'string' },
    DeliveryUncertain: { type: 'boolean' },
    Actions: {
      type: 'object',
      properties: { RETRY: eligibility, CANCEL: eligibility, MANUAL_RECEIPT: eligibility, COMPLETE_CHAIN: eligibility },
    },
  },
};
const actionResult: JsonSchema = {
  type: 'object',
  properties: {
    MessageId: { type: 'string' },
    NotificationId: { type: 'string' },
    Messages: {
      type: 'array',
      items: { type: 'object', properties: { MessageId: { type: 'string' }, State: { type: 'string' } } },
    },
    Replayed: { type: 'boolean' },
  },
};
const retryResult: JsonSchema = {
  type: 'object',
  properties: {
    MessageId: { type: 'string' },
    AttemptId: { type: 'string' },
    AttemptNo: { type: 'integer' },
    Kind: { type: 'string', enum: ['MANUAL'] },
    State: { type: 'string' },
    DeliveryUncertain: { type: 'boolean' },
    Outcome: { type: 'string' },
    HttpStatus: { type: 'integer' },
    Error: { type: 'string' },
    Replayed: { type: 'boolean' },
  },
};

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** the request's idempotency key: Idempotency-Key, else the X-Request-Id the client sent, else a fresh one */
function requestKey(req: Request): string {
  if (req.get('idempotency-key') !== undefined) return commandIdFrom(req);
  const rid = req.get('x-request-id');
  return rid !== undefined && SANE_REQUEST_ID.test(rid) ? `rid:${rid}` : randomUUID();
}

export function createOperatorRouter(deps: OperatorRouterDeps): Router {
  const { operator, bearer, registry } = deps;
  const router = Router();
  const op = [bearer.authenticate, bearer.requireScope(HUB_OPERATOR_SCOPE)];
  const admin = [bearer.authenticate, bearer.requireScope(HUB_ADMIN_SCOPE)];
  const tags = ['hub operator actions'];
  const q = (req: Request, name: string) => String((req.query as Record<string, string>)[name]);
  const ctx = (res: Response) => commandContext(res);

  /** a POST action on the id in the query whose body is {Reason} */
  const reasonAction = (
    path: string,
    summary: string,
    idName: 'messageId' | 'notificationId',
    action: 'retry' | 'cancelMessage' | 'cancelNotification' | 'completeRole',
    response: JsonSchema,
  ) =>
    registry.route(
      router,
      { method: 'post', path, summary, schemas: { query: idQuery(idName), body: reasonBody, response }, tags },
      ...op,
      async (req, res) => {
        res.json(
          await operator[action](
            q(req, idName),
            { Reason: (req.body as { Reason: string }).Reason, key: requestKey(req) },
            ctx(res),
          ),
        );
      },
    );

  reasonAction(
    MESSAGE_RETRY_PATH,
    'manual retry: one MANUAL attempt if all guards pass (409 with the reason otherwise; no attempt)',
    'messageId',
    'retry',
    retryResult,
  );
  registry.route(
    router,
    {
      method: 'get',
      path: MESSAGE_ELIGIBILITY_PATH,
      summary: "the operator actions' current eligibility (the server rechecks when an action executes)",
      schemas: { query: idQuery('messageId'), response: eligibilityView },
      tags,
    },
    ...op,
    async (req, res) => {
      res.json(await operator.eligibility(tenantOf(res), q(req, 'messageId')));
    },
  );
  reasonAction(
    MESSAGE_CANCEL_PATH,
    "cancel a message's unsent work (its role's waiting candidates with it)",
    'messageId',
    'cancelMessage',
    actionResult,
  );
  reasonAction(
    NOTIFICATION_CANCEL_PATH,
    'cancel every unsent message of a notification',
    'notificationId',
    'cancelNotification',
    actionResult,
  );
  registry.route(
    router,
    {
      method: 'post',
      path: MESSAGE_MANUAL_RECEIPT_PATH,
      summary: "record operator-verified evidence for the message's open attempt",
      schemas: { query: idQuery('messageId'), body: manualReceiptBody, response: actionResult },
      tags,
    },
    ...op,
    async (req, res) => {
      const b = req.body as { Status: 'DELIVERED' | 'FAILED'; VerificationReason: string; EvidenceReference?: string };
      res.json(await operator.manualReceipt(q(req, 'messageId'), { ...b, key: requestKey(req) }, ctx(res)));
    },
  );
  reasonAction(
    MESSAGE_COMPLETE_ROLE_PATH,
    "complete the message's role: its unsent candidates are SUPPRESSED (ROLE_COMPLETED_BY_OPERATOR)",
    'messageId',
    'completeRole',
    actionResult,
  );
  registry.route(
    router,
    {
      method: 'post',
      path: HOUSEKEEPING_RUN_PATH,
      summary: "housekeeping of the tenant's completed notifications (dry run by default)",
      schemas: { body: housekeepingBody },
      tags: ['hub housekeeping'],
    },
    ...admin,
    async (req, res) => {
      res.json(await deps.housekeeping.run(tenantOf(res), (req.body ?? {}) as HousekeepingParams));
    },
  );
  return router;
}
