import { Router } from 'express';
import { auditError } from '../../domain/audit/audit.errors.ts';
import type { RecordQueries, RecordView } from '../../projections/audit/records.queries.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { AUDIT_READ_SCOPE, CHAIN, RECORDS } from './audit.paths.ts';
import { recordParams, recordView, sequenceParams, targetTenantQuery } from './audit.schemas.ts';
import { readTenant } from './read-tenant.ts';

/**
 * One record, beyond the spec (a query needs its module, transaction and time range; a link to one record,
 * and verify's first bad sequence, need neither), scope audit:read:
 *
 *   GET …/audit/v3/records/{id}        the record of that id
 *   GET …/audit/v3/chain/{sequence}    the record at that place of the tenant's chain
 *
 * `target_tenant` as the other reads (the tenancy rule, or a token of the platform tenant). Answered from
 * the query store: a record retention retired, or another tenant's, is a 404 AUDIT_RECORD.NOT_FOUND.
 */
export function createRecordRouter(deps: {
  queries: RecordQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
}): Router {
  const { queries, bearer, registry } = deps;
  const router = Router();
  router.use([RECORDS, CHAIN], bearer.authenticate, bearer.requireScope(AUDIT_READ_SCOPE));

  const found = (record: RecordView | null, what: string, details: Record<string, unknown>): RecordView => {
    if (record === null) throw auditError('AUDIT_RECORD.NOT_FOUND', `no audit record ${what}`, details);
    return record;
  };

  registry.route(
    router,
    {
      method: 'get',
      path: `${RECORDS}/:id`,
      summary: 'one audit record by its id',
      schemas: { params: recordParams, query: targetTenantQuery, response: recordView },
      tags: ['log'],
    },
    async (req, res) => {
      const q = req.query as { target_tenant?: string };
      const tenant = readTenant(res, q.target_tenant);
      const id = String(req.params.id);
      res.json(found(await queries.byId(tenant, id), id, { id }));
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: `${CHAIN}/:sequence`,
      summary: "the audit record at a sequence of the tenant's chain",
      schemas: { params: sequenceParams, query: targetTenantQuery, response: recordView },
      tags: ['log'],
    },
    async (req, res) => {
      const q = req.query as { target_tenant?: string };
      const tenant = readTenant(res, q.target_tenant);
      const sequence = Number(req.params.sequence);
      res.json(found(await queries.atSequence(tenant, sequence), `at sequence ${sequence}`, { sequence }));
    },
  );
  return router;
}
