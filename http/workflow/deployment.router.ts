import { Router } from 'express';
import type { DeployCommands } from '../../commands/workflow/deploy.commands.ts';
import { localDateTime } from '../../domain/workflow/time/iso8601.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext } from '../core/tenancy.ts';
import { readDeploymentUpload } from './multipart.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * `POST /deployment` (scope workflow:admin): multipart `files` with BPMN 2.0 XML. Answers 201 with the
 * definition each process became (`new: false` when the file was unchanged and the latest version stays)
 * and the parse warnings. A bad file: 400 naming it (line and column for XML, element, id and line for an
 * unsupported element); nothing is stored.
 */
export function createDeploymentRouter(deps: { deploy: DeployCommands; registry: RouteRegistry }): Router {
  const { deploy, registry } = deps;
  const router = Router();
  workflowRoute(
    registry,
    router,
    {
      method: 'post',
      path: '/deployment',
      summary: 'deploy BPMN 2.0 files (multipart `files`)',
      schemas: {
        response: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            deploymentTime: { type: 'string' },
            deployedProcessDefinitions: { type: 'array', items: { type: 'object' } },
            warnings: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      tags: ['deployments'],
      successStatus: 201,
      requestContentType: 'multipart/form-data',
    },
    async (req, res) => {
      const upload = await readDeploymentUpload(req);
      const r = await deploy.deploy(upload.files, commandContext(res), commandIdFrom(req), upload.name);
      res.status(201).json({
        id: r.id,
        deploymentTime: localDateTime(r.deployedAt),
        deployedProcessDefinitions: r.definitions.map((d) => ({
          id: d.id,
          key: d.key,
          version: d.version,
          name: d.name ?? null,
          resource: d.resourceName,
          new: d.created,
        })),
        warnings: r.warnings,
      });
    },
  );
  return router;
}
