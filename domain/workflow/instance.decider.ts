import type { Decider } from '../core/decider.ts';
import { compactEvents } from './engine/compact.ts';
import { createRun } from './engine/engine.ts';
import type { InstanceEvent } from './engine/instance.events.ts';
import { evolveInstance, type InstanceTreeState, initialInstanceState } from './engine/instance.state.ts';
import { nextCycle as nextOf } from './engine/timers.ts';
import type { DefinitionLookup, ProcessDefinition, StartEventModel } from './model/process-model.ts';
import { type ClaimTask, claim, type UnclaimTask, unclaim } from './task-claim.decision.ts';
import { workflowError } from './workflow.errors.ts';

/**
 * The process instance aggregate (one stream per root instance, the instances its call activities start
 * included). Commands bring the time and a synchronous view of the definitions they may need (`lookup`,
 * filled by the command layer, which loads what is missing and decides again: DefinitionNeeded).
 */
export type StartProcessInstance = {
  type: 'StartProcessInstance';
  rootId: string;
  definition: ProcessDefinition;
  businessKey: string;
  variables: Record<string, unknown>;
  queryVariables: Record<string, unknown>;
  indexSchema?: string;
  /** who starts it (the request's root `assignee`): the start event's `camunda:initiator` variable, unless a start variable of that name is given */
  initiator?: string;
  now: string;
  lookup: DefinitionLookup;
};

export type CompleteTask = {
  type: 'CompleteTask';
  taskId: string;
  /** the request's controlVariables: the instance's variables, which conditions and assignees read */
  variables: Record<string, unknown>;
  queryVariables?: Record<string, unknown>;
  /** who completes it (the request's root `assignee`); a task with candidates only is claimed by them first */
  assignee?: string;
  now: string;
  lookup: DefinitionLookup;
};

export type FireTimer = { type: 'FireTimer'; timerId: string; now: string; lookup: DefinitionLookup };

export type { ClaimTask, UnclaimTask };
export type InstanceCommand = StartProcessInstance | CompleteTask | FireTimer | ClaimTask | UnclaimTask;

function start(c: StartProcessInstance, s: InstanceTreeState): InstanceEvent[] {
  if (s.rootId !== null)
    throw workflowError('START.INVALID', `process instance ${s.rootId} exists already`, { instanceId: s.rootId });
  const run = createRun(s, c.lookup, c.now);
  const model = c.definition.model;
  const startEvent = model.elements[model.start] as StartEventModel;
  // Camunda 7 sets the initiator variable first and the start variables after it: a variable given at start wins
  const variables =
    startEvent.initiator !== undefined && c.initiator !== undefined
      ? { [startEvent.initiator]: c.initiator, ...c.variables }
      : { ...c.variables };
  run.emit({
    type: 'ProcessInstanceStarted',
    data: {
      instanceId: c.rootId,
      rootInstanceId: c.rootId,
      processDefinitionId: c.definition.id,
      processKey: c.definition.key,
      version: c.definition.version,
      deploymentId: c.definition.deploymentId,
      businessKey: c.businessKey,
      variables,
      queryVariables: c.queryVariables,
      ...(c.indexSchema !== undefined && { indexSchema: c.indexSchema }),
      ...(c.initiator !== undefined && { initiator: c.initiator }),
      startedAt: c.now,
    },
  });
  run.activate(c.rootId, model.start, null);
  run.drain();
  return run.events;
}

