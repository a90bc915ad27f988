import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { REFRESH_MS, type Readiness } from './operations.types.ts';
import '../../styles/operations.css';

type Check = Readiness['checks'][number];
type Engine = Readiness['engines'][number];

const KEY = ['operations', 'readiness'] as const;

// one read of the API serves the summary and both tables (which page nothing: the API answers everything)
const readinessQuery = queryOptions({
  queryKey: [...KEY, 'report'],
  queryFn: ({ signal }) => call(api.operations.GET('/ops/v1/readiness', { signal })),
  staleTime: 1000,
});

/** What /health/ready checks, and each work engine's backlog: read again every few seconds. */
export function ReadinessPage() {
  const queryClient = useQueryClient();
  const query = useQuery({ ...readinessQuery, placeholderData: keepPreviousData });
  useEffect(() => {
    const t = setInterval(() => void queryClient.invalidateQueries({ queryKey: KEY }), REFRESH_MS);
    return () => clearInterval(t);
  }, [queryClient]);
  const report = () => queryClient.fetchQuery(readinessQuery);
  const r = query.data;
  const failing = r?.checks.filter((c) => !c.ok).length ?? 0;
  return (
    <Page
      title="Readiness"
      lead="What the load balancer's readiness probe (/health/ready) checks, and the work engines' queues of due work."
    >
      <p className={`readiness-summary ${r === undefined ? '' : r.ok ? 'ok' : 'not-ok'}`} role="status">
        {r === undefined
          ? '\u00a0'
          : r.ok
            ? `Ready: all ${r.checks.length} checks pass.`
            : `Not ready: ${failing} of ${r.checks.length} checks fail.`}
        {r !== undefined && !r.workers && ' This process runs no workers: the lags are read from the shared stores.'}
      </p>
      {query.isError && query.data !== undefined && <ApiErrorView error={query.error} />}
      <h2 className="section-title">Checks</h2>
      <PagedTable<Check>
        caption="Readiness checks"
        captionHidden
        queryKey={[...KEY, 'checks']}
        paging="none"
        fetchPage={async () => ({ items: (await report()).checks })}
        rowKey={(c) => c.name}
        columns={[
          { key: 'name', header: 'Check', rowHeader: true, className: 'nowrap', cell: (c) => <code>{c.name}</code> },
          {
            key: 'ok',
            header: 'Result',
            cell: (c) => (
              <span className={`state ${c.ok ? 'state-running' : 'state-retrying'}`}>{c.ok ? 'ok' : 'failing'}</span>
            ),
          },
          { key: 'figure', header: 'Lag / backlog', className: 'num nowrap', cell: (c) => figure(c) },
          { key: 'detail', header: 'Detail', className: 'wrap', cell: (c) => c.detail ?? '' },
        ]}
        empty="No checks."
      />
      <h2 className="section-title">Work engines</h2>
      <PagedTable<Engine>
        caption="Work engines"
        captionHidden
        queryKey={[...KEY, 'engines']}
        paging="none"
        fetchPage={async () => ({ items: (await report()).engines })}
        rowKey={(e) => e.name}
        columns={[
          { key: 'name', header: 'Engine', rowHeader: true, className: 'nowrap', cell: (e) => <code>{e.name}</code> },
          { key: 'state', header: 'State', cell: (e) => <span className={`state state-${e.state}`}>{e.state}</span> },
          { key: 'due', header: 'Due', className: 'num', cell: (e) => e.due },
          { key: 'leased', header: 'Leased', className: 'num', cell: (e) => e.leased ?? '–' },
          { key: 'inFlight', header: 'In flight here', className: 'num', cell: (e) => e.inFlight },
          { key: 'error', header: 'Last error', className: 'wrap', cell: (e) => e.lastError ?? '' },
        ]}
        empty="This process runs no work engines."
      />
    </Page>
  );
}

const figure = (c: Check): string => {
  if (c.lag !== null) return `lag ${c.lag}`;
  if (c.backlog !== null) return `backlog ${c.backlog}`;
  if (c.parked !== null) return `${c.parked} parked`;
  return '';
};
