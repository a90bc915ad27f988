import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, type PlatformRule } from './bridge-api.ts';
import { updateCachedLists } from './list-cache.ts';
import { typeOf } from './target-types.ts';
import './bridge.css';

/**
 * The platform's rules as this tenant sees them (what they match and which kinds of target they feed,
 * not their parameters), each with the tenant's opt-out: an opted-out rule skips this tenant's events.
 */
export function PlatformRulesPage() {
  const queryClient = useQueryClient();
  const notify = useStatus();
  const [asking, setAsking] = useState<PlatformRule | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const toggle = async (r: PlatformRule) => {
    const id = r.id ?? '';
    setBusy(true);
    setError(null);
    try {
      if (r.optedOut) await call(api.bridge.POST(`${ADMIN}/platform-rules/{id}/opt-in`, { params: { path: { id } } }));
      else await call(api.bridge.POST(`${ADMIN}/platform-rules/{id}/opt-out`, { params: { path: { id } } }));
      notify({ kind: 'success', text: r.optedOut ? `Opted in to ${r.name}` : `Opted out of ${r.name}` });
      const optedOut = !r.optedOut;
      updateCachedLists<PlatformRule>(queryClient, ['bridge', 'platform-rules'], (items) =>
        items.map((x) =>
          x.id === id ? { ...x, optedOut, optedOutSince: optedOut ? new Date().toISOString() : null } : x,
        ),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };
  return (
    <Page
      title="Platform rules"
      lead="Rules the platform applies to your events on its buses. Opt out of one to have it skip your events."
    >
      {error !== null && <ApiErrorView error={error} title="Not changed" />}
      <PagedTable<PlatformRule>
        caption="Platform rules"
        captionHidden
        queryKey={['bridge', 'platform-rules']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.bridge.GET(`${ADMIN}/platform-rules`, { params: { query: { offset, limit } }, signal }),
          );
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(r) => r.id ?? ''}
        columns={[
          { key: 'name', header: 'Rule', rowHeader: true, cell: (r) => r.name },
          { key: 'bus', header: 'Bus', cell: (r) => r.bus },
          {
            key: 'pattern',
            header: 'Pattern',
            cell: (r) => <code className="pattern-cell">{JSON.stringify(r.pattern)}</code>,
          },
          {
            key: 'targets',
            header: 'Targets',
            cell: (r) => (r.targets ?? []).map((t) => typeOf(Number(t.typeId)).label).join(', '),
          },
          {
            key: 'state',
            header: 'For your tenant',
            cell: (r) =>
              r.optedOut ? `Opted out${r.optedOutSince ? ` since ${r.optedOutSince.slice(0, 10)}` : ''}` : 'Applies',
          },
          {
            key: 'action',
            header: 'Actions',
            cell: (r) => (
              <button
                type="button"
                className="button button-small"
                disabled={busy}
                onClick={() => (r.optedOut ? void toggle(r) : setAsking(r))}
              >
                {r.optedOut ? `Opt in to ${r.name}` : `Opt out of ${r.name}`}
              </button>
            ),
          },
        ]}
        empty="The platform has no rules."
      />
      {asking !== null && (
        <ConfirmDialog
          title={`Opt out of ${asking.name}?`}
          confirmLabel="Opt out"
          busy={busy}
          onConfirm={() => void toggle(asking)}
          onCancel={() => setAsking(null)}
        >
          The platform rule stops applying to your events until you opt in again.
        </ConfirmDialog>
      )}
    </Page>
  );
}
