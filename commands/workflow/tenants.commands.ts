import { streamName } from '../../domain/core/stream-name.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import {
  WORKFLOW_TENANT_CATEGORY,
  WORKFLOW_TENANT_ID,
  workflowTenantDecider,
} from '../../domain/workflow/workflow-tenant.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { createStreamCache } from '../core/stream-cache.ts';

export const workflowTenantStream = (tenant: string) =>
  streamName(WORKFLOW_TENANT_CATEGORY, tenant, WORKFLOW_TENANT_ID);

/**
 * Tenant enablement: a tenant must be enabled for the workflow before it deploys, starts or searches
 * (409 otherwise). Every check reads the tenant's stream through the stream cache (one indexed query for
 * what is new), so enabling takes effect at once in every process: the spec's hot update.
 */
export function createWorkflowTenants(o: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(o.eventStore, workflowTenantDecider);
  const cache = createStreamCache(o.eventStore, workflowTenantDecider);
  const change = async (type: 'EnableWorkflow' | 'DisableWorkflow', context: CommandContext, commandId: string) => {
    const { tenant } = context;
    const now = o.clock.now().toISOString();
    const r = await handle({
      stream: workflowTenantStream(tenant),
      command: { type, tenant, now },
      commandId,
      now,
      context,
    });
    return { tenant, enabled: r.state.enabled, ...(r.state.since !== undefined && { since: r.state.since }) };
  };
  const status = async (tenant: string) => {
    const { state } = await cache.load(workflowTenantStream(tenant));
    return { tenant, enabled: state.enabled, ...(state.since !== undefined && { since: state.since }) };
  };
  return {
    /** enables the context's tenant */
    enable: (context: CommandContext, commandId: string) => change('EnableWorkflow', context, commandId),
    disable: (context: CommandContext, commandId: string) => change('DisableWorkflow', context, commandId),
    status,
    /** 409 unless the tenant is enabled */
    async requireEnabled(tenant: string): Promise<void> {
      if (!(await status(tenant)).enabled) {
        throw workflowError(
          'WORKFLOW.TENANT_NOT_ENABLED',
          `tenant ${tenant} is not enabled for the workflow (POST /workflow/v1/admin/tenants/${tenant}/enable)`,
          { tenant },
        );
      }
    },
  };
}

export type WorkflowTenants = ReturnType<typeof createWorkflowTenants>;
