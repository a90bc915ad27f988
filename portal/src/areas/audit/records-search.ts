import type { QueryBody } from './audit-api.ts';

/**
 * The records page's query, as the URL's search parameters (a copied link reproduces it): the query-many
 * fields by their API names, the paging mode and, in page mode, the page. Nothing queried until the
 * required four are there.
 */
export type RecordsSearch = {
  module_name?: string;
  transaction_name?: string;
  start_time?: string;
  end_time?: string;
  warning_type?: string;
  business_code?: string;
  trace_id?: string;
  client_ip?: string;
  /** comma-separated: records with any of them */
  tags?: string;
  return_size?: number;
  mode?: 'page' | 'scroll';
  page?: number;
};

export const TEXT_FIELDS = [
  'module_name',
  'transaction_name',
  'start_time',
  'end_time',
  'warning_type',
  'business_code',
  'trace_id',
  'client_ip',
  'tags',
] as const;

export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** page_num × return_size may not pass it (AUDIT_QUERY.PAGE_TOO_DEEP): further on is scroll mode's */
export const MAX_PAGE_WINDOW = 10_000;

const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
};

export function recordsSearchOf(s: Record<string, unknown>): RecordsSearch {
  const out: RecordsSearch = {};
  for (const k of TEXT_FIELDS) {
    const v = s[k];
    if (typeof v === 'string' && v !== '') out[k] = v.slice(0, 512);
  }
  const size = positive(s.return_size);
  if (size !== undefined) out.return_size = Math.min(size, 1000);
  if (s.mode === 'scroll' || s.mode === 'page') out.mode = s.mode;
  const page = positive(s.page);
  if (page !== undefined) out.page = page;
  return out;
}

/** whether the search names what every query needs */
export const isComplete = (s: RecordsSearch): boolean =>
  s.module_name !== undefined &&
  s.transaction_name !== undefined &&
  s.start_time !== undefined &&
  s.end_time !== undefined;

export const tagsOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

/** the selection of a query-many or export body (no paging) */
export function selectionOf(s: RecordsSearch): Omit<QueryBody, 'page_num' | 'scroll_id' | 'return_size'> {
  const tags = tagsOf(s.tags);
  return {
    module_name: s.module_name ?? '',
    transaction_name: s.transaction_name ?? '',
    start_time: s.start_time ?? '',
    end_time: s.end_time ?? '',
    ...(s.warning_type !== undefined && { warning_type: s.warning_type }),
    ...(s.business_code !== undefined && { business_code: s.business_code }),
    ...(s.trace_id !== undefined && { trace_id: s.trace_id }),
    ...(s.client_ip !== undefined && { client_ip: s.client_ip }),
    ...(tags.length > 0 && { tags }),
  };
}

/** an instant `days` from now, as the API writes them (UTC, milliseconds) */
export const daysFromNow = (days: number, now = Date.now()): string => new Date(now + days * 86_400_000).toISOString();

/** the page numbers offered: the first, the last, and two either side of the current one */
export function pageWindow(current: number, last: number): Array<number | 'gap'> {
  const out: Array<number | 'gap'> = [];
  for (let n = 1; n <= last; n++) {
    if (n === 1 || n === last || Math.abs(n - current) <= 2) out.push(n);
    else if (out[out.length - 1] !== 'gap') out.push('gap');
  }
  return out;
}
