import { Router } from 'express';
import type { InstanceCommands } from '../../commands/workflow/instance.commands.ts';
import { openTasks } from '../../commands/workflow/instance.commands.ts';
import { INDEX_NAME } from '../../domain/workflow/index-schema.decider.ts';
import { localDateTime } from '../../domain/workflow/time/iso8601.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { contentSchema, taskFromState, taskSchema } from './task.view.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * Process instances: `POST /process-instances` (the spec's start-process request; answers the open tasks),
 * `POST /tasks/{taskId}/complete` (the complete-task request; answers the open tasks after it), and
 * `GET /process-instances/{id}` (state, tokens, variables, open tasks, pending timers and the history,
 * from the instance's events). Scope workflow:user.
 */
const variables: JsonSchema = { type: 'object', maxProperties: 1000 };
const name = { type: 'string', minLength: 1, maxLength: 255 };
const schemas = {
  start: {
    body: {
      type: 'object',
      properties: {
        processDefinitionKey: name,
        businessKey: name,
        assignee: name,
        indexSchema: { type: 'string', pattern: INDEX_NAME.source },
        queryVariables: variables,
        controlVariables: variables,
      },
      required: ['processDefinitionKey'],
      additionalProperties: false,
    },
    response: contentSchema(taskSchema),
  },
  complete: {
    params: {
      type: 'object',
      properties: { taskId: { type: 'string', minLength: 1, maxLength: 200 } },
      required: ['taskId'],
    },
    body: {
      type: 'object',
      properties: {
        taskId: { type: 'string' },
        assignee: name,
        indexSchema: { type: 'string', pattern: INDEX_NAME.source },
        queryVariables: variables,
        controlVariables: variables,
      },
      additionalProperties: false,
    },
    response: contentSchema(taskSchema),
  },
  get: {
    params: { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 200 } }, required: ['id'] },
  },
};

type StartBody = {
  processDefinitionKey: string;
  businessKey?: string;
  assignee?: string;
  indexSchema?: string;
  queryVariables?: Record<string, unknown>;
  controlVariables?: Record<string, unknown>;
};
type CompleteBody = {
  taskId?: string;
  assignee?: string;
  indexSchema?: string;
  queryVariables?: Record<string, unknown>;
  controlVariables?: Record<string, unknown>;
};

const date = (v: string | undefined) => (v === undefined ? null : localDateTime(v));

