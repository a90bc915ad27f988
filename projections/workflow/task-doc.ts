import type { TaskStatus } from '../../domain/workflow/engine/instance.events.ts';

/**
 * A task as the read models keep it (`workflow.tasks` `tasks`, one collection per tenant): the task's
 * fields, its instance's identity and query variables, its lifecycle dates, and the log position of the
 * last event applied to it (`pos`: an index rebuild copies the documents changed while it ran).
 */
export type TaskDoc = {
  id: string;
  instanceId: string;
  rootInstanceId: string;
  processDefinitionId: string;
  processKey: string;
  version: number;
  businessKey: string;
  taskDefinitionKey: string;
  name: string | null;
  status: TaskStatus;
  assignee: string | null;
  owner: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  priority: number;
  dueDate: string | null;
  followUpDate: string | null;
  formKey: string | null;
  description: string | null;
  createdAt: string;
  claimedAt: string | null;
  completedAt: string | null;
  canceledAt: string | null;
  completedBy: string | null;
  /** ms from creation to completion or cancellation */
  duration: number | null;
  queryVariables: Record<string, unknown>;
  /** the task index (the start request's indexSchema) */
  index: string;
  pos: string;
};

export const OPEN_STATUSES: TaskStatus[] = ['CREATED', 'ASSIGNED'];
