import type { TaskView } from '../../commands/workflow/instance.commands.ts';
import { localDateTime } from '../../domain/workflow/time/iso8601.ts';
import type { TaskDoc } from '../../projections/workflow/task-doc.ts';

/**
 * The spec's Task (in `content` arrays): assignee, claimedDate, createdDate, id, links, name, priority,
 * processDefinitionId, processInstanceId, queryVariables, status, taskDefinitionKey; by business key it
 * adds docId, owner, description, dueDate, parentTaskId, formKey, completedDate, duration,
 * processDefinitionVersion, businessKey. Dates are ISO 8601 local date-times (UTC); absent values null.
 */
const date = (v: string | null | undefined) => (v === null || v === undefined ? null : localDateTime(v));

export const linksOf = (base: string, taskId: string, instanceId: string) => [
  { rel: 'complete', href: `${base}/tasks/${taskId}/complete` },
  { rel: 'processInstance', href: `${base}/process-instances/${instanceId}` },
];

/** an open task from the instance's state (start and complete answers) */
export function taskFromState(base: string, v: TaskView) {
  const t = v.task;
  return {
    id: t.id,
    name: t.name ?? null,
    assignee: t.assignee ?? null,
    status: t.status,
    priority: t.priority,
    createdDate: date(t.createdAt),
    claimedDate: date(t.claimedAt),
    taskDefinitionKey: t.elementId,
    processDefinitionId: v.instance.processDefinitionId,
    processInstanceId: t.instanceId,
    queryVariables: v.instance.queryVariables,
    candidateUsers: t.candidateUsers,
    candidateGroups: t.candidateGroups,
    links: linksOf(base, t.id, t.instanceId),
  };
}

/** a task of the read model, with the by-business-key extras */
export function taskFromDoc(base: string, d: TaskDoc) {
  return {
    id: d.id,
    name: d.name,
    assignee: d.assignee,
    status: d.status,
    priority: d.priority,
    createdDate: date(d.createdAt),
    claimedDate: date(d.claimedAt),
    taskDefinitionKey: d.taskDefinitionKey,
    processDefinitionId: d.processDefinitionId,
    processInstanceId: d.instanceId,
    queryVariables: d.queryVariables,
    candidateUsers: d.candidateUsers,
    candidateGroups: d.candidateGroups,
    links: linksOf(base, d.id, d.instanceId),
    docId: d.id,
    owner: d.owner,
    description: d.description,
    dueDate: date(d.dueDate),
    parentTaskId: null,
    formKey: d.formKey,
    completedDate: date(d.completedAt ?? d.canceledAt),
    duration: d.duration,
    processDefinitionVersion: d.version,
    businessKey: d.businessKey,
  };
}

const nullable = (type: string) => ({ type: [type, 'null'] });
export const taskSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: nullable('string'),
    assignee: nullable('string'),
    status: { type: 'string', enum: ['CREATED', 'ASSIGNED', 'COMPLETED', 'CANCELED'] },
    priority: { type: 'integer' },
    createdDate: nullable('string'),
    claimedDate: nullable('string'),
    taskDefinitionKey: { type: 'string' },
    processDefinitionId: { type: 'string' },
    processInstanceId: { type: 'string' },
    queryVariables: { type: 'object' },
    candidateUsers: { type: 'array', items: { type: 'string' } },
    candidateGroups: { type: 'array', items: { type: 'string' } },
    links: {
      type: 'array',
      items: { type: 'object', properties: { rel: { type: 'string' }, href: { type: 'string' } } },
    },
  },
};
export const contentSchema = (item: object) => ({
  type: 'object',
  properties: { content: { type: 'array', items: item }, links: { type: 'array' } },
});
