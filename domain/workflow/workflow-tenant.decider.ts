import type { Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';

/**
 * Whether a tenant uses the workflow (`wfTenant-<tenant>.settings`): the spec's "adopting the workflow by an
 * existing tenant" step. Enabling takes effect without a restart: every request reads it (a short cache).
 */
export const WORKFLOW_TENANT_CATEGORY = 'wfTenant';
export const WORKFLOW_TENANT_ID = 'settings';

export type WorkflowTenantEvent =
  | DomainEvent<'WorkflowTenantEnabled', { tenant: string; at: string }>
  | DomainEvent<'WorkflowTenantDisabled', { tenant: string; at: string }>;
export type WorkflowTenantCommand = { type: 'EnableWorkflow' | 'DisableWorkflow'; tenant: string; now: string };
export type WorkflowTenantState = { enabled: boolean; since?: string };

export const workflowTenantDecider: Decider<WorkflowTenantCommand, WorkflowTenantEvent, WorkflowTenantState> = {
  initialState: () => ({ enabled: false }),
  evolve: (_s, e) => (e.type === 'WorkflowTenantEnabled' ? { enabled: true, since: e.data.at } : { enabled: false }),
  decide(c, s) {
    if (c.type === 'EnableWorkflow')
      return s.enabled ? [] : [{ type: 'WorkflowTenantEnabled', data: { tenant: c.tenant, at: c.now } }];
    return s.enabled ? [{ type: 'WorkflowTenantDisabled', data: { tenant: c.tenant, at: c.now } }] : [];
  },
};
