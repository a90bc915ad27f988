import type { Paging, RecordQuery } from '../../domain/audit/query.ts';
import type { RecordQueries, RecordText } from './records.queries.ts';
import type { Scrolls } from './scrolls.store.ts';

/** the answer, its records in JSON text as stored (queryManyJson writes the whole answer) */
export type QueryManyResult =
  | { total: number; return_size: number; page_num: number; records: RecordText[] }
  | { total: number; return_size: number; scroll_id: string; records: RecordText[] };

/**
 * `log/query-many`: page mode (a page of the matching records newest first, and how many match) or scroll
 * mode (scroll_id "" starts: the query, the records there are now, their total; each answer carries the
 * scroll_id for the next page, the same id throughout; an exhausted scroll answers no records). A continued
 * scroll uses the query it began with: the query fields of later requests are not read again.
 */
export async function queryMany(deps: { queries: RecordQueries; scrolls: Scrolls }, tenant: string, q: RecordQuery, paging: Paging): Promise<QueryManyResult> {
  const { queries, scrolls } = deps;
  const size = paging.return_size;
  if (paging.mode === 'page') {
    const page = await queries.pageText(tenant, q, paging.page_num, size);
    return { total: page.total, return_size: size, page_num: paging.page_num, records: page.records };
  }
  if (paging.scroll_id === '') {
    const snapshot = (await queries.chain(tenant))?.last_ts ?? '';
    const total = snapshot === '' ? 0 : await queries.count(tenant, q, { snapshot });
    const scroll = await scrolls.begin(tenant, q, snapshot, total);
    const texts = snapshot === '' ? [] : await queries.walkText(tenant, q, { snapshot }, size);
    if (texts.length > 0) await scrolls.advance(scroll.id, texts[texts.length - 1]!.ts);
    return { total, return_size: size, scroll_id: scroll.id, records: texts };
  }
  const scroll = await scrolls.get(tenant, paging.scroll_id);
  const texts =
    scroll.snapshot === ''
      ? []
      : await queries.walkText(tenant, scroll.query, { snapshot: scroll.snapshot, ...(scroll.cursor !== '' && { cursor: scroll.cursor }) }, size);
  await scrolls.advance(scroll.id, texts.length > 0 ? texts[texts.length - 1]!.ts : scroll.cursor);
  return { total: scroll.total, return_size: size, scroll_id: scroll.id, records: texts };
}

/** The answer as JSON text: `{total, return_size, page_num | scroll_id, records}`, the records' texts as they are. */
export function queryManyJson(result: QueryManyResult): string {
  const mode = 'page_num' in result ? `"page_num":${result.page_num}` : `"scroll_id":${JSON.stringify(result.scroll_id)}`;
  return `{"total":${result.total},"return_size":${result.return_size},${mode},"records":[${result.records.map((r) => r.json).join(',')}]}`;
}
