import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { useStatus } from '../../ui/status.tsx';

/**
 * Complete (and, for a task offered to groups, claim) a task: the acting user's name goes as the request's
 * `assignee`, which claims a CREATED task first; the form's variables go as `controlVariables` (JSON).
 * The input stays when the API refuses it.
 */
export function CompleteTask({ taskId, taskName, onDone }: { taskId: string; taskName: string; onDone: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const notify = useStatus();
  const [assignee, setAssignee] = useState('');
  const [vars, setVars] = useState('{}');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  // the form opens below the list: the focus goes to it, so the keyboard need not travel there
  useEffect(() => first.current?.focus(), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let controlVariables: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(vars || '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      controlVariables = parsed as Record<string, unknown>;
    } catch {
      setError(toApiError(400, { code: 'VALIDATION.FAILED', message: 'the variables are not a JSON object' }));
      return;
    }
    setBusy(true);
    try {
      await call(
        api.workflow.POST('/workflow/v1/tasks/{taskId}/complete', {
          params: { path: { taskId } },
          body: { controlVariables, ...(assignee !== '' && { assignee }) },
        }),
      );
      notify({ kind: 'success', text: `Completed ${taskName}` });
      await client.invalidateQueries({ queryKey: ['workflow'] });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label={`Complete ${taskName}`}>
      <div className="field">
        <label htmlFor={`${id}-as`} className="field-label">
          Claim as (assignee)
        </label>
        <input
          ref={first}
          id={`${id}-as`}
          className="input"
          value={assignee}
          onChange={(e) => setAssignee(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-vars`} className="field-label">
          Form variables (JSON object)
        </label>
        <textarea
          id={`${id}-vars`}
          className="input textarea-code"
          rows={4}
          spellCheck={false}
          value={vars}
          onChange={(e) => setVars(e.target.value)}
        />
      </div>
      {error !== null && <ApiErrorView error={error} title="The completion was refused" />}
      <button type="submit" className="button button-primary" disabled={busy}>
        Complete task
      </button>
    </form>
  );
}
