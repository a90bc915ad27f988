import { AUDIT_SCOPES } from '../audit/audit.scopes.ts';
import { BRIDGE_SCOPES } from '../bridge/bridge.scopes.ts';
import { HUB_SCOPES } from '../hub/hub.scopes.ts';
import { IDENTITY_ADMIN_SCOPE } from '../identity/identity.scopes.ts';
import { OPS_SCOPES } from '../operations/operations.scopes.ts';
import { WORKFLOW_SCOPES } from '../workflow/workflow.scopes.ts';

/**
 * Every service's API scopes, in one list: what the seeded demo client and admin hold, and what the portal
 * asks for. A new service's scopes join here, so the first tour and the portal reach it.
 */
export const SERVICE_SCOPES: readonly string[] = [
  IDENTITY_ADMIN_SCOPE,
  ...BRIDGE_SCOPES,
  ...AUDIT_SCOPES,
  ...HUB_SCOPES,
  ...WORKFLOW_SCOPES,
  ...OPS_SCOPES,
];
