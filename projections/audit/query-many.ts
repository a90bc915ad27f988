import type { Paging, RecordQuery } from '../../domain/audit/query.ts';
import type { RecordQueries, RecordView } from './records.queries.ts';
import { viewOf } from './records.queries.ts';
import type { Scrolls } from './scrolls.store.ts';

export type QueryManyResult =
  | { total: number; return_size: number; page_num: number; records: RecordView[] }
  | { total: number; return_size: number; scroll_id: string; records: RecordView[] };

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
    const page = await queries.page(tenant, q, paging.page_num, size);
    return { total: page.total, return_size: size, page_num: paging.page_num, records: page.records };
  }
  if (paging.scroll_id === '') {
    const snapshot = (await queries.chain(tenant))?.last_ts ?? '';
    const total = snapshot === '' ? 0 : await queries.count(tenant, q, { snapshot });
    const scroll = await scrolls.begin(tenant, q, snapshot, total);
    const docs = snapshot === '' ? [] : await queries.walk(tenant, q, { snapshot }, size);
    if (docs.length > 0) await scrolls.advance(scroll.id, docs[docs.length - 1]!.ts);
    return { total, return_size: size, scroll_id: scroll.id, records: docs.map(viewOf) };
  }
  const scroll = await scrolls.get(tenant, paging.scroll_id);
  const docs =
    scroll.snapshot === ''
      ? []
      : await queries.walk(tenant, scroll.query, { snapshot: scroll.snapshot, ...(scroll.cursor !== '' && { cursor: scroll.cursor }) }, size);
  await scrolls.advance(scroll.id, docs.length > 0 ? docs[docs.length - 1]!.ts : scroll.cursor);
  return { total: scroll.total, return_size: size, scroll_id: scroll.id, records: docs.map(viewOf) };
}
