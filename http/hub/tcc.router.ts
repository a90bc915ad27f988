import { Router } from 'express';
import type { TccCommands } from '../../commands/hub/tcc.commands.ts';
import type { SendRequestInput } from '../../domain/hub/send-request.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { HUB_SEND_SCOPE, TCC_CANCEL_PATH, TCC_CONFIRM_PATH, TCC_GET_PATH, TCC_TRY_PATH } from './hub.paths.ts';
import { sendBody } from './hub.schemas.ts';

/**
 * TCC branches of a send (spec "Send request rules" 5; paths are ours: the spec shows none), scope hub:send.
 * A branch is named by the global transaction id and the branch id (Seata's XID and BranchId):
 *
 *   POST /comm/v1/notifications/tcc/try       {Xid, BranchId, ...send request} → 202 the prepared command
 *                                             (no provider call); the same Try again: 202, the same answer
 *   POST /comm/v1/notifications/tcc/confirm   {Xid, BranchId} → 200 READY (later: MATERIALIZED with the
 *                                             send's acknowledgement); again: the original answer
 *   POST /comm/v1/notifications/tcc/cancel    {Xid, BranchId} → 200 CANCELLED, or TOMBSTONE before any Try
 *   GET  /comm/v1/notifications/tcc/getById?xid=&branchId=   the branch as it stands
 */
const id = (description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._:/@-]+$',
  description,
});
const branch = { Xid: id('the global transaction id'), BranchId: id('the branch id within the global transaction') };

export const tccTryBody: JsonSchema = {
  ...sendBody,
  required: [...((sendBody.required as string[] | undefined) ?? []), 'Xid', 'BranchId'],
  properties: { ...(sendBody.properties as Record<string, JsonSchema>), ...branch },
};
const branchBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Xid', 'BranchId'],
  properties: branch,
};
const branchQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['xid', 'branchId'],
  properties: { xid: branch.Xid, branchId: branch.BranchId },
};

const tccView: JsonSchema = {
  type: 'object',
  required: ['CommandId', 'Xid', 'BranchId', 'Status'],
  properties: {
    CommandId: { type: 'string' },
    Xid: { type: 'string' },
    BranchId: { type: 'string' },
    Status: { type: 'string', enum: ['PREPARED', 'READY', 'MATERIALIZED', 'CANCELLED', 'TOMBSTONE'] },
    RequestId: { type: 'string' },
    NotificationId: { type: 'string' },
    TriedAt: { type: 'string' },
    ConfirmedAt: { type: 'string' },
    CancelledAt: { type: 'string' },
    Result: { type: 'string', enum: ['CREATED', 'REPLAYED', 'CONFLICT'] },
    Acknowledgement: { type: 'object' },
    Error: { type: 'string' },
  },
};

export function createTccRouter(deps: {
  tcc: TccCommands;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
}): Router {
  const { tcc, bearer, registry } = deps;
  const router = Router();
  const guard = [bearer.authenticate, bearer.requireScope(HUB_SEND_SCOPE)];
  const tags = ['hub tcc'];
  const ids = (b: { Xid: string; BranchId: string }) => ({ Xid: b.Xid, BranchId: b.BranchId });

  registry.route(
    router,
    {
      method: 'post',
      path: TCC_TRY_PATH,
      summary: 'TCC Try: prepare a send (202; no provider call)',
      schemas: { body: tccTryBody, response: tccView },
      successStatus: 202,
      tags,
    },
    ...guard,
    async (req, res) => {
      const { Xid, BranchId, ...request } = req.body as { Xid: string; BranchId: string } & SendRequestInput;
      res.status(202).json(await tcc.tryBranch({ Xid, BranchId }, request as SendRequestInput, commandContext(res)));
    },
  );
  /** Confirm and Cancel: {Xid, BranchId} in the body */
  const branchAction = (path: string, summary: string, action: 'confirm' | 'cancel') =>
    registry.route(
      router,
      { method: 'post', path, summary, schemas: { body: branchBody, response: tccView }, tags },
      ...guard,
      async (req, res) => {
        res.json(await tcc[action](ids(req.body), commandContext(res)));
      },
    );
  branchAction(TCC_CONFIRM_PATH, 'TCC Confirm: the prepared send becomes READY for the command worker', 'confirm');
  branchAction(
    TCC_CANCEL_PATH,
    'TCC Cancel: the prepared send is never materialized (before Try: a tombstone)',
    'cancel',
  );
  registry.route(
    router,
    {
      method: 'get',
      path: TCC_GET_PATH,
      summary: 'a TCC branch as it stands',
      schemas: { query: branchQuery, response: tccView },
      tags,
    },
    ...guard,
    async (req, res) => {
      const q = req.query as { xid: string; branchId: string };
      res.json(await tcc.get(tenantOf(res), { Xid: q.xid, BranchId: q.branchId }));
    },
  );
  return router;
}
