import { DEPLOYMENT_CATEGORY, deploymentDecider } from '../../domain/workflow/deployment.decider.ts';
import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import { INDEX_SCHEMA_CATEGORY, indexSchemaDecider } from '../../domain/workflow/index-schema.decider.ts';
import { instanceDecider } from '../../domain/workflow/instance.decider.ts';
import { PROCESS_CATEGORY, processDefinitionDecider } from '../../domain/workflow/process-definition.decider.ts';
import { WORKFLOW_TENANT_CATEGORY, workflowTenantDecider } from '../../domain/workflow/workflow-tenant.decider.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { definitionsProjection } from '../../projections/workflow/definitions.projection.ts';
import { instancesProjection } from '../../projections/workflow/instances.projection.ts';
import { tasksProjection } from '../../projections/workflow/tasks.projection.ts';
import { timersProjection } from '../../projections/workflow/timers.projection.ts';
import { type DeciderRegistry, deciderEntry as entry, type ServiceModule } from '../platform-service.ts';

/** The workflow's projections (free of HTTP imports: the CLI loads them). */
export const workflowProjections = (): Projection[] => [
  definitionsProjection,
  tasksProjection,
  timersProjection,
  instancesProjection,
];

/** The workflow's deciders by stream category (`platform replay --state`). */
export const workflowDeciders = (): DeciderRegistry => ({
  [INSTANCE_CATEGORY]: entry(instanceDecider),
  [PROCESS_CATEGORY]: entry(processDefinitionDecider),
  [DEPLOYMENT_CATEGORY]: entry(deploymentDecider),
  [INDEX_SCHEMA_CATEGORY]: entry(indexSchemaDecider),
  [WORKFLOW_TENANT_CATEGORY]: entry(workflowTenantDecider),
});

/** The BPMN workflow engine as one entry of the platform's service list. */
export const workflowModule: ServiceModule = {
  name: 'workflow',
  projections: workflowProjections,
  deciders: workflowDeciders,
  async create(deps) {
    const { createWorkflowService } = await import('./workflow.service.ts');
    return createWorkflowService(deps);
  },
};
