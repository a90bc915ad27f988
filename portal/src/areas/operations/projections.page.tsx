import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { Page } from '../../shell/page.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { type ProjectionRow, positionNumber, REFRESH_MS } from './operations.types.ts';
import { RebuildProgress } from './rebuild-progress.tsx';
import '../../styles/operations.css';

const KEY = ['operations', 'projections'] as const;

/**
 * The platform's projections (what `platform projections` prints), read again every few seconds; each
 * with its parked events and a Rebuild, whose progress shows below the table until it is dismissed.
 */
export function ProjectionsPage() {
  const queryClient = useQueryClient();
  const notify = useStatus();
  const [pending, setPending] = useState<string | null>(null);
  const [watching, setWatching] = useState<Array<{ id: string; projection: string }>>([]);
  const [rows, setRows] = useState<ProjectionRow[]>([]);

  useEffect(() => {
    const t = setInterval(() => void queryClient.invalidateQueries({ queryKey: KEY }), REFRESH_MS);
    return () => clearInterval(t);
  }, [queryClient]);

  const rebuild = useMutation({
    mutationFn: (name: string) =>
      call(api.operations.POST('/ops/v1/projections/{name}/rebuild', { params: { path: { name } } })),
    onSuccess: (r) => {
      setPending(null);
      setWatching((w) => [...w.filter((x) => x.projection !== r.projection), { id: r.id, projection: r.projection }]);
      notify({ kind: 'info', text: `Rebuild of ${r.projection} started` });
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (err) => {
      setPending(null);
      notify({ kind: 'error', text: isApiError(err) ? `${err.code}: ${err.message}` : String(err) });
    },
  });

  // rebuilds started elsewhere (another operator, another tab) show their progress too
  const running = rows
    .filter((p) => p.rebuild?.state === 'running' && !watching.some((w) => w.id === p.rebuild?.id))
    .map((p) => ({ id: p.rebuild!.id, projection: p.name }));
  const shown = [...watching, ...running];
  const busy = (p: ProjectionRow) => p.state === 'rebuilding' || p.rebuild?.state === 'running';

  return (
    <Page
      title="Projections"
      lead="The read models built from the event log: how far each has read, how far behind the log's head it is, and the events it could not apply."
    >
      <div className="rebuilds">
        {shown.map((w) => (
          <RebuildProgress
            key={w.id}
            id={w.id}
            projection={w.projection}
            onDismiss={() => setWatching((ws) => ws.filter((x) => x.id !== w.id))}
          />
        ))}
      </div>
      <PagedTable<ProjectionRow>
        caption="Projections"
        captionHidden
        queryKey={KEY}
        paging="none"
        fetchPage={async (_request, signal) => {
          const items = (await call(api.operations.GET('/ops/v1/projections', { signal }))).items;
          setRows(items);
          return { items };
        }}
        rowKey={(p) => p.name}
        columns={[
          {
            key: 'name',
            header: 'Projection',
            rowHeader: true,
            className: 'nowrap',
            cell: (p) => <code>{p.name}</code>,
          },
          { key: 'version', header: 'Version', className: 'num', cell: (p) => p.version },
          { key: 'generation', header: 'Generation', className: 'num', cell: (p) => p.generation },
          { key: 'position', header: 'Position', className: 'num', cell: (p) => positionNumber(p.position) },
          { key: 'lag', header: 'Lag', className: 'num', cell: (p) => p.lag.toLocaleString('en') },
          {
            key: 'parked',
            header: 'Parked',
            className: 'num',
            cell: (p) => (
              <Link
                to="/operations/projections/$name"
                params={{ name: p.name }}
                aria-label={`${p.parked} parked events of ${p.name}`}
              >
                {p.parked}
              </Link>
            ),
          },
          {
            key: 'state',
            header: 'State',
            cell: (p) => (
              <span className={`state state-${p.state}`} title={p.lastError ?? undefined}>
                {p.state}
              </span>
            ),
          },
          {
            key: 'actions',
            header: 'Actions',
            cell: (p) => (
              <button
                type="button"
                className="button button-small"
                aria-label={`Rebuild ${p.name}`}
                disabled={busy(p) || rebuild.isPending}
                onClick={() => setPending(p.name)}
              >
                Rebuild
              </button>
            ),
          },
        ]}
        empty="No projections."
      />
      {pending !== null && (
        <ConfirmDialog
          title={`Rebuild ${pending}?`}
          confirmLabel="Rebuild"
          busy={rebuild.isPending}
          onCancel={() => setPending(null)}
          onConfirm={() => rebuild.mutate(pending)}
        >
          <p>
            A new generation is built from the start of the log beside the live one, which keeps serving until the new
            one has caught up; then readers switch to it at once.
          </p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
