import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { ApiErrorView } from './api-error.tsx';
import { type PageRequest, type PageResult, pageSummary, type SortState } from './paging.ts';
import { ScrollRegion } from './scroll-region.tsx';

export type { PageRequest, PageResult, SortState } from './paging.ts';

/**
 * A list of the API, a page at a time, through the API's own paging: `fetchPage` maps the table's
 * request ({ offset, limit, sort }) to the API's parameters and its answer to { items, total } (or
 * { items, hasMore } where the API counts nothing). Columns with a `sortKey` sort (only where the API
 * sorts: the sort goes to the API, never applied to one page here). While loading, skeleton rows hold the
 * page's height; an empty list shows `empty`; a refusal shows the API's code and message in place.
 *
 *   <PagedTable
 *     caption="Applications"
 *     queryKey={['identity', 'clients', tenant]}
 *     fetchPage={({ offset, limit }) => call(api.identity.GET('/cas/admin/v1/clients', { params: { query: { offset, limit } } }))
 *       .then((page) => ({ items: page.items ?? [], total: page.total }))}
 *     columns={[{ key: 'id', header: 'Client ID', cell: (c) => c.client_id }]}
 *     rowKey={(c) => c.client_id}
 *     empty="No applications yet."
 *   />
 *
 * An API that answers the whole list at once: `paging="none"` (one request, every row shown).
 */
export type Column<T> = {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** the API's sort field for this column; absent: the column does not sort */
  sortKey?: string;
  /** the row's header cell (`<th scope="row">`) */
  rowHeader?: boolean;
  className?: string;
};

export type PagedTableProps<T> = {
  caption: string;
  /** the query's identity (TanStack Query); the page request is added to it */
  queryKey: readonly unknown[];
  fetchPage: (request: PageRequest, signal: AbortSignal) => Promise<PageResult<T>>;
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  pageSize?: number;
  paging?: 'offset' | 'none';
  initialSort?: SortState;
  empty?: ReactNode;
  /** shown above the table, right of the caption (a Create button) */
  toolbar?: ReactNode;
  /** hide the caption visually (when the page's heading says the same) */
  captionHidden?: boolean;
};

export function PagedTable<T>(props: PagedTableProps<T>) {
  const pageSize = props.pageSize ?? 20;
  const paged = (props.paging ?? 'offset') === 'offset';
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<SortState | undefined>(props.initialSort);
  const request: PageRequest = {
    offset: paged ? offset : 0,
    limit: paged ? pageSize : 0,
    ...(sort !== undefined && { sort }),
  };
  // the target tenant (a platform administrator's choice, `?tenant=`) is part of what the list shows
  const tenant = (useSearch({ strict: false }) as { tenant?: string }).tenant ?? null;
  const query = useQuery({
    queryKey: [...props.queryKey, { tenant }, request],
    queryFn: ({ signal }) => props.fetchPage(request, signal),
    placeholderData: keepPreviousData,
  });
  const cols = props.columns.length;
  const summary = query.data !== undefined ? pageSummary(request, query.data) : null;

  const toggleSort = (key: string) => {
    setOffset(0);
    setSort((s) =>
      s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' },
    );
  };

  let body: ReactNode;
  if (query.isError && query.data === undefined) {
    body = (
      <tr>
        <td colSpan={cols}>
          <ApiErrorView error={query.error} title="The list could not be loaded" onRetry={() => void query.refetch()} />
        </td>
      </tr>
    );
  } else if (query.data === undefined) {
    // a full page of placeholder rows: the rows that arrive take their place without moving what follows
    body = Array.from({ length: paged ? pageSize : 5 }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their place
      // biome-ignore lint/a11y/noAriaHiddenOnFocusable: placeholder rows hold no control and nothing to read
      <tr key={i} className="skeleton-row" aria-hidden="true">
        {props.columns.map((c) => (
          <td key={c.key}>
            <span className="skeleton" />
          </td>
        ))}
      </tr>
    ));
  } else if (query.data.items.length === 0) {
    body = (
      <tr>
        <td colSpan={cols} className="table-empty">
          {props.empty ?? 'Nothing here yet.'}
        </td>
      </tr>
    );
  } else {
    body = query.data.items.map((row) => (
      <tr key={props.rowKey(row)}>
        {props.columns.map((c) =>
          c.rowHeader ? (
            <th key={c.key} scope="row" className={c.className}>
              {c.cell(row)}
            </th>
          ) : (
            <td key={c.key} className={c.className}>
              {c.cell(row)}
            </td>
          ),
        )}
      </tr>
    ));
  }

  return (
    <div className="paged-table">
      {props.toolbar !== undefined && <div className="table-toolbar">{props.toolbar}</div>}
      <ScrollRegion label={props.caption}>
        <table className="table" aria-busy={query.isFetching ? true : undefined}>
          <caption className={props.captionHidden ? 'visually-hidden' : undefined}>{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((c) => {
                const active = sort?.key === c.sortKey && c.sortKey !== undefined;
                return (
                  <th
                    key={c.key}
                    scope="col"
                    aria-sort={active ? (sort!.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                    className={c.className}
                  >
                    {c.sortKey !== undefined ? (
                      <button type="button" className="sort-button" onClick={() => toggleSort(c.sortKey!)}>
                        {c.header}
                        <span aria-hidden="true" className="sort-mark">
                          {active ? (sort!.direction === 'asc' ? '▲' : '▼') : '↕'}
                        </span>
                        <span className="visually-hidden">
                          {active ? `, sorted ${sort!.direction === 'asc' ? 'ascending' : 'descending'}` : ', sortable'}
                        </span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </ScrollRegion>
      {query.isError && query.data !== undefined && (
        <ApiErrorView error={query.error} title="The page could not be loaded" onRetry={() => void query.refetch()} />
      )}
      {paged && (
        <nav className="pager" aria-label={`Pages of ${props.caption}`}>
          <p className="pager-summary" aria-live="polite">
            {summary?.text ?? '\u00a0'}
          </p>
          <div className="pager-buttons">
            <button
              type="button"
              className="button"
              disabled={offset === 0 || query.isFetching}
              onClick={() => setOffset(Math.max(0, offset - pageSize))}
            >
              Previous page
            </button>
            <button
              type="button"
              className="button"
              disabled={summary?.hasNext !== true || query.isFetching}
              onClick={() => setOffset(offset + pageSize)}
            >
              Next page
            </button>
          </div>
        </nav>
      )}
    </div>
  );
}
