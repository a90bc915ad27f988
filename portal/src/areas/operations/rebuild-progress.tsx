import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { duration } from './operations.types.ts';

/**
 * A rebuild's progress, read every second while it runs: a progress bar (role=progressbar, its value the
 * percentage of the log covered), the rate and the time left; then its outcome (switched or failed).
 */
export function RebuildProgress({
  id,
  projection,
  onDismiss,
}: {
  id: string;
  projection: string;
  onDismiss?: () => void;
}) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['operations', 'rebuild', id],
    queryFn: ({ signal }) => call(api.operations.GET('/ops/v1/rebuilds/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (q) => (q.state.data === undefined || q.state.data.state === 'running' ? 1000 : false),
  });
  const r = query.data;
  const finished = r !== undefined && r.state !== 'running';
  // the projection's generation moves at the switch: the table reads it again
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: ['operations', 'projections'] });
  }, [finished, queryClient]);

  const percent = r?.progress.percent ?? 0;
  let outcome = 'Starting…';
  if (r !== undefined) {
    switch (r.state) {
      case 'running':
        outcome = 'Building the new generation; the live one serves until the switch.';
        break;
      case 'switched':
        outcome = `Switched: generation ${r.generation ?? '?'} serves now.`;
        break;
      case 'failed':
        outcome = `Failed: ${r.error ?? 'unknown error'}. The live generation still serves.`;
        break;
      default:
        outcome = r.state satisfies never;
    }
  }
  return (
    <section className={`card rebuild rebuild-${r?.state ?? 'running'}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Rebuild of <code>{projection}</code>
      </h2>
      <div
        className="progress"
        role="progressbar"
        aria-labelledby={titleId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %`}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="rebuild-figures">
        <span>{percent} %</span>
        <span>
          {(r?.progress.done ?? 0).toLocaleString('en')} / {(r?.progress.total ?? 0).toLocaleString('en')} positions
        </span>
        <span>{(r?.progress.rate ?? 0).toLocaleString('en')} events/s</span>
        <span>ETA {r?.progress.etaSeconds == null ? '–' : duration(r.progress.etaSeconds)}</span>
      </p>
      <p className="rebuild-outcome" role="status">
        {outcome}
      </p>
      {query.isError && <ApiErrorView error={query.error} title="The rebuild's progress could not be read" />}
      {finished && onDismiss !== undefined && (
        <button type="button" className="button button-small" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </section>
  );
}
