import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, Time } from './ops.shared.tsx';

export type DeadLetter = {
  deliveryId: string;
  ruleId: string;
  targetId: number;
  typeId: number;
  errorClass: string;
  eventId: string;
  source: string;
  type: string;
  sourceEventId: string;
  deadLetteredAt: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
};

type RedriveResult = { redriven: string[]; skipped: string[] };

/**
 * The tenant's dead letters across its rules and targets, oldest first, a page at a time; tick some (on
 * any page) and redrive them at once, after a confirmation; the answer says which went and which were
 * skipped (no longer dead letters).
 */
export function DeadLettersPage() {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Map<string, DeadLetter>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RedriveResult | null>(null);
  const [error, setError] = useState<unknown>(null);

  const toggle = (d: DeadLetter) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(d.deliveryId)) next.delete(d.deliveryId);
      else next.set(d.deliveryId, d);
      return next;
    });

  const redrive = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await call(
        api.bridge.POST(`${ADMIN}/dead-letters/redrive`, { body: { deliveryIds: [...selected.keys()] } }),
      );
      const answer = { redriven: r.redriven ?? [], skipped: r.skipped ?? [] };
      setResult(answer);
      setSelected(new Map());
      notify({ kind: 'success', text: `${answer.redriven.length} dead letters redriven` });
      // the list is a read model: the redriven letters leave it once projected
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['bridge', 'dead-letters'] }), 500);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <Page
      title="Dead letters"
      lead="Deliveries whose retries are over, kept for a rule target that records dead letters. Redrive sends them again."
    >
      {result !== null && (
        <div className="result-panel" role="status">
          <p>
            Redriven: {result.redriven.length}. Skipped (no longer dead letters): {result.skipped.length}.
          </p>
          <button type="button" className="button button-small" onClick={() => setResult(null)}>
            Dismiss
          </button>
        </div>
      )}
      {error !== null && <ApiErrorView error={error} title="Not redriven" />}
      <PagedTable<DeadLetter>
        caption="Dead letters"
        captionHidden
        queryKey={['bridge', 'dead-letters']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.bridge.GET(`${ADMIN}/dead-letters`, { params: { query: { offset, limit } }, signal }),
          );
          return {
            items: (page.items ?? []) as unknown as DeadLetter[],
            ...(page.total !== undefined && { total: page.total }),
          };
        }}
        rowKey={(d) => d.deliveryId}
        toolbar={
          <div className="inline-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={selected.size === 0}
              onClick={() => setConfirming(true)}
            >
              Redrive selected ({selected.size})
            </button>
            {selected.size > 0 && (
              <button type="button" className="button" onClick={() => setSelected(new Map())}>
                Clear selection
              </button>
            )}
            <button
              type="button"
              className="button"
              onClick={() => void queryClient.invalidateQueries({ queryKey: ['bridge', 'dead-letters'] })}
            >
              Refresh
            </button>
          </div>
        }
        columns={[
          {
            key: 'select',
            header: 'Select',
            cell: (d) => (
              <input
                type="checkbox"
                checked={selected.has(d.deliveryId)}
                onChange={() => toggle(d)}
                aria-label={`Select the dead letter of ${d.sourceEventId} for ${d.ruleId} target ${d.targetId}`}
              />
            ),
          },
          { key: 'at', header: 'Dead-lettered', cell: (d) => <Time iso={d.deadLetteredAt} /> },
          {
            key: 'event',
            header: 'Event',
            rowHeader: true,
            className: 'cell-wrap',
            cell: (d) => (
              <Link
                to="/bridge/dead-letters/$ruleId/$targetId/$deliveryId"
                params={{ ruleId: d.ruleId, targetId: String(d.targetId), deliveryId: d.deliveryId }}
              >
                {d.sourceEventId}
              </Link>
            ),
          },
          { key: 'rule', header: 'Rule → target', cell: (d) => `${d.ruleId} → ${d.targetId}` },
          { key: 'type', header: 'Event type', cell: (d) => d.type },
          { key: 'class', header: 'Error class', cell: (d) => d.errorClass },
          { key: 'error', header: 'Last error', className: 'cell-wrap', cell: (d) => d.lastError },
          { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts },
        ]}
        empty="No dead letters."
      />
      {confirming && (
        <ConfirmDialog
          title={`Redrive ${selected.size} dead letters?`}
          confirmLabel="Redrive"
          busy={busy}
          onConfirm={() => void redrive()}
          onCancel={() => setConfirming(false)}
        >
          <p>Each gets a new round of attempts with the same delivery id (receivers can tell a repeat).</p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
