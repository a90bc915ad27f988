import { createWorkEngine } from '../../commands/core/work-engine.ts';
import { createDefinitionCatalog } from '../../commands/workflow/definition.catalog.ts';
import { createDeployCommands } from '../../commands/workflow/deploy.commands.ts';
import { createIndexSchemaCommands } from '../../commands/workflow/index-schemas.commands.ts';
import { createInstanceCommands } from '../../commands/workflow/instance.commands.ts';
import { createWorkflowTenants } from '../../commands/workflow/tenants.commands.ts';
import { createWorkflowRouter } from '../../http/workflow/workflow.router.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import { createDefinitionQueries } from '../../projections/workflow/definitions.projection.ts';
import { rebuildSearchIndex } from '../../projections/workflow/index-rebuild.ts';
import { createInstanceQueries } from '../../projections/workflow/instances.projection.ts';
import { createTaskQueries } from '../../projections/workflow/task.queries.ts';
import { type IndexJob, TASKS_PROJECTION } from '../../projections/workflow/tasks.projection.ts';
import { createTimerQueries, TIMERS_PROJECTION, type TimerItem } from '../../projections/workflow/timers.projection.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';

/** how often idle workflow engines look for due timers and index rebuilds (the log reader wakes them after a page their projection took) */
export const WORKFLOW_POLL_MS = 1000;

export type WorkflowServiceDeps = ServiceDeps & {
  /** tests: how long a read-your-writes query waits for the task projection (default 5 s) */
  catchUpTimeoutMs?: number;
  pollMs?: number;
};

/**
 * The workflow engine's composition, in one place: deployments and definitions, process
 * instances (the interpreter through the command handler), tasks by business key and task search
 * (projections), index schemas with their rebuilds and BPMN timers (due items of the work engine), tenant
 * enablement. Building it does no I/O; `seed()` enables the demo tenant.
 */
export function createWorkflowService(deps: WorkflowServiceDeps): PlatformService {
  const { config, eventStore, readStore, clock, log } = deps;
  if (deps.identity === undefined) throw new Error('the workflow is built after the identity service');
  const wfLog = log.child({ service: 'workflow' });
  const pollMs = deps.pollMs ?? WORKFLOW_POLL_MS;

  const catalog = createDefinitionCatalog({ eventStore });
  const tenants = createWorkflowTenants({ eventStore, clock });
  const deploy = createDeployCommands({ eventStore, clock, catalog });
  const instances = createInstanceCommands({ eventStore, clock, catalog });
  const indexSchemas = createIndexSchemaCommands({ eventStore, clock });
  const tasks = createTaskQueries({
    readStore,
    eventStore,
    ...(deps.catchUpTimeoutMs !== undefined && { catchUpTimeoutMs: deps.catchUpTimeoutMs }),
  });
  const definitions = createDefinitionQueries(readStore);

  // BPMN timers: due items of workflow.timers; firing one is a command on its instance (idempotent)
  const timers = createWorkEngine<TimerItem>({
    name: 'workflow.timers',
    items: liveCollection<TimerItem>(readStore, TIMERS_PROJECTION, 'due'),
    clock,
    concurrency: 4,
    pollMs,
    keyOf: (item) => item.id.slice(0, item.id.indexOf('.')), // one instance stream at a time
    handle: async (item) => {
      await instances.fireTimer(item.tenant, item.id);
    },
    log: wfLog.child({ worker: 'workflow.timers' }),
  });
  // index rebuilds: due items of workflow.tasks; one at a time per process, leased long enough for a large index
  const rebuilds = createWorkEngine<IndexJob>({
    name: 'workflow.index-rebuild',
    items: liveCollection<IndexJob>(readStore, TASKS_PROJECTION, 'jobs'),
    clock,
    concurrency: 1,
    leaseMs: 10 * 60_000,
    pollMs,
    handle: async (job) => {
      const r = await rebuildSearchIndex({ readStore, job, now: clock.now().toISOString() });
      if (r.kind === 'switched') {
        await indexSchemas.recordRebuilt(job.tenant, job.index, r.revision, r.generation);
        wfLog.info(
          { tenant: job.tenant, index: job.index, generation: r.generation, documents: r.documents },
          'task index rebuilt and switched',
        );
      }
    },
    log: wfLog.child({ worker: 'workflow.index-rebuild' }),
  });

  const http = createWorkflowRouter({
    bearer: deps.identity.bearer,
    tenants,
    deploy,
    instances,
    indexSchemas,
    tasks,
    definitions,
    instanceList: createInstanceQueries(readStore),
    timers: createTimerQueries(readStore),
  });
  const seedTenant = config.identity.seed.tenant;

  return {
    name: 'workflow',
    router: http.router,
    registry: http.registry,
    reactors: [],
    engines: [timers, rebuilds],
    caches: [],
    timers: [],
    // the demo tenant may use the workflow from the first start (the README's first tour)
    seed: () => tenants.enable({ tenant: seedTenant, actor: 'platform.seed' }, `seed/workflow/${seedTenant}`),
    close: async () => undefined,
    dispose: async () => undefined,
  };
}
