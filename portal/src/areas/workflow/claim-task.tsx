import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiError, toApiError } from '../../api/errors.ts';
import { useStatus } from '../../ui/status.tsx';

/** what a claim or unclaim answered: the task's assignee and claim time now (the index may lag behind) */
export type Claimed = { Assignee: string | null; Status: string; ClaimedDate: string | null };

/**
 * Claim (an unclaimed task, for the acting user) or unclaim (naming its assignee, so a stale list cannot
 * release another's claim) from the task list. The answer says the task's state at once; the list keeps it
 * over the search index's copy, which has latency. A refusal goes to `onError`; one that names who holds the
 * task now (a claim taken meanwhile) shows that holder in the row too.
 */
export function ClaimButton(props: {
  taskId: string;
  taskName: string;
  assignee: string | null;
  actingUser: string;
  onChanged: (taskId: string, now: Partial<Claimed>) => void;
  onError: (error: unknown) => void;
}) {
  const { taskId, taskName, assignee, actingUser } = props;
  const client = useQueryClient();
  const notify = useStatus();
  const [busy, setBusy] = useState(false);
  const act = async () => {
    props.onError(null);
    if (assignee === null && actingUser.trim() === '') {
      props.onError(toApiError(400, { code: 'VALIDATION.FAILED', message: 'name the acting user to claim a task' }));
      return;
    }
    setBusy(true);
    try {
      const r =
        assignee === null
          ? await call(
              api.workflow.POST('/workflow/v1/tasks/{taskId}/claim', {
                params: { path: { taskId } },
                body: { assignee: actingUser.trim() },
              }),
            )
          : await call(
              api.workflow.POST('/workflow/v1/tasks/{taskId}/unclaim', {
                params: { path: { taskId } },
                body: { assignee },
              }),
            );
      const t = r.content?.[0];
      props.onChanged(taskId, {
        Assignee: t?.assignee ?? null,
        Status: t?.status ?? '',
        ClaimedDate: t?.claimedDate ?? null,
      });
      notify({
        kind: 'success',
        text: assignee === null ? `Claimed ${taskName} for ${t?.assignee}` : `Unclaimed ${taskName}`,
      });
      await client.invalidateQueries({ queryKey: ['workflow', 'instance'] });
    } catch (err) {
      const holder = err instanceof ApiError ? (err.details as { assignee?: unknown } | null)?.assignee : undefined;
      if (err instanceof ApiError && err.code === 'TASK.CLAIMED_BY_ANOTHER' && typeof holder === 'string')
        props.onChanged(taskId, { Assignee: holder, Status: 'ASSIGNED' });
      props.onError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button" disabled={busy} onClick={() => void act()}>
      {assignee === null ? 'Claim' : 'Unclaim'} {taskName}
    </button>
  );
}
