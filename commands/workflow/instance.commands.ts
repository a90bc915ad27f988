import type { RecordedEvent } from '../../domain/core/event.ts';
import { streamName } from '../../domain/core/stream-name.ts';
import {
  INSTANCE_CATEGORY,
  type InstanceEvent,
  rootIdOf,
  type Task,
} from '../../domain/workflow/engine/instance.events.ts';
import type { InstanceTreeState, ProcessInstance } from '../../domain/workflow/engine/instance.state.ts';
import { DEFAULT_INDEX, INDEX_NAME } from '../../domain/workflow/index-schema.decider.ts';
import { instanceDecider } from '../../domain/workflow/instance.decider.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, type CommandResult, commandHandler } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';
import { type DefinitionCatalog, withDefinitions } from './definition.catalog.ts';

export const instanceStream = (tenant: string, rootId: string) => streamName(INSTANCE_CATEGORY, tenant, rootId);

/** the spec's start-process request */
export type StartRequest = {
  processDefinitionKey: string;
  businessKey?: string;
  assignee?: string;
  indexSchema?: string;
  queryVariables?: Record<string, unknown>;
  controlVariables?: Record<string, unknown>;
};
/** the spec's complete-task request */
export type CompleteRequest = {
  assignee?: string;
  indexSchema?: string;
  queryVariables?: Record<string, unknown>;
  controlVariables?: Record<string, unknown>;
};

/** an open task with its instance: what start and complete answer */
export type TaskView = { task: Task; instance: ProcessInstance };
export type InstanceCommandResult = { instanceId: string; tasks: TaskView[]; ended: boolean; position?: string };

const TASK_ID = /^[0-9a-f-]{36}\.t\d+$/;
const TIMER_ID = /^[0-9a-f-]{36}\.m\d+$/;

/** the open tasks of an instance tree, oldest first */
export function openTasks(state: InstanceTreeState): TaskView[] {
  return Object.values(state.tasks)
    .sort((a, b) => (a.createdAt === b.createdAt ? seq(a.id) - seq(b.id) : a.createdAt < b.createdAt ? -1 : 1))
    .map((task) => ({ task, instance: state.instances[task.instanceId]! }));
}
const seq = (id: string) => Number(id.slice(id.lastIndexOf('.') + 2));

/**
 * Start, complete, claim and unclaim, fire a timer: the instance aggregate through the core's command handler (the stream
 * read and folded on every command, appended with its expected revision, a conflict decided again). The
 * definitions the interpreter needs come from the catalog; one it did not have is loaded and the command
 * decided again.
 */
