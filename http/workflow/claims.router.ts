import { Router } from 'express';
import type { InstanceCommands } from '../../commands/workflow/instance.commands.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext } from '../core/tenancy.ts';
import { contentSchema, taskFromState, taskSchema } from './task.view.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * Claim and unclaim a task without completing it (scope workflow:user), in the shape of the complete
 * route: `POST /tasks/{taskId}/claim` `{assignee}` and `POST /tasks/{taskId}/unclaim` `{assignee?}`, each
 * answering `{content: [the task after it], links: []}`. A task another assignee holds is a 409
 * `TASK.CLAIMED_BY_ANOTHER`; a claim by the holder and an unclaim of an unclaimed task change nothing.
 */
const name = { type: 'string', minLength: 1, maxLength: 255 };
const params = {
  type: 'object',
  properties: { taskId: { type: 'string', minLength: 1, maxLength: 200 } },
  required: ['taskId'],
};
const schemas = {
  claim: {
    params,
    body: { type: 'object', properties: { assignee: name }, required: ['assignee'], additionalProperties: false },
    response: contentSchema(taskSchema),
  },
  unclaim: {
    params,
    body: { type: 'object', properties: { assignee: name }, additionalProperties: false },
    response: contentSchema(taskSchema),
  },
};

export function createClaimsRouter(deps: { instances: InstanceCommands; registry: RouteRegistry }): Router {
  const { instances, registry } = deps;
  const router = Router();
  const tags = ['tasks'];

  workflowRoute(
    registry,
    router,
    {
      method: 'post',
      path: '/tasks/:taskId/claim',
      summary: 'claim a task for an assignee (409 when another holds it)',
      schemas: schemas.claim,
      tags,
    },
    async (req, res, base) => {
      const { assignee } = req.body as { assignee: string };
      const v = await instances.setAssignee(
        String(req.params.taskId),
        { assignee },
        commandContext(res),
        commandIdFrom(req),
      );
      res.json({ content: [taskFromState(base, v)], links: [] });
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'post',
      path: '/tasks/:taskId/unclaim',
      summary: "release a task's assignee (with `assignee`: only that assignee's claim)",
      schemas: schemas.unclaim,
      tags,
    },
    async (req, res, base) => {
      const { assignee } = (req.body ?? {}) as { assignee?: string };
      const v = await instances.setAssignee(
        String(req.params.taskId),
        { assignee: null, ...(assignee !== undefined && { expected: assignee }) },
        commandContext(res),
        commandIdFrom(req),
      );
      res.json({ content: [taskFromState(base, v)], links: [] });
    },
  );

  return router;
}
