import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { WORKFLOW_ADMIN_SCOPE } from '../../../../domain/workflow/workflow.scopes.ts';
import { api, call, type RequestBody } from '../../api/client.ts';
import type { paths } from '../../api/schema/workflow.d.ts';
import { hasScopes, sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { ClaimButton, type Claimed } from './claim-task.tsx';
import { CompleteTask } from './complete-task.tsx';
import { getJson } from './workflow-api.ts';
import './workflow.css';

type Search = RequestBody<paths, '/workflow/v1/tasks', 'post'>;
type Doc = Record<string, unknown>;
type Group = { groupValue: unknown; groupTotalNum: number; esDocs: Doc[]; innerDocs: Doc[] };
type Result = { total: number; results: Group[] };

/** fields of every task index (the spec's minimum fields); business fields are typed by name */
const FIELDS = [
  'TaskName',
  'Status',
  'Assignee',
  'TaskType',
  'WorkflowBusinessKey',
  'TaskDefinitionKey',
  'ProcessInstanceId',
];

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * The task list: a search over a task index (the API's Module) with a text searched in every INCLUDE_ALL
 * field, one exact field condition and an optional grouping; each open task can be claimed for the acting
 * user (default: the signed-in user's name), unclaimed, and completed with its form's variables.
 */
export function TasksPage() {
  const id = useId();
  const [draft, setDraft] = useState({ module: 'default', all: '', field: '', value: '', group: '' });
  const [asked, setAsked] = useState(draft);
  const [completing, setCompleting] = useState<{ id: string; name: string } | null>(null);
  const session = useQuery(sessionQuery).data;
  const [actingUser, setActingUser] = useState<string | null>(null);
  const acting = actingUser ?? session?.user?.username ?? '';
  // what claims answered, over the index's copy until a new search
  const [claimed, setClaimed] = useState<Record<string, Partial<Claimed>>>({});
  const [claimError, setClaimError] = useState<unknown>(null);
  // the index's own fields (its schema is readable with workflow:admin); else the spec's minimum fields
  const schema = useQuery({
    queryKey: ['workflow', 'index-schema', asked.module],
    queryFn: ({ signal }) =>
      getJson<{ fields: Array<{ name: string }> }>(`/admin/index-schemas/${encodeURIComponent(asked.module)}`, signal),
    enabled: hasScopes(session, [WORKFLOW_ADMIN_SCOPE]) && asked.module !== '',
    retry: false,
  });
  const fields = schema.data?.fields.map((f) => f.name) ?? FIELDS;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setClaimed({});
    setClaimError(null);
    setAsked(draft);
  };
  const body = (pageNo: number, pageSize: number): Search => ({
    Module: asked.module || 'default',
    PageNo: pageNo,
    PageSize: pageSize,
    ...(asked.all !== '' && { FuzzyConditions: { _all: asked.all } }),
    ...(asked.field !== '' && asked.value !== '' && { Conditions: { [asked.field]: asked.value } }),
    ...(asked.group !== '' && { GroupField: asked.group }),
  });
  const now = (doc: Doc): Doc => ({ ...doc, ...claimed[text(doc.TaskId)] });
  const open = (status: unknown) => status === 'CREATED' || status === 'ASSIGNED';
  const completeButton = (doc: Doc) => {
    const taskId = text(doc.TaskId);
    return (
      <button
        type="button"
        className="button"
        aria-expanded={completing?.id === taskId}
        onClick={() =>
          setCompleting(completing?.id === taskId ? null : { id: taskId, name: text(doc.TaskName) || taskId })
        }
      >
        Complete {text(doc.TaskName)}
      </button>
    );
  };
  const field = (name: keyof typeof draft, label: string, list?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`} className="field-label">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="input"
        list={list}
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </div>
  );
  return (
    <Page title="Tasks" lead="Search a task index; claim, unclaim, or complete a task with its form's variables.">
      <form className="form wf-search" onSubmit={submit} aria-label="Search tasks">
        {field('module', 'Task index')}
        {field('all', 'Text (any field)')}
        {field('field', 'Field', `${id}-fields`)}
        {field('value', 'Equals')}
        {field('group', 'Group by', `${id}-fields`)}
        <datalist id={`${id}-fields`}>
          {fields.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
      <div className="field wf-acting">
        <label htmlFor={`${id}-acting`} className="field-label">
          Acting user (claims for)
        </label>
        <input id={`${id}-acting`} className="input" value={acting} onChange={(e) => setActingUser(e.target.value)} />
      </div>
      {claimError !== null && <ApiErrorView error={claimError} title="The claim was refused" />}
      <PagedTable<{ group: Group; doc: Doc }>
        caption="Tasks"
        queryKey={['workflow', 'tasks', asked]}
        fetchPage={async ({ offset, limit }, signal) => {
          const r = (await call(
            api.workflow.POST('/workflow/v1/tasks', { body: body(Math.floor(offset / limit) + 1, limit), signal }),
          )) as unknown as Result;
          const items = r.results.flatMap((g) => [...g.esDocs, ...g.innerDocs].map((doc) => ({ group: g, doc })));
          return { items, total: r.total };
        }}
        rowKey={(r) => text(r.doc.TaskId)}
        columns={[
          { key: 'name', header: 'Task', rowHeader: true, cell: (r) => text(r.doc.TaskName) },
          ...(asked.group !== ''
            ? [{ key: 'group', header: asked.group, cell: (r: { group: Group }) => text(r.group.groupValue) }]
            : []),
          { key: 'status', header: 'Status', cell: (r) => text(now(r.doc).Status) },
          { key: 'assignee', header: 'Assignee', cell: (r) => text(now(r.doc).Assignee) },
          { key: 'claimed', header: 'Claimed', className: 'wf-date', cell: (r) => text(now(r.doc).ClaimedDate) },
          { key: 'bk', header: 'Business key', cell: (r) => text(r.doc.WorkflowBusinessKey) },
          {
            key: 'act',
            header: 'Actions',
            cell: (r) =>
              open(now(r.doc).Status) ? (
                <div className="wf-actions">
                  <ClaimButton
                    taskId={text(r.doc.TaskId)}
                    taskName={text(r.doc.TaskName) || text(r.doc.TaskId)}
                    assignee={text(now(r.doc).Assignee) === '' ? null : text(now(r.doc).Assignee)}
                    actingUser={acting}
                    onChanged={(taskId, c) => setClaimed((m) => ({ ...m, [taskId]: { ...m[taskId], ...c } }))}
                    onError={setClaimError}
                  />
                  {completeButton(r.doc)}
                </div>
              ) : null,
          },
        ]}
        empty="No task matches."
      />
      {completing !== null && (
        <section aria-label="Complete the task">
          <h2>Complete {completing.name}</h2>
          <p>
            Task <code>{completing.id}</code>
          </p>
          <CompleteTask
            key={completing.id}
            taskId={completing.id}
            taskName={completing.name}
            onDone={() => {
              setClaimed({});
              setCompleting(null);
            }}
          />
        </section>
      )}
    </Page>
  );
}
