import { Router } from 'express';
import { type QueryRequest, recordQueryOf } from '../../domain/audit/query.ts';
import type { RecordQueries, RecordView } from '../../projections/audit/records.queries.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { AUDIT_READ_SCOPE, LOG_EXPORT } from './audit.paths.ts';
import { exportBody, formatQuery } from './audit.schemas.ts';
import { readTenant } from './read-tenant.ts';
import { attachment, type SheetFormat, writeCsv, writeXlsx } from './spreadsheet.ts';

/**
 * `POST …/audit/v3/log/export?format=csv|xlsx` (scope audit:read): every record a query-many query (without
 * paging) selects, newest first, as a CSV (default) or XLSX attachment. Streamed: the records are read in
 * pages of EXPORT_PAGE along the query's index (a cursor on time and sequence over the records there were
 * when the export began) and written as the client takes them, so memory stays flat whatever the size.
 * Columns: LOG_COLUMNS; tags as a JSON array.
 */
export const LOG_COLUMNS = [
  'sequence',
  'time',
  'id',
  'tenant',
  'module_name',
  'transaction_name',
  'transaction_vendor',
  'business_code',
  'client_ip',
  'warning_type',
  'trace_id',
  'tags',
  'compress_type',
  'new_data',
  'old_data',
  'hash',
] as const;
export const EXPORT_PAGE = 500;
/** XLSX: smaller pages keep exceljs' zip pipeline (and the garbage it leaves) smaller */
export const XLSX_EXPORT_PAGE = 250;

export const rowOf = (r: RecordView): string[] => [
  String(r.sequence),
  r.time,
  r.id,
  r.tenant,
  r.module_name,
  r.transaction_name,
  r.transaction_vendor,
  r.business_code,
  r.client_ip,
  r.warning_type,
  r.trace_id,
  JSON.stringify(r.tags),
  r.compress_type,
  r.new_data,
  r.old_data,
  r.hash,
];

export function createLogExportRouter(deps: {
  queries: RecordQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
}): Router {
  const { queries, bearer, registry } = deps;
  const router = Router();
  router.use(LOG_EXPORT, bearer.authenticate, bearer.requireScope(AUDIT_READ_SCOPE));
  registry.route(
    router,
    {
      method: 'post',
      path: LOG_EXPORT,
      summary: "export a query's records (streamed CSV or XLSX)",
      schemas: { query: formatQuery(['csv', 'xlsx'], 'csv'), body: exportBody },
      tags: ['log'],
    },
    async (req, res) => {
      const body = req.body as QueryRequest;
      const tenant = readTenant(res, body.target_tenant);
      const q = recordQueryOf(body);
      const format = (req.query as { format: SheetFormat }).format;
      attachment(res, `audit-log-${tenant}-${q.module_name}-${q.transaction_name}.${format}`, format);
      const pages = (async function* () {
        for await (const page of queries.all(tenant, q, format === 'xlsx' ? XLSX_EXPORT_PAGE : EXPORT_PAGE))
          yield page.map(rowOf);
      })();
      if (format === 'csv') await writeCsv(res, LOG_COLUMNS, pages);
      else await writeXlsx(res, 'audit log', LOG_COLUMNS, pages);
    },
  );
  return router;
}
