import { AUDIT_SCOPES } from '../audit/audit.scopes.ts';
import { BRIDGE_SCOPES } from '../bridge/bridge.scopes.ts';
import { HUB_SCOPES } from '../hub/hub.scopes.ts';
import { IDENTITY_ADMIN_SCOPE } from '../identity/identity.scopes.ts';
import { OPS_SCOPES } from '../operations/operations.scopes.ts';
import { WORKFLOW_SCOPES } from '../workflow/workflow.scopes.ts';

/** Every service's API scopes by service, named as the portal shows them (API access, a user's roles). */
export const SERVICE_SCOPE_GROUPS: ReadonlyArray<{ service: string; scopes: readonly string[] }> = [
  { service: 'Identity provider', scopes: [IDENTITY_ADMIN_SCOPE] },
  { service: 'Event bridge', scopes: BRIDGE_SCOPES },
  { service: 'Audit', scopes: AUDIT_SCOPES },
  { service: 'Notification hub', scopes: HUB_SCOPES },
  { service: 'Workflow', scopes: WORKFLOW_SCOPES },
  { service: 'Operations', scopes: OPS_SCOPES },
];

/**
 * Every service's API scopes, in one list: what the seeded demo client and admin hold, and what the portal
 * asks for. A new service's scopes join SERVICE_SCOPE_GROUPS, so the first tour and the portal reach it.
 */
export const SERVICE_SCOPES: readonly string[] = SERVICE_SCOPE_GROUPS.flatMap((g) => g.scopes);
