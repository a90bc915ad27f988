import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { PagedTable } from '../../ui/paged-table.tsx';
import { V3, withTarget } from './audit-api.ts';
import { RECORD_COLUMNS, recordKey } from './record-columns.tsx';
import { MAX_PAGE_WINDOW, pageWindow, type RecordsSearch, selectionOf } from './records-search.ts';

/** one page of the query (the pager's and the table's, and the export's expected count: one request) */
export const pageQuery = (s: RecordsSearch, page: number, size: number) =>
  queryOptions({
    queryKey: ['audit', 'records', 'page', selectionOf(s), size, page, targetTenant() ?? null],
    queryFn: ({ signal }) =>
      call(
        api.audit.POST(`${V3}/log/query-many`, {
          body: withTarget({ ...selectionOf(s), page_num: page, return_size: size }),
          signal,
        }),
      ),
    staleTime: 30_000,
  });

/**
 * Page mode: the API's page_num, one page in the table, numbered pages and a jump to any page (the page is
 * the URL's). Page mode reaches the first 10,000 records; the pager says where scroll mode takes over.
 */
export function PageResults(props: { search: RecordsSearch; onPage: (page: number) => void }) {
  const { search } = props;
  const size = search.return_size ?? 20;
  const page = search.page ?? 1;
  const client = useQueryClient();
  const answer = useQuery({ ...pageQuery(search, page, size), placeholderData: keepPreviousData });
  const total = answer.data?.total;
  const last = total === undefined ? page : Math.max(1, Math.ceil(total / size));
  const reachable = Math.min(last, Math.floor(MAX_PAGE_WINDOW / size));
  const [jump, setJump] = useState('');
  const jumpId = useId();

  const go = (n: number) => props.onPage(Math.min(Math.max(1, n), reachable));
  const onJump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    if (Number.isInteger(n) && n >= 1) go(n);
  };

  return (
    <>
      <PagedTable
        caption="Audit records"
        captionHidden
        queryKey={['audit', 'records', 'page-table', selectionOf(search), size, page]}
        paging="none"
        pageSize={size}
        fetchPage={async () => ({ items: (await client.fetchQuery(pageQuery(search, page, size))).records ?? [] })}
        columns={RECORD_COLUMNS}
        rowKey={recordKey}
        empty="No records match this query."
      />
      <nav className="pager audit-pager" aria-label="Pages of audit records">
        <p className="pager-summary" aria-live="polite">
          {total === undefined
            ? '\u00a0'
            : total === 0
              ? 'No records'
              : `Page ${page} of ${last} · ${total} record${total === 1 ? '' : 's'}`}
          {last > reachable && ` · page mode reaches page ${reachable}; scroll mode reads on`}
        </p>
        <ul className="audit-pages">
          <li>
            <button type="button" className="button" disabled={page <= 1} onClick={() => go(page - 1)}>
              Previous page
            </button>
          </li>
          {pageWindow(page, reachable).map((n, i) =>
            n === 'gap' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a gap has nothing but its place
              <li key={`gap-${i}`} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={n}>
                <button
                  type="button"
                  className="button audit-page-button"
                  aria-current={n === page ? 'page' : undefined}
                  aria-label={`Page ${n}`}
                  onClick={() => go(n)}
                >
                  {n}
                </button>
              </li>
            ),
          )}
          <li>
            <button type="button" className="button" disabled={page >= reachable} onClick={() => go(page + 1)}>
              Next page
            </button>
          </li>
        </ul>
        <form className="audit-jump" onSubmit={onJump}>
          <label htmlFor={jumpId}>Go to page</label>
          <input
            id={jumpId}
            className="input input-small"
            type="number"
            min={1}
            max={reachable}
            value={jump}
            onChange={(e) => setJump(e.target.value)}
          />
          <button type="submit" className="button">
            Go
          </button>
        </form>
      </nav>
    </>
  );
}
