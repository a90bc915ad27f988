import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { sessionQuery } from '../../api/session.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { Page } from '../../shell/page.tsx';
import { V3, withTarget } from './audit-api.ts';
import { DownloadButton } from './download-button.tsx';
import { PageResults, pageQuery } from './page-results.tsx';
import { RecordQueryForm } from './record-query-form.tsx';
import { isComplete, type RecordsSearch, selectionOf } from './records-search.ts';
import { ScrollResults } from './scroll-results.tsx';
import './audit.css';

const route = getRouteApi('/audit/records');

/**
 * The audit records: the query (in the URL: a link reproduces it), its results in page mode or scroll mode,
 * and the export of every record it selects. The signed-in tenant by default; the target tenant when a
 * platform administrator picked one.
 */
export function RecordsPage() {
  const search = route.useSearch() as RecordsSearch;
  const navigate = route.useNavigate();
  const session = useQuery(sessionQuery).data;
  const mode = search.mode ?? 'page';
  const modeName = useId();
  const tenant = targetTenant() ?? session?.tenant ?? '';
  const complete = isComplete(search);

  const go = (next: RecordsSearch) =>
    void navigate({ search: ((prev: Record<string, unknown>) => ({ ...pick(prev), ...next })) as never });
  const setSearch = go;
  // each Search reads afresh, the same query too: a new scroll, pages not taken from the cache
  const [run, setRun] = useState(0);
  const client = useQueryClient();
  const runSearch = (next: RecordsSearch) => {
    setRun((n) => n + 1);
    void client.invalidateQueries({ queryKey: ['audit', 'records'] });
    go(next);
  };
  const formKey = JSON.stringify(selectionOf(search));
  // page mode counts the query's records: the export says how many of them have arrived
  const total = useQuery({
    ...pageQuery(search, search.page ?? 1, search.return_size ?? 20),
    enabled: complete && mode === 'page',
  }).data?.total;

  return (
    <Page title="Audit records" lead={`The operations log of tenant ${tenant}: query by module, transaction and time.`}>
      <RecordQueryForm key={formKey} search={search} onQuery={runSearch} />
      {complete ? (
        <section aria-labelledby={`${modeName}-results`} className="audit-results">
          <div className="audit-results-head">
            <h2 id={`${modeName}-results`}>Results</h2>
            <fieldset className="audit-mode">
              <legend>Paging</legend>
              {(['page', 'scroll'] as const).map((m) => (
                <label key={m}>
                  <input
                    type="radio"
                    name={modeName}
                    value={m}
                    checked={mode === m}
                    onChange={() =>
                      setSearch({ ...search, mode: m, ...(m === 'page' ? { page: 1 } : { page: undefined }) })
                    }
                  />
                  {m === 'page' ? 'Page mode' : 'Scroll mode'}
                </label>
              ))}
            </fieldset>
            <DownloadButton
              label="Export records"
              {...(total !== undefined && { expected: total })}
              formats={['csv', 'xlsx']}
              request={(format) => ({
                path: `${V3}/log/export?format=${format}`,
                method: 'POST',
                body: withTarget(selectionOf(search)),
                fallbackName: `audit-log.${format}`,
              })}
            />
          </div>
          {mode === 'page' ? (
            <PageResults search={search} onPage={(page) => setSearch({ ...search, page })} />
          ) : (
            <ScrollResults search={search} run={run} />
          )}
        </section>
      ) : (
        <p className="empty">Name a module, a transaction and a time range, then search.</p>
      )}
    </Page>
  );
}

/** the search parameters other than the query's (the target tenant) */
const pick = (prev: Record<string, unknown>) => (typeof prev.tenant === 'string' ? { tenant: prev.tenant } : {});
