import { Router } from 'express';
import type { DeployCommands } from '../../commands/workflow/deploy.commands.ts';
import { localDateTime } from '../../domain/workflow/time/iso8601.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import type { DefinitionQueries } from '../../projections/workflow/definitions.projection.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import { workflowRoute } from './workflow.route.ts';

/** Process definitions (scope workflow:user): the tenant's keys with their versions, and a version's XML. */
export function createDefinitionsRouter(deps: {
  definitions: DefinitionQueries;
  deploy: DeployCommands;
  registry: RouteRegistry;
}): Router {
  const { definitions, deploy, registry } = deps;
  const router = Router();
  const tags = ['process definitions'];

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/process-definitions',
      summary: "the tenant's process definitions with their versions",
      schemas: {},
      tags,
    },
    async (_req, res) => {
      const docs = await definitions.list(tenantOf(res));
      res.json({
        content: docs.map((d) => ({
          key: d.key,
          name: d.name,
          latestVersion: d.latestVersion,
          versions: d.versions.map((v) => ({
            id: v.id,
            version: v.version,
            deploymentId: v.deploymentId,
            deploymentTime: localDateTime(v.deployedAt),
            resource: v.resourceName,
            ...(v.versionTag !== undefined && { versionTag: v.versionTag }),
          })),
        })),
        links: [],
      });
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/process-definitions/:id/xml',
      summary: 'the BPMN XML a definition version was deployed from',
      schemas: {
        params: {
          type: 'object',
          properties: { id: { type: 'string', minLength: 1, maxLength: 400 } },
          required: ['id'],
        },
      },
      tags,
    },
    async (req, res) => {
      const id = String(req.params.id);
      const xml = await deploy.xmlOf(tenantOf(res), id);
      if (xml === null) throw workflowError('DEFINITION.NOT_FOUND', `no process definition ${id}`, { id });
      res.type('application/xml').send(xml);
    },
  );

  return router;
}
