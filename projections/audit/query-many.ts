import type { Paging, RecordQuery } from '../../domain/audit/query.ts';
import type { RecordQueries, RecordText } from './records.queries.ts';
import type { Scrolls } from './scrolls.store.ts';

/** the answer's parts, its records in JSON text as stored */
type Answer =
  | { total: number; return_size: number; page_num: number; records: RecordText[] }
  | { total: number; return_size: number; scroll_id: string; records: RecordText[] };

/** The answer as JSON text: `{total, return_size, page_num | scroll_id, records}`, the records' texts as they are. */
function answerText(a: Answer): string {
  const mode = 'page_num' in a ? `"page_num":${a.page_num}` : `"scroll_id":${JSON.stringify(a.scroll_id)}`;
  return `{"total":${a.total},"return_size":${a.return_size},${mode},"records":[${a.records.map((r) => r.json).join(',')}]}`;
}

/**
 * `log/query-many`: page mode (a page of the matching records newest first, and how many match) or scroll
 * mode (scroll_id "" starts: the query, the records there are now, their total; each answer carries the
 * scroll_id for the next page, the same id throughout; an exhausted scroll answers no records). A continued
 * scroll uses the query it began with: the query fields of later requests are not read again. The answer
 * comes as JSON text, the records' stored texts in it unparsed.
 */
export async function queryMany(
  deps: { queries: RecordQueries; scrolls: Scrolls },
  tenant: string,
  q: RecordQuery,
  paging: Paging,
): Promise<string> {
  return answerText(await answerOf(deps, tenant, q, paging));
}

async function answerOf(
  deps: { queries: RecordQueries; scrolls: Scrolls },
  tenant: string,
  q: RecordQuery,
  paging: Paging,
): Promise<Answer> {
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
      : await queries.walkText(
          tenant,
          scroll.query,
          { snapshot: scroll.snapshot, ...(scroll.cursor !== '' && { cursor: scroll.cursor }) },
          size,
        );
  await scrolls.advance(scroll.id, texts.length > 0 ? texts[texts.length - 1]!.ts : scroll.cursor);
  return { total: scroll.total, return_size: size, scroll_id: scroll.id, records: texts };
}
