import { dueIndex } from '../../domain/core/due-index.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { InstanceEvent, Task, TaskContext } from '../../domain/workflow/engine/instance.events.ts';
import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import {
  DEFAULT_INDEX,
  INDEX_SCHEMA_CATEGORY,
  type IndexField,
  type IndexSchemaEvent,
} from '../../domain/workflow/index-schema.decider.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';
import { type SearchDoc, searchDocOf, searchIndexes } from './search-doc.ts';
import { OPEN_STATUSES, type TaskDoc } from './task-doc.ts';
import { searchPartition, tenantPartition } from './workflow-partitions.ts';

/**
 * Tasks, per tenant: `tasks` (every task with its instance's identity and query variables: the
 * by-business-key view), `indexes` (each search index's schema and the generation searches read), `search`
 * (one collection per tenant, index and generation: the documents of the spec's task search, with a
 * read-store index per field of the index schema), and `jobs` (index rebuilds due: work-engine items).
 *
 * An index schema change does not touch the live search collection: it records the next generation as
 * `building` and a job; the job (index-rebuild.ts) fills the new generation from the task documents and
 * switches the index to it in one transaction, so searches answer from the old generation until then.
 */
export const TASKS_PROJECTION = 'workflow.tasks';

export type IndexState = {
  id: string;
  fields: IndexField[];
  revision: number;
  /** the generation searches read */
  generation: number;
  /** a changed schema being built into the next generation */
  building?: { revision: number; fields: IndexField[]; generation: number };
};
/** a due index rebuild: a work-engine item (commands/core/work-engine.ts DueItem: `dueAt`, `leaseUntil`) */
export type IndexJob = {
  id: string;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
  tenant: string;
  index: string;
  generation: number;
  revision: number;
};

export const defaultIndexState = (name: string): IndexState => ({ id: name, fields: [], revision: 0, generation: 1 });

type Store = ProjectionStore;
export const tasksOf = (store: Store, tenant: string) => store.collection<TaskDoc>('tasks', tenantPartition(tenant));
export const indexesOf = (store: Store, tenant: string) =>
  store.collection<IndexState>('indexes', tenantPartition(tenant));
export const jobsOf = (store: Store) => store.collection<IndexJob>('jobs');

const fromCreated = (task: Task, ctx: TaskContext, pos: string): TaskDoc => ({
  id: task.id,
  instanceId: task.instanceId,
  rootInstanceId: ctx.rootInstanceId,
  processDefinitionId: ctx.processDefinitionId,
  processKey: ctx.processKey,
  version: ctx.version,
  businessKey: ctx.businessKey,
  taskDefinitionKey: task.elementId,
  name: task.name ?? null,
  status: task.status,
  assignee: task.assignee ?? null,
  owner: task.owner ?? null,
  candidateUsers: task.candidateUsers,
  candidateGroups: task.candidateGroups,
  priority: task.priority,
  dueDate: task.dueDate ?? null,
  followUpDate: task.followUpDate ?? null,
  formKey: task.formKey ?? null,
  description: task.description ?? null,
  createdAt: task.createdAt,
  claimedAt: task.claimedAt ?? null,
  completedAt: null,
  canceledAt: null,
  completedBy: null,
  duration: null,
  queryVariables: ctx.queryVariables,
  index: ctx.indexSchema ?? DEFAULT_INDEX,
  pos,
});

const since = (from: string, to: string) => Math.max(0, Date.parse(to) - Date.parse(from));

