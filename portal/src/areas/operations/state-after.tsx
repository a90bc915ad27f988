import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';

/**
 * "State after": the aggregate's state once this event applied, folded by its decider on the server
 * (`platform replay --state`), fetched when first opened; secrets arrive sealed.
 */
export function StateAfter({ stream, revision }: { stream: string; revision: number }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const state = useQuery({
    queryKey: ['operations', 'state', stream, revision],
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) =>
      call(
        api.operations.GET('/ops/v1/streams/{stream}/state', {
          params: { path: { stream }, query: { revision } },
          signal,
        }),
      ),
  });
  return (
    <div className="state-after">
      <button
        type="button"
        className="button button-small"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`${open ? 'Hide state' : 'State after'} ${stream}@${revision}`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Hide state' : 'State after'}
      </button>
      {open && (
        <div id={panel} className="state-after-panel">
          {state.isPending && <p className="state-after-title">Folding the stream…</p>}
          {state.isError && <ApiErrorView error={state.error} title="No state" />}
          {state.data !== undefined && (
            // wrapped, not scrolled: the state is read in place, with the keyboard too
            <>
              <p className="state-after-title">{`After ${state.data.type} (revision ${revision}):`}</p>
              <pre className="state-json">{JSON.stringify(state.data.state, null, 2)}</pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