export function createInstanceCommands(o: { eventStore: EventStore; clock: Clock; catalog: DefinitionCatalog }) {
  const { eventStore, clock, catalog } = o;
  const handle = commandHandler(eventStore, instanceDecider);

  const resultOf = (rootId: string, r: CommandResult<InstanceEvent, InstanceTreeState>): InstanceCommandResult => ({
    instanceId: rootId,
    tasks: openTasks(r.state),
    ended: r.state.instances[rootId]?.status !== 'ACTIVE',
    ...(r.position !== undefined && { position: r.position }),
  });

  async function start(req: StartRequest, context: CommandContext, commandId: string): Promise<InstanceCommandResult> {
    const { tenant } = context;
    const queryVariables = req.queryVariables ?? {};
    const fromQuery = queryVariables.WorkflowBusinessKey;
    if (fromQuery !== undefined && typeof fromQuery !== 'string')
      throw workflowError('START.INVALID', 'queryVariables.WorkflowBusinessKey must be a string', {
        field: 'queryVariables.WorkflowBusinessKey',
      });
    if (req.businessKey !== undefined && fromQuery !== undefined && req.businessKey !== fromQuery) {
      throw workflowError(
        'START.INVALID',
        `businessKey (${req.businessKey}) and queryVariables.WorkflowBusinessKey (${fromQuery}) differ`,
        { field: 'businessKey' },
      );
    }
    const businessKey = req.businessKey ?? fromQuery;
    if (businessKey === undefined || businessKey === '')
      throw workflowError(
        'START.INVALID',
        'queryVariables.WorkflowBusinessKey is required (the task index relates tasks to it)',
        { field: 'queryVariables.WorkflowBusinessKey' },
      );
    const taskType = queryVariables.TaskType;
    if (typeof taskType !== 'string' || taskType === '')
      throw workflowError(
        'START.INVALID',
        'queryVariables.TaskType is required (it marks the task type in the index)',
        { field: 'queryVariables.TaskType' },
      );
    const indexSchema = req.indexSchema ?? DEFAULT_INDEX;
    if (!INDEX_NAME.test(indexSchema))
      throw workflowError('START.INVALID', `indexSchema ${JSON.stringify(indexSchema)} is not an index name`, {
        field: 'indexSchema',
      });

    const definition = await catalog.load(tenant, { kind: 'latest', key: req.processDefinitionKey });
    if (definition === null)
      throw workflowError(
        'DEFINITION.NOT_FOUND',
        `no process definition with the key '${req.processDefinitionKey}' is deployed`,
        { processDefinitionKey: req.processDefinitionKey },
      );
    const rootId = derivedId(`${tenant}/instance/${commandId}`);
    const session = catalog.session(tenant);
    await session.ensure({ kind: 'id', id: definition.id });
    const now = clock.now().toISOString();
    const r = await withDefinitions(session, (lookup) =>
      handle({
        stream: instanceStream(tenant, rootId),
        command: {
          type: 'StartProcessInstance',
          rootId,
          definition,
          businessKey,
          variables: req.controlVariables ?? {},
          queryVariables: { ...queryVariables, WorkflowBusinessKey: businessKey },
          indexSchema,
          ...(req.assignee !== undefined && { initiator: req.assignee }),
          now,
          lookup,
        },
        commandId,
        now,
        context,
        from: 'new',
      }),
    );
    return resultOf(rootId, r);
  }

  async function complete(
    taskId: string,
    req: CompleteRequest,
    context: CommandContext,
    commandId: string,
  ): Promise<InstanceCommandResult> {
    const { tenant } = context;
    if (!TASK_ID.test(taskId)) throw workflowError('TASK.NOT_FOUND', `no task ${taskId}`, { taskId });
    const rootId = rootIdOf(taskId);
    const now = clock.now().toISOString();
    const r = await withDefinitions(catalog.session(tenant), (lookup) =>
      handle({
        stream: instanceStream(tenant, rootId),
        command: {
          type: 'CompleteTask',
          taskId,
          variables: req.controlVariables ?? {},
          ...(req.queryVariables !== undefined && { queryVariables: req.queryVariables }),
          ...(req.assignee !== undefined && { assignee: req.assignee }),
          now,
          lookup,
        },
        commandId,
        now,
        context,
      }),
    );
    return resultOf(rootId, r);
  }

  /** claim (`assignee`) or unclaim (`assignee: null`; `expected`: refused when another holds it) an open task; answers it after */
  async function setAssignee(
    taskId: string,
    change: { assignee: string } | { assignee: null; expected?: string },
    context: CommandContext,
    commandId: string,
  ): Promise<TaskView> {
    if (!TASK_ID.test(taskId)) throw workflowError('TASK.NOT_FOUND', `no task ${taskId}`, { taskId });
    const now = clock.now().toISOString();
    const r = await handle({
      stream: instanceStream(context.tenant, rootIdOf(taskId)),
      command:
        change.assignee !== null
          ? { type: 'ClaimTask', taskId, assignee: change.assignee, now }
          : { type: 'UnclaimTask', taskId, ...(change.expected !== undefined && { assignee: change.expected }), now },
      commandId,
      now,
      context,
    });
    const task = r.state.tasks[taskId]!;
    return { task, instance: r.state.instances[task.instanceId]! };
  }

  /** the work engine's handler for a due timer (idempotent: a timer fired or canceled already is a no-op) */
  async function fireTimer(tenant: string, timerId: string): Promise<InstanceCommandResult> {
    if (!TIMER_ID.test(timerId)) throw workflowError('TIMER.NOT_FOUND', `no timer ${timerId}`, { timerId });
    const rootId = rootIdOf(timerId);
    const now = clock.now().toISOString();
    const r = await withDefinitions(catalog.session(tenant), (lookup) =>
      handle({
        stream: instanceStream(tenant, rootId),
        command: { type: 'FireTimer', timerId, now, lookup },
        commandId: `timer/${timerId}`,
        now,
        context: { tenant, actor: 'workflow.timers' },
      }),
    );
    return resultOf(rootId, r);
  }

  /** an instance (or a called one) with its tree's state and the stream's events: `GET /process-instances/{id}` */
  async function read(
    tenant: string,
    instanceId: string,
  ): Promise<{ state: InstanceTreeState; events: RecordedEvent[] } | null> {
    const rootId = rootIdOf(instanceId);
    if (!/^[0-9a-f-]{36}$/.test(rootId)) return null;
    const events = await eventStore.readStream(instanceStream(tenant, rootId));
    let state = instanceDecider.initialState();
    for (const e of events) state = instanceDecider.evolve(state, e as unknown as InstanceEvent);
    return state.instances[instanceId] === undefined ? null : { state, events };
  }

  return { start, complete, setAssignee, fireTimer, read };
}

export type InstanceCommands = ReturnType<typeof createInstanceCommands>;
