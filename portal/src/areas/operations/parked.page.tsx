import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { type ParkedRow, positionNumber } from './operations.types.ts';
import '../../styles/operations.css';

/**
 * A projection's parked events (the events it could not apply, with the error), a page at a time, and
 * Retry: they are applied again, and those that apply leave the list (`platform projections retry`).
 */
export function ParkedPage() {
  const { name } = useParams({ strict: false }) as { name: string };
  const queryClient = useQueryClient();
  const notify = useStatus();
  const [confirming, setConfirming] = useState(false);
  const key = ['operations', 'parked', name];

  const retry = useMutation({
    mutationFn: () => call(api.operations.POST('/ops/v1/projections/{name}/retry', { params: { path: { name } } })),
    onSuccess: (r) => {
      setConfirming(false);
      notify({
        kind: r.failed > 0 ? 'error' : 'success',
        text: `${r.applied} parked event(s) applied, ${r.failed} still failing`,
      });
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['operations', 'projections'] });
    },
    onError: () => setConfirming(false),
  });

  return (
    <Page
      title={`Parked events of ${name}`}
      lead={
        <>
          Events this projection could not apply: it moved past them. Retry applies them again after a fix; a rebuild is
          the way to be sure the read model is as the log says.{' '}
          <Link to="/operations/projections">All projections</Link>
        </>
      }
      actions={
        <button type="button" className="button button-primary" onClick={() => setConfirming(true)}>
          Retry parked events
        </button>
      }
    >
      {retry.isError && <ApiErrorView error={retry.error} title="The retry was refused" />}
      <PagedTable<ParkedRow>
        caption={`Parked events of ${name}`}
        captionHidden
        queryKey={key}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.operations.GET('/ops/v1/projections/{name}/parked', {
              params: { path: { name }, query: { offset, limit } },
              signal,
            }),
          );
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(p) => p.id}
        columns={[
          {
            key: 'position',
            header: 'Position',
            rowHeader: true,
            className: 'num',
            cell: (p) => positionNumber(p.position),
          },
          { key: 'error', header: 'Error', className: 'wrap', cell: (p) => p.error },
          {
            key: 'event',
            header: 'Event',
            className: 'nowrap',
            cell: (p) => (
              <>
                <code>{p.type}</code> in <code>{`${p.stream}@${p.revision}`}</code>
              </>
            ),
          },
          { key: 'parkedAt', header: 'Parked', cell: (p) => new Date(p.parkedAt).toLocaleString('en') },
          { key: 'retries', header: 'Retries', className: 'num', cell: (p) => p.retries },
        ]}
        empty="No parked events: every event applied."
      />
      {confirming && (
        <ConfirmDialog
          title={`Retry the parked events of ${name}?`}
          confirmLabel="Retry"
          busy={retry.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => retry.mutate()}
        >
          <p>Each is applied again to the live generation, in log order. Those that fail again stay here.</p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
