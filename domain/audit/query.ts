import { auditError } from './audit.errors.ts';
import { DEFAULT_RETURN_SIZE, MAX_PAGE_WINDOW } from './audit.limits.ts';

/**
 * A `log/query-many` (or `log/export`) body once its shape passed the request schema: the rules a schema
 * cannot say. Times: ISO 8601 instants (RFC 3339: an offset or `Z`; the spec asks for UTC with
 * milliseconds, and that is what answers carry), normalized to UTC milliseconds; start inclusive, end
 * exclusive, start before end. Paging: exactly one of page_num (page mode: page_num × return_size at most
 * MAX_PAGE_WINDOW, beyond that scroll mode) and scroll_id ("" starts a scroll).
 */
export type QueryRequest = {
  module_name: string;
  transaction_name: string;
  start_time: string;
  end_time: string;
  return_size?: number;
  page_num?: number;
  scroll_id?: string;
  business_code?: string;
  warning_type?: string;
  tags?: string[];
  trace_id?: string;
  client_ip?: string;
  target_tenant?: string;
};

/** what selects records (the tenant comes from the request's tenancy) */
export type RecordQuery = {
  module_name: string;
  transaction_name: string;
  /** UTC ISO instants with milliseconds: start inclusive, end exclusive */
  start: string;
  end: string;
  business_code?: string;
  warning_type?: string;
  /** any of */
  tags?: string[];
  trace_id?: string;
  client_ip?: string;
};

export type Paging =
  | { mode: 'page'; page_num: number; return_size: number }
  | { mode: 'scroll'; scroll_id: string; return_size: number };

const invalid = (field: string, message: string) =>
  auditError('AUDIT_QUERY.INVALID', `${field} ${message}`, [{ in: 'body', field, message }]);

function instant(field: string, value: string): string {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid(field, 'is not an ISO 8601 instant (e.g. 2026-03-01T10:00:00.000Z)');
  const iso = new Date(ms).toISOString();
  // toISOString answers 27-character extended years outside 0000-9999: those do not sort with the others
  if (iso.length !== 24) throw invalid(field, 'must be an instant between the years 0000 and 9999');
  return iso;
}

/** the selection of a query or export body */
export function recordQueryOf(body: QueryRequest): RecordQuery {
  const start = instant('start_time', body.start_time);
  const end = instant('end_time', body.end_time);
  if (start >= end) throw invalid('end_time', 'must be after start_time (start inclusive, end exclusive)');
  return {
    module_name: body.module_name,
    transaction_name: body.transaction_name,
    start,
    end,
    ...(body.business_code !== undefined && { business_code: body.business_code }),
    ...(body.warning_type !== undefined && { warning_type: body.warning_type }),
    ...(body.tags !== undefined && body.tags.length > 0 && { tags: body.tags }),
    ...(body.trace_id !== undefined && { trace_id: body.trace_id }),
    ...(body.client_ip !== undefined && { client_ip: body.client_ip }),
  };
}

/** the paging mode of a query-many body */
export function pagingOf(body: QueryRequest): Paging {
  const return_size = body.return_size ?? DEFAULT_RETURN_SIZE;
  const hasPage = body.page_num !== undefined;
  const hasScroll = body.scroll_id !== undefined;
  if (hasPage && hasScroll) {
    throw auditError('AUDIT_QUERY.INVALID', 'send either page_num (page mode) or scroll_id (scroll mode), not both', [
      { in: 'body', field: 'page_num', message: 'not allowed together with scroll_id' },
      { in: 'body', field: 'scroll_id', message: 'not allowed together with page_num' },
    ]);
  }
  if (!hasPage && !hasScroll) {
    throw auditError('AUDIT_QUERY.INVALID', 'send page_num (page mode, from 1) or scroll_id ("" starts a scroll)', [
      { in: 'body', field: 'page_num', message: 'page_num or scroll_id is required' },
    ]);
  }
  if (hasScroll) return { mode: 'scroll', scroll_id: body.scroll_id!, return_size };
  const page_num = body.page_num!;
  if (page_num * return_size > MAX_PAGE_WINDOW) {
    throw auditError(
      'AUDIT_QUERY.PAGE_TOO_DEEP',
      `page mode reaches the first ${MAX_PAGE_WINDOW} records (page_num × return_size = ${page_num * return_size}); read further in scroll mode (scroll_id "")`,
      [
        {
          in: 'body',
          field: 'page_num',
          message: `page_num × return_size must be at most ${MAX_PAGE_WINDOW}; use scroll_id for more`,
          max: MAX_PAGE_WINDOW,
        },
      ],
    );
  }
  return { mode: 'page', page_num, return_size };
}