export function createInstancesRouter(deps: { instances: InstanceCommands; registry: RouteRegistry }): Router {
  const { instances, registry } = deps;
  const router = Router();
  const tags = ['process instances'];

  workflowRoute(
    registry,
    router,
    {
      method: 'post',
      path: '/process-instances',
      summary: 'start a process instance (latest version of the key)',
      schemas: schemas.start,
      tags,
    },
    async (req, res, base) => {
      const b = req.body as StartBody;
      const r = await instances.start(b, commandContext(res), commandIdFrom(req));
      res.json({
        content: r.tasks.map((t) => taskFromState(base, t)),
        links: [{ rel: 'processInstance', href: `${base}/process-instances/${r.instanceId}` }],
      });
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'post',
      path: '/tasks/:taskId/complete',
      summary: 'complete a task; answers the open tasks after it',
      schemas: schemas.complete,
      tags: ['tasks'],
    },
    async (req, res, base) => {
      const taskId = String(req.params.taskId);
      const b = (req.body ?? {}) as CompleteBody;
      if (b.taskId !== undefined && b.taskId !== taskId)
        throw workflowError('COMPLETE.INVALID', `the body's taskId (${b.taskId}) is not the path's (${taskId})`, {
          field: 'taskId',
        });
      const { taskId: _t, ...request } = b;
      const r = await instances.complete(taskId, request, commandContext(res), commandIdFrom(req));
      res.json({ content: r.tasks.map((t) => taskFromState(base, t)), links: [] });
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/process-instances/:id',
      summary: 'an instance: state, tokens, variables, tasks, timers, history',
      schemas: schemas.get,
      tags,
    },
    async (req, res, base) => {
      const id = String(req.params.id);
      const found = await instances.read(tenantOf(res), id);
      if (found === null) throw workflowError('PROCESS_INSTANCE.NOT_FOUND', `no process instance ${id}`, { id });
      const { state, events } = found;
      const instance = state.instances[id]!;
      const inTree = (instanceId: unknown) => instanceId === id;
      res.json({
        id,
        rootInstanceId: state.rootId,
        parentInstanceId: instance.parent?.instanceId ?? null,
        processDefinitionId: instance.processDefinitionId,
        processDefinitionKey: instance.processKey,
        processDefinitionVersion: instance.version,
        businessKey: instance.businessKey,
        state: instance.status,
        startedDate: date(instance.startedAt),
        endedDate: date(instance.endedAt),
        variables: instance.variables,
        queryVariables: instance.queryVariables,
        indexSchema: instance.indexSchema ?? null,
        tokens: Object.values(state.elements)
          .filter((e) => e.instanceId === id)
          .map((e) => ({
            key: e.key,
            elementId: e.elementId,
            elementType: e.type,
            scopeKey: e.scopeKey,
            ...(e.flow !== undefined && { arrivedBy: e.flow }),
          })),
        tasks: openTasks(state)
          .filter((t) => t.task.instanceId === id)
          .map((t) => taskFromState(base, t)),
        timers: Object.values(state.timers)
          .filter((t) => t.instanceId === id)
          .map((t) => ({ id: t.id, elementId: t.elementId, dueDate: localDateTime(t.dueAt), boundary: t.boundary })),
        calledInstances: Object.values(state.instances)
          .filter((i) => i.parent?.instanceId === id)
          .map((i) => ({ id: i.id, processDefinitionId: i.processDefinitionId, state: i.status })),
        history: events
          .filter((e) => {
            const d = e.data as {
              instanceId?: string;
              task?: { instanceId: string };
              timer?: { instanceId: string };
              elements?: Array<{ instanceId: string }>;
            };
            return d.elements !== undefined
              ? d.elements.some((p) => inTree(p.instanceId))
              : inTree(d.instanceId ?? d.task?.instanceId ?? d.timer?.instanceId);
          })
          .flatMap((e) => {
            const entry = {
              revision: e.revision,
              at: date(e.metadata.occurredAt),
              type: e.type,
              ...historyData(e.type, e.data, id),
            };
            // elements passed on the way ride on the event after them: listed first, as their own entry
            const passed = (
              e.data as {
                passed?: Array<{ instanceId: string; elementId: string; elementType: string; flow?: string }>;
              }
            ).passed;
            if (passed === undefined || e.type === 'ElementsPassed') return [entry];
            return [
              {
                revision: e.revision,
                at: entry.at,
                type: 'ElementsPassed',
                ...historyData('ElementsPassed', { elements: passed }, id),
              },
              entry,
            ];
          }),
      });
    },
  );

  return router;
}

/** the history entry's facts (the variables and task details beside the type) */
function historyData(type: string, data: unknown, instanceId: string): Record<string, unknown> {
  const d = data as Record<string, unknown>;
  switch (type) {
    case 'ElementsPassed':
      return {
        elements: (d.elements as Array<{ instanceId: string; elementId: string; elementType: string; flow?: string }>)
          .filter((p) => p.instanceId === instanceId)
          .map((p) => ({
            elementId: p.elementId,
            elementType: p.elementType,
            ...(p.flow !== undefined && { flow: p.flow }),
          })),
      };
    case 'ElementActivated':
    case 'ElementCompleted':
    case 'ElementTerminated':
      return {
        elementId: d.elementId,
        ...(d.elementType !== undefined && { elementType: d.elementType }),
        ...(d.flow !== undefined && { flow: d.flow }),
      };
    case 'ProcessInstanceCompleted':
      return { instanceId: d.instanceId };
    case 'TaskCreated': {
      const t = d.task as { id: string; elementId: string; assignee?: string; status: string };
      return { taskId: t.id, elementId: t.elementId, status: t.status, assignee: t.assignee ?? null };
    }
    case 'TimerScheduled': {
      const t = d.timer as { id: string; elementId: string; dueAt: string };
      return { timerId: t.id, elementId: t.elementId, dueDate: localDateTime(t.dueAt) };
    }
    default: {
      const { instanceId: _i, rootInstanceId: _r, ...rest } = d;
      return rest;
    }
  }
}
