import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { getJson, type Instance, listDefinitions, type Task } from './workflow-api.ts';
import './workflow.css';

const STATES = ['', 'ACTIVE', 'COMPLETED', 'TERMINATED'] as const;

/** the instances of a business key: those its tasks (completed ones included) belong to, each read */
async function instancesOf(key: string, businessKey: string, signal: AbortSignal): Promise<Instance[]> {
  const q = new URLSearchParams({
    processDefinitionKey: key,
    workflowBusinessKey: businessKey,
    includeCompleted: 'true',
  });
  const tasks = await getJson<{ content: Task[] }>(`/tasks/byBusinessKey?${q}`, signal);
  const ids = [...new Set(tasks.content.map((t) => t.processInstanceId))];
  return Promise.all(ids.map((id) => getJson<Instance>(`/process-instances/${encodeURIComponent(id)}`, signal)));
}

/**
 * Process instances by definition key and business key (the API finds instances through their tasks),
 * then narrowed by state here: the API lists no instances by state.
 */
export function InstancesPage() {
  const id = useId();
  const defs = useQuery({
    queryKey: ['workflow', 'definitions', 'all'],
    queryFn: ({ signal }) => listDefinitions(signal),
  });
  const [draft, setDraft] = useState({ key: '', businessKey: '', state: '' });
  const [asked, setAsked] = useState<{ key: string; businessKey: string } | null>(null);
  const found = useQuery({
    queryKey: ['workflow', 'instances', asked],
    queryFn: ({ signal }) => instancesOf(asked!.key, asked!.businessKey, signal),
    enabled: asked !== null,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked({ key: draft.key || (defs.data?.[0]?.key ?? ''), businessKey: draft.businessKey });
  };
  const shown = (found.data ?? []).filter((i) => draft.state === '' || i.state === draft.state);
  return (
    <Page
      title="Process instances"
      lead="Find a business key's instances, then open one to see its diagram and history."
    >
      <form className="form wf-search" onSubmit={submit} aria-label="Find instances">
        <div className="field">
          <label htmlFor={`${id}-key`} className="field-label">
            Process definition
          </label>
          <select
            id={`${id}-key`}
            className="input"
            value={draft.key}
            onChange={(e) => setDraft({ ...draft, key: e.target.value })}
          >
            {(defs.data ?? []).map((d) => (
              <option key={d.key} value={d.key}>
                {d.key}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-bk`} className="field-label">
            Business key
          </label>
          <input
            id={`${id}-bk`}
            className="input"
            required
            value={draft.businessKey}
            onChange={(e) => setDraft({ ...draft, businessKey: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-state`} className="field-label">
            State
          </label>
          <select
            id={`${id}-state`}
            className="input"
            value={draft.state}
            onChange={(e) => setDraft({ ...draft, state: e.target.value })}
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s === '' ? 'Any' : s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          Find
        </button>
      </form>
      {found.isError && <ApiErrorView error={found.error} title="The search was refused" />}
      {asked !== null && found.isSuccess && shown.length === 0 && <p>No instance of this business key.</p>}
      {shown.length > 0 && (
        <ScrollRegion label={`Instances of ${asked?.businessKey ?? ''}`}>
          <table className="table">
            <caption>Instances of {asked?.businessKey}</caption>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Version</th>
                <th scope="col">State</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((i) => (
                <tr key={i.id}>
                  <th scope="row">
                    <Link to="/workflow/instances/$id" params={{ id: i.id }}>
                      {i.id}
                    </Link>
                  </th>
                  <td className="num">{i.processDefinitionVersion}</td>
                  <td>{i.state}</td>
                  <td className="nowrap">{i.startedDate}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Page>
  );
}