function complete(c: CompleteTask, s: InstanceTreeState): InstanceEvent[] {
  const task = s.tasks[c.taskId];
  if (task === undefined) {
    const closed = s.closedTasks[c.taskId];
    if (closed !== undefined)
      throw workflowError('TASK.NOT_OPEN', `task ${c.taskId} is ${closed} and cannot be completed again`, {
        taskId: c.taskId,
        status: closed,
      });
    throw workflowError('TASK.NOT_FOUND', `no task ${c.taskId}`, { taskId: c.taskId });
  }
  const instance = s.instances[task.instanceId];
  if (instance === undefined || instance.status !== 'ACTIVE')
    throw workflowError('PROCESS_INSTANCE.NOT_ACTIVE', `the instance of task ${c.taskId} has ended`, {
      taskId: c.taskId,
    });
  const businessKey = c.queryVariables?.WorkflowBusinessKey;
  if (businessKey !== undefined && businessKey !== instance.businessKey) {
    throw workflowError(
      'COMPLETE.INVALID',
      `queryVariables.WorkflowBusinessKey (${JSON.stringify(businessKey)}) is not the instance's business key`,
      { businessKey: instance.businessKey },
    );
  }
  const run = createRun(s, c.lookup, c.now);
  const instanceId = task.instanceId;
  if (Object.keys(c.variables).length > 0)
    run.emit({ type: 'VariablesSet', data: { instanceId, variables: c.variables } });
  if (c.queryVariables !== undefined && Object.keys(c.queryVariables).length > 0)
    run.emit({ type: 'QueryVariablesSet', data: { instanceId, queryVariables: c.queryVariables } });
  if (task.assignee === undefined && c.assignee !== undefined)
    run.emit({ type: 'TaskClaimed', data: { taskId: task.id, instanceId, assignee: c.assignee, at: c.now } });
  const by = c.assignee ?? task.assignee;
  const el = run.state().elements[task.elementKey];
  if (el === undefined) throw new Error(`task ${task.id} has no token`);
  run.emit({
    type: 'TaskCompleted',
    data: {
      taskId: task.id,
      instanceId,
      at: c.now,
      ...(by !== undefined && { by }),
      variables: c.variables,
      elementKey: task.elementKey,
    },
  });
  run.leave(el);
  run.drain();
  return run.events;
}

function fireTimer(c: FireTimer, s: InstanceTreeState): InstanceEvent[] {
  const timer = s.timers[c.timerId];
  // canceled meanwhile (its activity completed) or fired already: nothing to do
  if (timer === undefined || timer.dueAt > c.now) return [];
  const run = createRun(s, c.lookup, c.now);
  run.emit({ type: 'TimerFired', data: { timerId: timer.id, instanceId: timer.instanceId, at: c.now } });
  const el = run.state().elements[timer.elementKey];
  if (el === undefined) return run.events;
  if (!timer.boundary) {
    run.leave(el);
  } else {
    const boundary = run.model(el.instanceId).elements[timer.elementId];
    if (boundary === undefined || boundary.type !== 'boundaryEvent')
      throw new Error(`timer ${timer.id}: no boundary event ${timer.elementId}`);
    if (boundary.interrupting) run.terminate(el, `boundary timer '${boundary.id}'`);
    else if (timer.cycle !== undefined) {
      const next = nextOf(timer.dueAt, timer.cycle);
      if (next !== null) {
        run.emit({
          type: 'TimerScheduled',
          data: { timer: { ...timer, id: run.newId('m'), dueAt: next.dueAt, cycle: next.cycle } },
        });
      }
    }
    run.activate(el.instanceId, boundary.id, el.scopeKey);
  }
  run.drain();
  return run.events;
}

/** the interpreter's events, one per change (instanceDecider appends them compacted) */
export function decideEach(command: InstanceCommand, state: InstanceTreeState): InstanceEvent[] {
  switch (command.type) {
    case 'StartProcessInstance':
      return start(command, state);
    case 'CompleteTask':
      return complete(command, state);
    case 'FireTimer':
      return fireTimer(command, state);
    case 'ClaimTask':
      return claim(command, state);
    case 'UnclaimTask':
      return unclaim(command, state);
  }
}

export const instanceDecider: Decider<InstanceCommand, InstanceEvent, InstanceTreeState> = {
  initialState: initialInstanceState,
  evolve: evolveInstance,
  decide: (command, state) => compactEvents(decideEach(command, state)),
};
