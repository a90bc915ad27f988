import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { LedgerWriter } from '../../commands/audit/ledger.writer.ts';
import type { AuditMetadata } from '../../commands/audit/metadata.cache.ts';
import { auditError } from '../../domain/audit/audit.errors.ts';
import type { TransactionInfo } from '../../domain/audit/catalog.decider.ts';
import { pagingOf, type QueryRequest, recordQueryOf } from '../../domain/audit/query.ts';
import { parseRecordRequest, type RecordRequest } from '../../domain/audit/record.input.ts';
import { queryMany } from '../../projections/audit/query-many.ts';
import type { RecordQueries } from '../../projections/audit/records.queries.ts';
import type { Scrolls } from '../../projections/audit/scrolls.store.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { sendJsonText } from '../core/json-text.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import { AUDIT_READ_SCOPE, AUDIT_VERSIONS, AUDIT_WRITE_SCOPE, LOG_QUERY_MANY, LOG_SYNC } from './audit.paths.ts';
import { logRecordBody, queryAnswer, queryBody, writeAnswer } from './audit.schemas.ts';
import { readTenant } from './read-tenant.ts';

/**
 * The spec's two endpoints, under `/audit/v3/` and `/audit/v2/` (identical bodies; v2's X-Target-User header
 * is accepted and ignored):
 *
 *   POST …/log/sync         one record (scope audit:write): 200 {id, sequence, hash, time}; with an
 *                           Idempotency-Key a retry answers the first record (header Idempotent-Replayed: true)
 *   POST …/log/query-many   a page or the next scroll page (scope audit:read), newest first
 *
 * A write acts on the token's tenant; a query on it too, or on `target_tenant` (read-tenant.ts: the tenancy
 * rule, or a token of the platform tenant).
 */
export type LogRouterDeps = {
  writer: LedgerWriter;
  metadata: Pick<AuditMetadata, 'transactionsNamed' | 'hasLevel'>;
  queries: RecordQueries;
  scrolls: Scrolls;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

/** the module of the write's transaction: the one transaction of that name, or the one of that vendor */
export function resolveTransaction(found: TransactionInfo[], name: string, vendor: string): TransactionInfo {
  if (found.length === 0) {
    throw auditError(
      'AUDIT_RECORD.TRANSACTION_UNKNOWN',
      `transaction ${name} is not in the tenant's audit metadata; create it first`,
      [{ in: 'body', field: 'transaction_name', message: `unknown transaction ${name}` }],
    );
  }
  if (found.length === 1) return found[0]!;
  const byVendor = found.filter((t) => t.transaction_vendor === vendor);
  if (byVendor.length === 1) return byVendor[0]!;
  throw auditError(
    'AUDIT_RECORD.TRANSACTION_AMBIGUOUS',
    `transaction ${name} exists in modules ${found.map((t) => t.module_name).join(', ')} and transaction_vendor does not tell them apart`,
    [
      {
        in: 'body',
        field: 'transaction_name',
        message: `in several modules: ${found.map((t) => t.module_name).join(', ')}`,
      },
    ],
  );
}

export function createLogRouter(deps: LogRouterDeps): Router {
  const { writer, metadata, bearer, registry } = deps;
  const router = Router();

  const sync: RequestHandler = async (req: Request, res: Response) => {
    const input = parseRecordRequest(req.body as RecordRequest);
    const tenant = tenantOf(res);
    const tx = resolveTransaction(
      await metadata.transactionsNamed(tenant, input.transaction_name),
      input.transaction_name,
      input.transaction_vendor,
    );
    if (!(await metadata.hasLevel(input.warning_type))) {
      throw auditError(
        'AUDIT_RECORD.WARNING_LEVEL_UNKNOWN',
        `warning level ${input.warning_type} is not defined (INFO, WARN and the levels the platform created)`,
        [{ in: 'body', field: 'warning_type', message: `unknown warning level ${input.warning_type}` }],
      );
    }
    const key = req.get('idempotency-key') === undefined ? undefined : commandIdFrom(req);
    const result = await writer.write({
      fields: { ...input, module_name: tx.module_name },
      ...(key !== undefined && { idempotencyKey: key }),
      context: commandContext(res),
    });
    if (result.replayed) res.set('Idempotent-Replayed', 'true');
    res.json({ id: result.id, sequence: result.sequence, hash: result.hash, time: result.time });
  };

  const query: RequestHandler = async (req, res) => {
    const body = req.body as QueryRequest;
    const tenant = readTenant(res, body.target_tenant);
    // the records' stored JSON text goes out as it is (query-many.ts)
    sendJsonText(res, await queryMany(deps, tenant, recordQueryOf(body), pagingOf(body)));
  };

  for (const base of AUDIT_VERSIONS) {
    const version = base.slice(base.lastIndexOf('/') + 1);
    router.use(`${base}${LOG_SYNC}`, bearer.authenticate, bearer.requireScope(AUDIT_WRITE_SCOPE));
    router.use(`${base}${LOG_QUERY_MANY}`, bearer.authenticate, bearer.requireScope(AUDIT_READ_SCOPE));
    registry.route(
      router,
      {
        method: 'post',
        path: `${base}${LOG_SYNC}`,
        summary: `write one audit record (${version})`,
        schemas: { body: logRecordBody, response: writeAnswer },
        tags: ['log'],
      },
      sync,
    );
    registry.route(
      router,
      {
        method: 'post',
        path: `${base}${LOG_QUERY_MANY}`,
        summary: `query audit records, page or scroll mode (${version})`,
        schemas: { body: queryBody, response: queryAnswer },
        tags: ['log'],
      },
      query,
    );
  }
  return router;
}