export const tasksProjection: Projection = {
  name: TASKS_PROJECTION,
  version: 1,
  categories: [INSTANCE_CATEGORY, INDEX_SCHEMA_CATEGORY],
  eventTypes: [
    'TaskCreated',
    'TaskClaimed',
    'TaskUnclaimed',
    'TaskCompleted',
    'TaskCanceled',
    'QueryVariablesSet',
    'IndexSchemaDefined',
  ],
  collections: {
    tasks: {
      partitioned: true,
      indexes: [
        { name: 'byBusinessKey', fields: { businessKey: 1, processKey: 1, createdAt: 1 } },
        { name: 'instance', fields: { instanceId: 1 } },
        { name: 'index', fields: { index: 1, id: 1 } },
        { name: 'indexPos', fields: { index: 1, pos: 1 } },
      ],
    },
    indexes: { partitioned: true },
    search: { partitioned: true },
    jobs: { indexes: [dueIndex('due')] },
  },
  async apply(events, store) {
    const states = new Map<string, IndexState>();
    const stateOf = async (tenant: string, index: string): Promise<IndexState> => {
      const k = `${tenant}\u0000${index}`;
      let s = states.get(k);
      if (s === undefined) states.set(k, (s = (await indexesOf(store, tenant).get(index)) ?? defaultIndexState(index)));
      return s;
    };
    const save = async (tenant: string, doc: TaskDoc, at: string) => {
      await tasksOf(store, tenant).upsert(doc);
      const s = await stateOf(tenant, doc.index);
      const search: Collection<SearchDoc> = store.collection<SearchDoc>(
        'search',
        searchPartition(tenant, doc.index, s.generation),
        searchIndexes(s.fields),
      );
      await search.upsert(searchDocOf(doc, s.fields, tenant, at));
    };
    const update = async (tenant: string, taskId: string, e: RecordedEvent, change: (d: TaskDoc) => TaskDoc) => {
      const doc = await tasksOf(store, tenant).get(taskId);
      if (doc !== null) await save(tenant, { ...change(doc), pos: e.position }, e.metadata.occurredAt);
    };

    for (const e of events) {
      const tenant = e.metadata.tenant;
      const at = e.metadata.occurredAt;
      if (e.type === 'IndexSchemaDefined') {
        await schemaDefined(
          store,
          tenant,
          (e as unknown as Extract<IndexSchemaEvent, { type: 'IndexSchemaDefined' }>).data,
          at,
          states,
        );
        continue;
      }
      const ev = e as unknown as InstanceEvent;
      switch (ev.type) {
        case 'TaskCreated':
          await save(tenant, fromCreated(ev.data.task, ev.data.context, e.position), at);
          break;
        case 'TaskClaimed':
          await update(tenant, ev.data.taskId, e, (d) => ({
            ...d,
            assignee: ev.data.assignee,
            status: 'ASSIGNED',
            claimedAt: ev.data.at,
          }));
          break;
        case 'TaskUnclaimed':
          await update(tenant, ev.data.taskId, e, (d) => ({
            ...d,
            assignee: null,
            status: 'CREATED',
            claimedAt: null,
          }));
          break;
        case 'TaskCompleted':
          await update(tenant, ev.data.taskId, e, (d) => ({
            ...d,
            status: 'COMPLETED',
            completedAt: ev.data.at,
            completedBy: ev.data.by ?? d.assignee,
            duration: since(d.createdAt, ev.data.at),
          }));
          break;
        case 'TaskCanceled':
          await update(tenant, ev.data.taskId, e, (d) => ({
            ...d,
            status: 'CANCELED',
            canceledAt: ev.data.at,
            duration: since(d.createdAt, ev.data.at),
          }));
          break;
        case 'QueryVariablesSet': {
          const open = await tasksOf(store, tenant).find({
            instanceId: ev.data.instanceId,
            status: { $in: OPEN_STATUSES },
          });
          for (const d of open)
            await save(
              tenant,
              { ...d, queryVariables: { ...d.queryVariables, ...ev.data.queryVariables }, pos: e.position },
              at,
            );
          break;
        }
        default:
          break;
      }
    }
  },
};

/** a schema (re)defined: the first definition of an index nobody used yet applies at once; any other change is built beside */
async function schemaDefined(
  store: Store,
  tenant: string,
  d: { name: string; fields: IndexField[]; revision: number },
  at: string,
  states: Map<string, IndexState>,
) {
  const indexes = indexesOf(store, tenant);
  const current = await indexes.get(d.name);
  let next: IndexState;
  if (current === null && (await tasksOf(store, tenant).count({ index: d.name })) === 0) {
    next = { id: d.name, fields: d.fields, revision: d.revision, generation: 1 };
  } else {
    const base = current ?? defaultIndexState(d.name);
    if (base.revision >= d.revision || (base.building?.revision ?? 0) >= d.revision) return;
    const generation = Math.max(base.generation, base.building?.generation ?? 0) + 1;
    next = { ...base, building: { revision: d.revision, fields: d.fields, generation } };
    await jobsOf(store).upsert({
      id: `${tenant}/${d.name}`,
      tenant,
      index: d.name,
      generation,
      revision: d.revision,
      dueAt: at,
      leaseUntil: '',
    });
  }
  await indexes.upsert(next);
  states.set(`${tenant}\u0000${d.name}`, next);
}
