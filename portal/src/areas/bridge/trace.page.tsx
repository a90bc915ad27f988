import { Link, useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { byTarget, instantOfLocal, OutcomeBadge, outcomeOf, Time } from './ops.shared.tsx';
import { EVENT_KEY, type TraceItem, type TraceSearch, traceFetcher } from './trace-search.ts';

/**
 * A bus's event trace: find events by id (putEvent's, or the producer's with its source) or by a time
 * range of receipt, each with what its rules matched and where its deliveries stand; a row opens the
 * event's whole trace. The bus detail's tab list links here; this page names its bus and leads back.
 */
export function TracePage() {
  const { bus } = useParams({ strict: false }) as { bus: string };
  const [search, setSearch] = useState<TraceSearch>({ eventId: '', source: '', type: '' });
  const [generation, setGeneration] = useState(0);
  const fetchPage = useMemo(() => traceFetcher(bus, search), [bus, search]);

  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/bridge">Event buses</Link>
          </li>
          <li>
            <BusLink bus={bus} />
          </li>
          <li aria-current="page">Event trace</li>
        </ol>
      </nav>
      <Page
        title={`Event trace of ${bus}`}
        lead="Each event's receipt, the rules that matched it and its deliveries. Newest first."
      >
        <SearchForm
          onSearch={(s) => {
            setSearch(s);
            setGeneration((g) => g + 1);
          }}
        />
        <PagedTable<TraceItem>
          key={generation}
          caption={`Events on ${bus}`}
          queryKey={['bridge', 'trace', bus, search]}
          fetchPage={fetchPage}
          pageSize={20}
          rowKey={(t) => t.eventId}
          columns={[
            { key: 'received', header: 'Received', cell: (t) => <Time iso={t.receipt.receivedAt} /> },
            {
              key: 'event',
              header: 'Event',
              rowHeader: true,
              className: 'cell-wrap',
              cell: (t) => (
                <Link to="/bridge/trace/$eventId" params={{ eventId: t.eventId }}>
                  {t.receipt.id}
                </Link>
              ),
            },
            { key: 'source', header: 'Source', cell: (t) => t.receipt.source },
            { key: 'type', header: 'Type', cell: (t) => t.receipt.type },
            {
              key: 'rules',
              header: 'Rules matched',
              cell: (t) => (t.filtering === null ? 'not routed yet' : t.filtering.matched.length),
            },
            { key: 'delivery', header: 'Delivery', cell: (t) => <DeliverySummary trace={t} /> },
          ]}
          empty={
            search.eventId !== '' ? 'No event with this id on the bus.' : 'No events on this bus in this time range.'
          }
        />
      </Page>
    </>
  );
}

/** a link to the bus's detail page */
export function BusLink({ bus }: { bus: string }) {
  return (
    <Link to="/bridge/buses/$bus" params={{ bus }}>
      {bus}
    </Link>
  );
}

function DeliverySummary({ trace }: { trace: TraceItem }) {
  const groups = [...byTarget(trace.delivery).entries()];
  if (groups.length === 0) return <span>{trace.filtering === null ? '' : 'nothing to deliver'}</span>;
  return (
    <span className="badges">
      {groups.map(([key, steps]) => {
        const outcome = outcomeOf(steps[steps.length - 1]!);
        return (
          <OutcomeBadge key={key} outcome={outcome}>
            {`${key.replace('#', ' → target ')}: ${outcome}`}
          </OutcomeBadge>
        );
      })}
    </span>
  );
}

function SearchForm({ onSearch }: { onSearch: (s: TraceSearch) => void }) {
  const id = useId();
  const [v, setV] = useState({ eventId: '', source: '', type: '', from: '', to: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const eventId = v.eventId.trim();
    if (eventId !== '' && !EVENT_KEY.test(eventId) && v.source.trim() === '') {
      setProblem("A producer's event id is found with its source: enter the source too.");
      setTimeout(() => document.getElementById(`${id}-source`)?.focus(), 0);
      return;
    }
    setProblem(null);
    const from = instantOfLocal(v.from);
    const to = instantOfLocal(v.to);
    onSearch({
      eventId,
      source: v.source.trim(),
      type: v.type.trim(),
      ...(from !== undefined && { from }),
      ...(to !== undefined && { to }),
    });
  };
  const field = (k: keyof typeof v, label: string, type = 'text', hint?: string) => (
    <div className={problem !== null && k === 'source' ? 'field field-invalid' : 'field'}>
      <label htmlFor={`${id}-${k}`} className="field-label">
        {label}
      </label>
      <input
        id={`${id}-${k}`}
        className="input"
        type={type}
        step={type === 'datetime-local' ? 1 : undefined}
        value={v[k]}
        onChange={set(k)}
        aria-describedby={hint !== undefined ? `${id}-${k}-hint` : undefined}
        aria-invalid={problem !== null && k === 'source' ? true : undefined}
      />
      {hint !== undefined && (
        <p id={`${id}-${k}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with the search role (the <search> element lacks React's types)
    <form role="search" aria-label="Search the trace" className="search-form" onSubmit={submit} noValidate>
      {field('eventId', 'Event ID', 'search', "putEvent's eventId, or the producer's id with its source")}
      {field('source', 'Source')}
      {field('type', 'Type')}
      {field('from', 'Received from', 'datetime-local', 'your local time, inclusive')}
      {field('to', 'Received before', 'datetime-local', 'your local time, exclusive')}
      {problem !== null && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          Search
        </button>
      </div>
    </form>
  );
}
