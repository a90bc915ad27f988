import { type RequestHandler, Router } from 'express';
import type { DeployCommands } from '../../commands/workflow/deploy.commands.ts';
import type { IndexSchemaCommands } from '../../commands/workflow/index-schemas.commands.ts';
import type { InstanceCommands } from '../../commands/workflow/instance.commands.ts';
import type { WorkflowTenants } from '../../commands/workflow/tenants.commands.ts';
import type { DefinitionQueries } from '../../projections/workflow/definitions.projection.ts';
import type { InstanceQueries } from '../../projections/workflow/instances.projection.ts';
import type { TaskQueries } from '../../projections/workflow/task.queries.ts';
import type { TimerQueries } from '../../projections/workflow/timers.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import { createAdminRouter } from './admin.router.ts';
import { createClaimsRouter } from './claims.router.ts';
import { createDefinitionsRouter } from './definitions.router.ts';
import { createDeploymentRouter } from './deployment.router.ts';
import { createInstancesRouter } from './instances.router.ts';
import { createListingsRouter } from './listings.router.ts';
import { createTasksRouter } from './tasks.router.ts';
import { WORKFLOW_ADMIN_SCOPE, WORKFLOW_BASES, WORKFLOW_OPENAPI, WORKFLOW_USER_SCOPE } from './workflow.paths.ts';

/**
 * The workflow engine's router (mounted at `/`), every route under both bases (`/workflow/v1` and the
 * external `/api/platform/workflow/workflow/v1`): deployment, process instances, tasks, definitions,
 * lists of instances and timers, administration, and the OpenAPI document (public). Everything else needs a bearer token of our identity
 * provider; deployment and administration the scope workflow:admin, the rest workflow:user. A tenant not
 * enabled for the workflow gets 409 `WORKFLOW.TENANT_NOT_ENABLED` everywhere but the enablement routes.
 */
export type WorkflowRouterDeps = {
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  tenants: WorkflowTenants;
  deploy: DeployCommands;
  instances: InstanceCommands;
  indexSchemas: IndexSchemaCommands;
  tasks: TaskQueries;
  definitions: DefinitionQueries;
  instanceList: InstanceQueries;
  timers: TimerQueries;
};

export function createWorkflowRouter(deps: WorkflowRouterDeps): { router: Router; registry: RouteRegistry } {
  const { bearer, tenants } = deps;
  const registry = createRouteRegistry();
  const router = Router();

  let document: ReturnType<typeof openApiDocument> | undefined;
  for (const base of WORKFLOW_BASES) {
    router.get(`${base}${WORKFLOW_OPENAPI}`, (_req, res) => {
      document ??= openApiDocument('Workflow engine', registry);
      res.json(document);
    });
  }

  const enabled: RequestHandler = (_req, res, next) => {
    tenants.requireEnabled(tenantOf(res)).then(() => next(), next);
  };
  for (const base of WORKFLOW_BASES) {
    router.use(base, bearer.authenticate);
    router.use(`${base}/deployment`, bearer.requireScope(WORKFLOW_ADMIN_SCOPE), enabled);
    router.use(`${base}/admin/index-schemas`, bearer.requireScope(WORKFLOW_ADMIN_SCOPE), enabled);
    router.use(`${base}/admin/tenants`, bearer.requireScope(WORKFLOW_ADMIN_SCOPE));
    for (const area of ['process-instances', 'tasks', 'process-definitions', 'timers'])
      router.use(`${base}/${area}`, bearer.requireScope(WORKFLOW_USER_SCOPE), enabled);
  }

  router.use(createDeploymentRouter({ deploy: deps.deploy, registry }));
  router.use(createInstancesRouter({ instances: deps.instances, registry }));
  router.use(createListingsRouter({ instances: deps.instanceList, timers: deps.timers, registry }));
  router.use(createClaimsRouter({ instances: deps.instances, registry }));
  router.use(createTasksRouter({ tasks: deps.tasks, registry }));
  router.use(createDefinitionsRouter({ definitions: deps.definitions, deploy: deps.deploy, registry }));
  router.use(createAdminRouter({ tenants, indexSchemas: deps.indexSchemas, tasks: deps.tasks, registry }));
  return { router, registry };
}
