import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { paths } from '../../api/schema/workflow.d.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { listDefinitions } from './workflow-api.ts';
import './workflow.css';

type Query = NonNullable<paths['/workflow/v1/process-instances']['get']['parameters']['query']>;
type State = NonNullable<Query['state']>;
const STATES: ReadonlyArray<State> = ['ACTIVE', 'COMPLETED', 'TERMINATED'];
type Asked = { key: string; businessKey: string; state: State | '' };

const captionOf = (a: Asked) =>
  a.businessKey !== ''
    ? `Instances of ${a.businessKey}`
    : `${a.state === '' ? 'All' : a.state} instances${a.key === '' ? '' : ` of ${a.key}`}`;

/**
 * The tenant's process instances, newest first, paged by the API (`GET /process-instances`): any state or
 * one, narrowed by definition key and business key; each opens its diagram and history.
 */
export function InstancesPage() {
  const id = useId();
  const defs = useQuery({
    queryKey: ['workflow', 'definitions', 'all'],
    queryFn: ({ signal }) => listDefinitions(signal),
  });
  const [draft, setDraft] = useState<Asked>({ key: '', businessKey: '', state: '' });
  const [asked, setAsked] = useState<Asked>(draft);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked({ ...draft, businessKey: draft.businessKey.trim() });
  };
  const query = (a: Asked): Query => ({
    ...(a.state !== '' && { state: a.state }),
    ...(a.key !== '' && { processDefinitionKey: a.key }),
    ...(a.businessKey !== '' && { businessKey: a.businessKey }),
  });
  return (
    <Page
      title="Process instances"
      lead="The tenant's instances, newest first: pick a state, a definition or a business key, then open one to see its diagram and history."
    >
      <form className="form wf-search" onSubmit={submit} aria-label="Find instances">
        <div className="field">
          <label htmlFor={`${id}-state`} className="field-label">
            State
          </label>
          <select
            id={`${id}-state`}
            className="input"
            value={draft.state}
            onChange={(e) => setDraft({ ...draft, state: e.target.value as State | '' })}
          >
            <option value="">Any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
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
            <option value="">Any</option>
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
            value={draft.businessKey}
            onChange={(e) => setDraft({ ...draft, businessKey: e.target.value })}
          />
        </div>
        <button type="submit" className="button button-primary">
          Find
        </button>
      </form>
      <PagedTable
        caption={captionOf(asked)}
        queryKey={['workflow', 'instances', asked]}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.workflow.GET('/workflow/v1/process-instances', {
              params: { query: { ...query(asked), offset, limit } },
              signal,
            }),
          );
          return { items: page.items ?? [], total: page.total ?? 0 };
        }}
        rowKey={(i) => i.id ?? ''}
        columns={[
          {
            key: 'id',
            header: 'Instance',
            rowHeader: true,
            cell: (i) => (
              <Link to="/workflow/instances/$id" params={{ id: i.id ?? '' }}>
                {i.id}
              </Link>
            ),
          },
          { key: 'key', header: 'Definition', cell: (i) => `${i.processDefinitionKey} v${i.processDefinitionVersion}` },
          { key: 'bk', header: 'Business key', cell: (i) => i.businessKey },
          { key: 'state', header: 'State', cell: (i) => i.state },
          { key: 'started', header: 'Started', className: 'wf-date', cell: (i) => i.startedDate },
          { key: 'ended', header: 'Ended', className: 'wf-date', cell: (i) => i.endedDate ?? '' },
        ]}
        empty="No instance matches."
      />
    </Page>
  );
}
