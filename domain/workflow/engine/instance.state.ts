import { assertNever } from '../../core/decider.ts';
import type { ElementType } from '../model/process-model.ts';
import { type InstanceEvent, seqOf, type Task, type Timer } from './instance.events.ts';

export type InstanceStatus = 'ACTIVE' | 'COMPLETED' | 'TERMINATED';

export type ProcessInstance = {
  id: string;
  parent?: { instanceId: string; elementKey: string };
  processDefinitionId: string;
  processKey: string;
  version: number;
  deploymentId: string;
  businessKey: string;
  status: InstanceStatus;
  startedAt: string;
  endedAt?: string;
  variables: Record<string, unknown>;
  queryVariables: Record<string, unknown>;
  indexSchema?: string;
  initiator?: string;
};

/** a token: an active element instance (a join gateway's waiting arrivals are element instances too) */
export type ElementInstance = {
  key: string;
  instanceId: string;
  elementId: string;
  type: ElementType;
  /** the element instance of the enclosing subprocess; null: the process scope */
  scopeKey: string | null;
  /** the flow it came by */
  flow?: string;
};

/** The fold of an instance stream: the tree's instances, tokens, open tasks and pending timers. */
export type InstanceTreeState = {
  rootId: string | null;
  /** the stream's id counter: element keys, called instances, tasks and timers are numbered by it */
  seq: number;
  instances: Record<string, ProcessInstance>;
  /** active element instances by key, in activation order */
  elements: Record<string, ElementInstance>;
  /** open tasks */
  tasks: Record<string, Task>;
  /** completed and canceled tasks: a second completion is a 409, not a 404 */
  closedTasks: Record<string, 'COMPLETED' | 'CANCELED'>;
  /** pending timers */
  timers: Record<string, Timer>;
};

export const initialInstanceState = (): InstanceTreeState => ({
  rootId: null,
  seq: 0,
  instances: {},
  elements: {},
  tasks: {},
  closedTasks: {},
  timers: {},
});

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
};

const activated = (
  key: string,
  instanceId: string,
  elementId: string,
  a: { elementType: ElementType; scopeKey: string | null; flow?: string },
): ElementInstance => ({
  key,
  instanceId,
  elementId,
  type: a.elementType,
  scopeKey: a.scopeKey,
  ...(a.flow !== undefined && { flow: a.flow }),
});

const patchInstance = (s: InstanceTreeState, id: string, patch: Partial<ProcessInstance>): InstanceTreeState => {
  const current = s.instances[id];
  if (current === undefined) return s;
  return { ...s, instances: { ...s.instances, [id]: { ...current, ...patch } } };
};

/** the counter past an id the stream used */
const past = (s: InstanceTreeState, id: string) => Math.max(s.seq, seqOf(id) + 1);
/** the counter past the elements an event says were passed */
const pastPassed = (seq: number, passed: Array<{ key: string }> | undefined) =>
  passed === undefined ? seq : passed.reduce((n, p) => Math.max(n, seqOf(p.key) + 1), seq);

/** Folds one event. Every event that introduces an id (instance, element key, task, timer) moves the counter past it. */
export function evolveInstance(s: InstanceTreeState, e: InstanceEvent): InstanceTreeState {
  switch (e.type) {
    case 'ProcessInstanceStarted': {
      const d = e.data;
      const instance: ProcessInstance = {
        id: d.instanceId,
        ...(d.parent !== undefined && { parent: d.parent }),
        processDefinitionId: d.processDefinitionId,
        processKey: d.processKey,
        version: d.version,
        deploymentId: d.deploymentId,
        businessKey: d.businessKey,
        status: 'ACTIVE',
        startedAt: d.startedAt,
        variables: d.variables,
        queryVariables: d.queryVariables,
        ...(d.indexSchema !== undefined && { indexSchema: d.indexSchema }),
        ...(d.initiator !== undefined && { initiator: d.initiator }),
      };
      return {
        ...s,
        rootId: s.rootId ?? d.rootInstanceId,
        seq: d.parent === undefined ? s.seq : past(s, d.instanceId),
        instances: { ...s.instances, [d.instanceId]: instance },
      };
    }
    case 'ElementActivated': {
      const d = e.data;
      const el = activated(d.key, d.instanceId, d.elementId, d);
      return { ...s, seq: pastPassed(past(s, d.key), d.passed), elements: { ...s.elements, [d.key]: el } };
    }
    case 'ElementsPassed':
      return { ...s, seq: e.data.elements.reduce((n, p) => Math.max(n, seqOf(p.key) + 1), s.seq) };
    case 'ElementCompleted':
    case 'ElementTerminated':
      return { ...s, elements: without(s.elements, e.data.key) };
    case 'VariablesSet': {
      const current = s.instances[e.data.instanceId];
      return current === undefined
        ? s
        : patchInstance(s, current.id, { variables: { ...current.variables, ...e.data.variables } });
    }
    case 'QueryVariablesSet': {
      const current = s.instances[e.data.instanceId];
      return current === undefined
        ? s
        : patchInstance(s, current.id, { queryVariables: { ...current.queryVariables, ...e.data.queryVariables } });
    }
    case 'TaskCreated': {
      const { task, activation } = e.data;
      const seq = pastPassed(
        Math.max(past(s, task.id), activation === undefined ? 0 : seqOf(task.elementKey) + 1),
        e.data.passed,
      );
      const elements =
        activation === undefined
          ? s.elements
          : {
              ...s.elements,
              [task.elementKey]: activated(task.elementKey, task.instanceId, task.elementId, activation),
            };
      return { ...s, seq, elements, tasks: { ...s.tasks, [task.id]: task } };
    }
    case 'TaskClaimed': {
      const task = s.tasks[e.data.taskId];
      if (task === undefined) return s;
      return {
        ...s,
        tasks: {
          ...s.tasks,
          [task.id]: { ...task, assignee: e.data.assignee, status: 'ASSIGNED', claimedAt: e.data.at },
        },
      };
    }
    case 'TaskUnclaimed': {
      const task = s.tasks[e.data.taskId];
      if (task === undefined) return s;
      const { assignee: _a, claimedAt: _c, ...rest } = task;
      return { ...s, tasks: { ...s.tasks, [task.id]: { ...rest, status: 'CREATED' } } };
    }
    case 'TaskCompleted':
      return {
        ...s,
        elements: e.data.elementKey === undefined ? s.elements : without(s.elements, e.data.elementKey),
        tasks: without(s.tasks, e.data.taskId),
        closedTasks: { ...s.closedTasks, [e.data.taskId]: 'COMPLETED' },
      };
    case 'TaskCanceled':
      return {
        ...s,
        tasks: without(s.tasks, e.data.taskId),
        closedTasks: { ...s.closedTasks, [e.data.taskId]: 'CANCELED' },
      };
    case 'TimerScheduled':
      return { ...s, seq: past(s, e.data.timer.id), timers: { ...s.timers, [e.data.timer.id]: e.data.timer } };
    case 'TimerFired':
    case 'TimerCanceled':
      return { ...s, timers: without(s.timers, e.data.timerId) };
    case 'ProcessInstanceCompleted':
      return {
        ...patchInstance(s, e.data.instanceId, { status: 'COMPLETED', endedAt: e.data.at }),
        seq: pastPassed(s.seq, e.data.passed),
      };
    case 'ProcessInstanceTerminated':
      return patchInstance(s, e.data.instanceId, { status: 'TERMINATED', endedAt: e.data.at });
    default:
      return assertNever(e);
  }
}
