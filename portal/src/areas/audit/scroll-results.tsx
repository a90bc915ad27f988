import { useRef, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { type AuditRecord, V3, withTarget } from './audit-api.ts';
import { RECORD_COLUMNS, recordKey } from './record-columns.tsx';
import { type RecordsSearch, selectionOf } from './records-search.ts';

/** one scroll of the API: the rows loaded so far, and the scroll_id that reads on */
type Scroll = { scrollId: string; rows: AuditRecord[]; total?: number; done: boolean; pending?: Promise<void> };

/**
 * Scroll mode: `scroll_id: ""` starts a scroll at the API, each "Load more" passes its scroll_id on and adds
 * the next records below the ones loaded (they stay). A request once sent is never aborted: the API's
 * cursor has moved on, and the rows it answered are kept. A scroll that expired (idle too long) starts over.
 */
export function ScrollResults(props: { search: RecordsSearch; run: number }) {
  const size = props.search.return_size ?? 20;
  const identity = JSON.stringify([selectionOf(props.search), size, targetTenant() ?? null, props.run]);
  const scrolls = useRef(new Map<string, Scroll>());
  const notify = useStatus();
  const [requested, setRequested] = useState(1);
  const [seen, setSeen] = useState<{ identity: string; scroll: Scroll } | null>(null);
  if (seen !== null && seen.identity !== identity) {
    setSeen(null);
    setRequested(1);
  }

  const scrollOf = (): Scroll => {
    let s = scrolls.current.get(identity);
    if (s === undefined) {
      s = { scrollId: '', rows: [], done: false };
      scrolls.current.set(identity, s);
    }
    return s;
  };

  const loadUpTo = async (pages: number): Promise<AuditRecord[]> => {
    const s = scrollOf();
    while (!s.done && s.rows.length < pages * size) {
      s.pending ??= (async () => {
        const answer = await call(
          api.audit.POST(`${V3}/log/query-many`, {
            body: withTarget({ ...selectionOf(props.search), scroll_id: s.scrollId, return_size: size }),
          }),
        ).catch((err: unknown) => {
          // an idle scroll expires at the API: it starts over (the rows stay in view meanwhile), and says so
          if (isApiError(err) && (err.code === 'SCROLL.EXPIRED' || err.code === 'SCROLL.NOT_FOUND') && s.scrollId) {
            Object.assign(s, { scrollId: '', rows: [], total: undefined, done: false });
            notify({
              kind: 'info',
              text: 'The scroll had expired at the API: the records were read again from the newest',
            });
            return null;
          }
          throw err;
        });
        if (answer === null) return;
        const records = answer.records ?? [];
        s.rows = [...s.rows, ...records];
        s.scrollId = answer.scroll_id ?? s.scrollId;
        if (answer.total !== undefined) s.total = answer.total;
        s.done = records.length < size || (s.total !== undefined && s.rows.length >= s.total);
      })().finally(() => {
        s.pending = undefined;
      });
      await s.pending;
    }
    setSeen({ identity, scroll: s });
    return [...s.rows];
  };

  const scroll = seen?.identity === identity ? seen.scroll : undefined;
  return (
    <>
      <PagedTable
        caption="Audit records"
        captionHidden
        queryKey={['audit', 'records', 'scroll', identity, requested]}
        paging="none"
        pageSize={size}
        fetchPage={async () => ({ items: await loadUpTo(requested) })}
        columns={RECORD_COLUMNS}
        rowKey={recordKey}
        empty="No records match this query."
      />
      <div className="pager audit-pager">
        <p className="pager-summary" aria-live="polite">
          {scroll === undefined
            ? '\u00a0'
            : `${scroll.rows.length} of ${scroll.total ?? scroll.rows.length} record${scroll.total === 1 ? '' : 's'} loaded`}
        </p>
        <button
          type="button"
          className="button"
          disabled={scroll === undefined || scroll.done}
          onClick={() => setRequested((n) => n + 1)}
        >
          {scroll?.done ? 'All records loaded' : 'Load more'}
        </button>
      </div>
    </>
  );
}
