import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { type NotificationRow, type SearchQuery, searchNotifications } from './hub-msg-api.ts';
import { localTime } from './message-timeline.tsx';
import './hub-msg.css';

const FIELDS: ReadonlyArray<{ name: keyof SearchQuery; label: string; hint?: string }> = [
  { name: 'notificationCode', label: 'Notification code' },
  { name: 'requestId', label: 'Request ID' },
  { name: 'notificationId', label: 'Notification ID' },
  { name: 'recipientId', label: 'Recipient ID' },
  { name: 'acceptedFrom', label: 'Accepted from', hint: 'tenant-local, e.g. 2026-12-01T08:00' },
  { name: 'acceptedTo', label: 'Accepted to', hint: 'included' },
];

/** the filters the URL's search holds (a search can be bookmarked and shared), only the non-empty ones */
function filtersOf(search: Record<string, unknown>): SearchQuery {
  const q: SearchQuery = {};
  for (const f of FIELDS) {
    const v = search[f.name];
    if (v !== undefined && String(v).trim() !== '') q[f.name] = String(v).trim();
  }
  return q;
}

/**
 * The operators' notification search: every filter optional, all of them combined, newest acceptance first.
 * The filters live in the URL's search; each row opens the notification's page.
 */
export function NotificationsPage() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const filters = filtersOf(search);
  const navigate = useNavigate();
  const apply = (next: SearchQuery) =>
    void navigate({
      search: ((prev: Record<string, unknown>) => {
        const kept = Object.fromEntries(Object.entries(prev).filter(([k]) => !FIELDS.some((f) => f.name === k)));
        return { ...kept, ...filtersOf(next as Record<string, unknown>) };
      }) as never,
    });
  const key = JSON.stringify(filters);
  return (
    <Page
      title="Notifications"
      lead="Find the tenant's notifications by code, request, notification or recipient and acceptance time; open one to follow its messages."
    >
      <SearchForm key={`form ${key}`} initial={filters} onSearch={apply} />
      <PagedTable<NotificationRow>
        key={`table ${key}`}
        caption={Object.keys(filters).length === 0 ? 'Latest notifications' : 'Matching notifications'}
        queryKey={['hub', 'notifications', 'search', filters]}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await searchNotifications(filters, Math.floor(offset / limit) + 1, limit, signal);
          return { items: page.Items ?? [], total: page.Total };
        }}
        rowKey={(n) => n.NotificationId ?? ''}
        columns={[
          {
            key: 'id',
            header: 'Notification',
            rowHeader: true,
            cell: (n) => (
              <Link to="/hub/notifications/$id" params={{ id: n.NotificationId ?? '' }} className="hm-id">
                {n.NotificationId}
              </Link>
            ),
          },
          { key: 'code', header: 'Code', cell: (n) => <code>{n.NotificationCode}</code> },
          { key: 'request', header: 'Request ID', cell: (n) => <span className="hm-id">{n.RequestId}</span> },
          { key: 'recipients', header: 'Recipients', cell: (n) => (n.RecipientIds ?? []).join(', ') || '—' },
          { key: 'at', header: 'Accepted', className: 'nowrap', cell: (n) => localTime(n.AcceptedAt) },
        ]}
        empty={
          Object.keys(filters).length === 0
            ? 'No notification accepted yet.'
            : 'No notification matches every filter: clear one to widen the search.'
        }
      />
    </Page>
  );
}

function SearchForm(props: { initial: SearchQuery; onSearch: (q: SearchQuery) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<SearchQuery>(props.initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSearch(draft);
  };
  return (
    <form className="form hm-search" onSubmit={submit} aria-label="Search notifications">
      {FIELDS.map((f) => (
        <div className="field" key={f.name}>
          <label htmlFor={`${id}-${f.name}`} className="field-label">
            {f.label}
          </label>
          {f.hint !== undefined && (
            <p id={`${id}-${f.name}-hint`} className="field-hint">
              {f.hint}
            </p>
          )}
          <input
            id={`${id}-${f.name}`}
            className="input"
            aria-describedby={f.hint !== undefined ? `${id}-${f.name}-hint` : undefined}
            value={draft[f.name] ?? ''}
            onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
          />
        </div>
      ))}
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          Search
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setDraft({});
            props.onSearch({});
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
