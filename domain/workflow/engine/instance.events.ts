import type { DomainEvent } from '../../core/event.ts';
import type { ElementType } from '../model/process-model.ts';

/**
 * The events of a process instance stream (`wfInstance-<tenant>.<rootId>`). One stream holds a root
 * instance and the instances its call activities started (the call and its return are one atomic step,
 * as in Camunda 7's one transaction), with their tokens (element instances), variables, tasks and timers.
 * The interpreter's state is the fold of these events (instance.state.ts).
 *
 * Ids: the root instance id is derived from the start command; everything inside is `<rootId>.<kind><n>`
 * (`.p` called instances, `.t` tasks, `.m` timers) or a local element key `e<n>`, numbered by one counter
 * of the stream (the fold keeps it past the highest number seen), so a task id names its stream and
 * completing it needs no lookup.
 *
 * The interpreter emits one event per change; before they are appended, compact.ts folds the pairs that
 * say nothing on their own into fewer events (an element passed at once, a user task's activation with
 * its creation, its completion with its task's), with the same fold.
 */

export type TaskStatus = 'CREATED' | 'ASSIGNED' | 'COMPLETED' | 'CANCELED';

export type Task = {
  id: string;
  instanceId: string;
  /** the element instance the task belongs to */
  elementKey: string;
  /** the user task's id in the definition (taskDefinitionKey) */
  elementId: string;
  name?: string;
  status: TaskStatus;
  assignee?: string;
  owner?: string;
  candidateUsers: string[];
  candidateGroups: string[];
  priority: number;
  dueDate?: string;
  followUpDate?: string;
  formKey?: string;
  description?: string;
  createdAt: string;
  claimedAt?: string;
};

/** what the read models need of the task's instance, copied into TaskCreated */
export type TaskContext = {
  rootInstanceId: string;
  processDefinitionId: string;
  processKey: string;
  version: number;
  businessKey: string;
  indexSchema?: string;
  queryVariables: Record<string, unknown>;
};

export type Timer = {
  id: string;
  instanceId: string;
  /** the boundary event or intermediate catch event */
  elementId: string;
  /** boundary: the element instance of the activity it is attached to; catch event: its own instance */
  elementKey: string;
  boundary: boolean;
  dueAt: string;
  /** a cycle's remaining repetitions after this one (null: unbounded) and its interval */
  cycle?: { remaining: number | null; interval: string };
};

/** an element instance's activation, as ElementActivated carries it */
export type Activation = { elementType: ElementType; scopeKey: string | null; flow?: string };
export type PassedElement = {
  key: string;
  instanceId: string;
  elementId: string;
  elementType: ElementType;
  scopeKey: string | null;
  flow?: string;
};

export type InstanceEvent =
  | DomainEvent<
      'ProcessInstanceStarted',
      {
        instanceId: string;
        rootInstanceId: string;
        parent?: { instanceId: string; elementKey: string };
        processDefinitionId: string;
        processKey: string;
        version: number;
        deploymentId: string;
        businessKey: string;
        variables: Record<string, unknown>;
        queryVariables: Record<string, unknown>;
        indexSchema?: string;
        initiator?: string;
        startedAt: string;
      }
    >
  | DomainEvent<
      'ElementActivated',
      {
        key: string;
        instanceId: string;
        elementId: string;
        elementType: ElementType;
        scopeKey: string | null;
        flow?: string;
        passed?: PassedElement[];
      }
    >
  /**
   * elements a token passed without waiting in this step (activated and completed at once), in order; when
   * an ElementActivated, TaskCreated or ProcessInstanceCompleted follows, they ride on it (`passed`)
   */
  | DomainEvent<'ElementsPassed', { elements: PassedElement[] }>
  | DomainEvent<'ElementCompleted', { key: string; instanceId: string; elementId: string }>
  | DomainEvent<'ElementTerminated', { key: string; instanceId: string; elementId: string }>
  | DomainEvent<'VariablesSet', { instanceId: string; variables: Record<string, unknown> }>
  | DomainEvent<'QueryVariablesSet', { instanceId: string; queryVariables: Record<string, unknown> }>
  /** `activation`: the task's element instance is activated with it (its ElementActivated folded in) */
  | DomainEvent<'TaskCreated', { task: Task; context: TaskContext; activation?: Activation; passed?: PassedElement[] }>
  | DomainEvent<'TaskClaimed', { taskId: string; instanceId: string; assignee: string; at: string }>
  /** the assignee released (the task is CREATED again, offered to its candidates) */
  | DomainEvent<'TaskUnclaimed', { taskId: string; instanceId: string; at: string }>
  /** `elementKey`: the task's element instance completes with it (its ElementCompleted folded in) */
  | DomainEvent<
      'TaskCompleted',
      {
        taskId: string;
        instanceId: string;
        at: string;
        by?: string;
        variables: Record<string, unknown>;
        elementKey?: string;
      }
    >
  | DomainEvent<'TaskCanceled', { taskId: string; instanceId: string; at: string; reason: string }>
  | DomainEvent<'TimerScheduled', { timer: Timer }>
  | DomainEvent<'TimerFired', { timerId: string; instanceId: string; at: string }>
  | DomainEvent<'TimerCanceled', { timerId: string; instanceId: string }>
  | DomainEvent<'ProcessInstanceCompleted', { instanceId: string; at: string; passed?: PassedElement[] }>
  | DomainEvent<'ProcessInstanceTerminated', { instanceId: string; at: string; reason: string }>;

export type InstanceEventType = InstanceEvent['type'];

export const INSTANCE_EVENT_TYPES: InstanceEventType[] = [
  'ProcessInstanceStarted',
  'ElementActivated',
  'ElementsPassed',
  'ElementCompleted',
  'ElementTerminated',
  'VariablesSet',
  'QueryVariablesSet',
  'TaskCreated',
  'TaskClaimed',
  'TaskUnclaimed',
  'TaskCompleted',
  'TaskCanceled',
  'TimerScheduled',
  'TimerFired',
  'TimerCanceled',
  'ProcessInstanceCompleted',
  'ProcessInstanceTerminated',
];

/** the stream category of process instances */
export const INSTANCE_CATEGORY = 'wfInstance';

/** the root instance id inside any id of its stream (`<rootId>.t3` → `<rootId>`) */
export const rootIdOf = (id: string): string => {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
};

/** the number of a stream id (`e12`, `<root>.t12` → 12) */
export const seqOf = (id: string): number => {
  const m = /(\d+)$/.exec(id);
  return m === null ? -1 : Number(m[1]);
};
