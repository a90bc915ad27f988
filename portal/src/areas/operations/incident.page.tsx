import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { hasScopes, sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { IncidentForm, type IncidentQuery } from './incident-form.tsx';
import { linksOf } from './incident-links.ts';
import { hasSelection, type IncidentSearch } from './incident-search.ts';
import type { TimelineRow } from './operations.types.ts';
import { StateAfter } from './state-after.tsx';
import '../../styles/operations.css';
import '../../styles/incident.css';

const route = getRouteApi('/operations/incident');
const MAX_DATA = 160;
const keepTenant = (prev: Record<string, unknown>) => (typeof prev.tenant === 'string' ? { tenant: prev.tenant } : {});

/** the event's data on one line, cut as `platform replay` cuts it (the API sealed its secrets) */
const keyData = (data: unknown): string => {
  const s = JSON.stringify(data) ?? '';
  return s.length > MAX_DATA ? `${s.slice(0, MAX_DATA - 1)}…` : s;
};

const day = (iso: string) => iso.slice(0, 10);
const clock = (iso: string) => iso.slice(11).replace(/(\.\d+)?Z$/, 'Z');

const fetchTimeline = (query: IncidentQuery, page: { offset: number; limit: number }, signal?: AbortSignal) =>
  call(api.operations.GET('/ops/v1/timeline', { params: { query: { ...query, ...page } }, ...(signal && { signal }) }));

/**
 * The incident view: one timeline across the services for a correlation id, a stream or a time window
 * (`platform replay`), each event with the state after it on demand and links to the pages of its ids.
 */
export function IncidentPage() {
  const search = route.useSearch() as IncidentSearch;
  const navigate = route.useNavigate();
  const query: IncidentQuery | null = hasSelection(search) ? search : null;
  const session = useQuery(sessionQuery).data;
  // the first page is read by the form, so the API's refusal lands on the form's fields
  const find = async (q: IncidentQuery) => {
    await fetchTimeline(q, { offset: 0, limit: 1 });
    await navigate({ search: ((prev: Record<string, unknown>) => ({ ...keepTenant(prev), ...q })) as never });
  };
  return (
    <Page
      title="Incident view"
      lead="Every event of one request, one stream or one time window, across the event bridge, identity, audit, workflow and hub, oldest first, as platform replay prints them: secrets stay sealed."
    >
      {/* a new selection in the URL (a correlation id followed) fills the form afresh */}
      <IncidentForm key={JSON.stringify(search)} onFind={find} initial={search} />
      {query !== null && (
        <PagedTable<TimelineRow>
          caption="Timeline"
          queryKey={['operations', 'timeline', query]}
          fetchPage={async ({ offset, limit }, signal) => {
            const page = await fetchTimeline(query, { offset, limit }, signal);
            return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
          }}
          rowKey={(e) => e.eventId}
          columns={[
            {
              key: 'time',
              header: 'Time',
              className: 'nowrap',
              cell: (e) => (
                <time dateTime={e.occurredAt}>
                  {day(e.occurredAt)}
                  <br />
                  {clock(e.occurredAt)}
                </time>
              ),
            },
            {
              key: 'service',
              header: 'Service',
              cell: (e) => <span className={`service service-${e.service}`}>{e.service}</span>,
            },
            {
              key: 'event',
              header: 'Event',
              rowHeader: true,
              className: 'incident-event',
              cell: (e) => (
                <>
                  <code>{e.type}</code>
                  <br />
                  <code className="incident-stream">{`${e.stream}@${e.revision}`}</code>
                  {e.hasState && <StateAfter stream={e.stream} revision={e.revision} />}
                </>
              ),
            },
            {
              key: 'actor',
              header: 'Actor',
              className: 'incident-actor',
              cell: (e) => (
                <>
                  {e.actor ?? ''}
                  {e.correlationId !== null && e.correlationId !== search.correlation && (
                    <>
                      <br />
                      <Link
                        to="/operations/incident"
                        search={{ correlation: e.correlationId } as never}
                        title={`The timeline of correlation id ${e.correlationId}`}
                      >
                        {`request ${e.correlationId.slice(0, 8)}…`}
                      </Link>
                    </>
                  )}
                </>
              ),
            },
            {
              key: 'data',
              header: 'Key data',
              className: 'wrap incident-data',
              cell: (e) => <code>{keyData(e.data)}</code>,
            },
            {
              key: 'links',
              header: 'Opens',
              className: 'incident-links',
              cell: (e) => (
                <ul className="plain-list">
                  {linksOf(e)
                    .filter((l) => hasScopes(session, [l.scope]))
                    .map((l) => (
                      <li key={l.label}>
                        <Link to={l.to} search={l.search}>
                          {l.label}
                        </Link>
                      </li>
                    ))}
                </ul>
              ),
            },
          ]}
          empty="No events: nothing in the log matches."
        />
      )}
    </Page>
  );
}
