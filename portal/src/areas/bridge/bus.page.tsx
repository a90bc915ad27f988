import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, type Bus } from './bridge-api.ts';
import { updateCachedLists } from './list-cache.ts';
import { RulesTable } from './rules-table.tsx';
import { SourcesSection } from './sources.section.tsx';
import './bridge.css';

/**
 * One bus: what it is, its event sources and its rules, and the tabs to its other views (the event
 * trace). A custom bus is its tenant's to change and delete; platform and baseline buses are the platform
 * administrators' (others are not offered the changes the API would refuse).
 */
export function BusPage() {
  const { bus } = useParams({ strict: false }) as { bus: string };
  const session = useQuery(sessionQuery).data;
  const query = useQuery({
    queryKey: ['bridge', 'bus', bus],
    queryFn: ({ signal }) => call(api.bridge.GET(`${ADMIN}/buses/{bus}`, { params: { path: { bus } }, signal })),
  });
  const b = query.data;
  const canChange = b !== undefined && (b.kind === 'custom' || session?.platformAdmin === true);
  return (
    <Page
      title={`Bus ${bus}`}
      lead={b === undefined ? '\u00a0' : (b.description ?? `A ${b.kind} bus of ${b.tenant}.`)}
      actions={canChange && <DeleteBus bus={bus} />}
    >
      <nav aria-label="Bus views" className="tabs">
        <ul>
          <li>
            <Link to="/bridge/buses/$bus" params={{ bus }} aria-current="page" className="tab tab-current">
              Overview
            </Link>
          </li>
          <li>
            <Link to="/bridge/buses/$bus/trace" params={{ bus }} className="tab">
              Event Trace
            </Link>
          </li>
        </ul>
      </nav>
      {query.error !== null && <ApiErrorView error={query.error} onRetry={() => void query.refetch()} />}
      <dl className="facts">
        <div>
          <dt>Kind</dt>
          <dd>{b?.kind ?? '…'}</dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>{b?.tenant ?? '…'}</dd>
        </div>
      </dl>
      {b !== undefined && <SourcesSection bus={bus} canChange={canChange} />}
      <section className="section" aria-labelledby="rules-title">
        <div className="section-head">
          <h2 id="rules-title">Rules</h2>
          <Link to="/bridge/buses/$bus/rules/new" params={{ bus }} className="button button-primary">
            New rule
          </Link>
        </div>
        <RulesTable bus={bus} caption={`Rules of ${bus}`} captionHidden />
      </section>
    </Page>
  );
}

function DeleteBus({ bus }: { bus: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useStatus();
  const remove = async () => {
    setBusy(true);
    try {
      await call(api.bridge.DELETE(`${ADMIN}/buses/{bus}`, { params: { path: { bus } } }));
      notify({ kind: 'success', text: `Bus ${bus} deleted` });
      updateCachedLists<Bus>(queryClient, ['bridge', 'buses'], (items) => items.filter((b) => b.name !== bus));
      await navigate({ to: '/bridge' });
    } catch (e) {
      setError(e);
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
        Delete bus
      </button>
      {error !== null && <ApiErrorView error={error} title="Not deleted" />}
      {asking && (
        <ConfirmDialog
          title={`Delete bus ${bus}?`}
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        >
          Events published to it are refused afterwards.
        </ConfirmDialog>
      )}
    </>
  );
}
