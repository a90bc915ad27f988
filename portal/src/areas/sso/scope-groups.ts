import { AUDIT_SCOPES } from '../../../../domain/audit/audit.scopes.ts';
import { BRIDGE_SCOPES } from '../../../../domain/bridge/bridge.scopes.ts';
import { HUB_SCOPES } from '../../../../domain/hub/hub.scopes.ts';
import { IDENTITY_ADMIN_SCOPE, OIDC_SCOPES } from '../../../../domain/identity/identity.scopes.ts';
import { WORKFLOW_SCOPES } from '../../../../domain/workflow/workflow.scopes.ts';

/**
 * The platform's service scopes by service, for the "API access" of an application and a user's roles:
 * the services' own constants (domain/<service>/<service>.scopes.ts), so a new scope shows up here.
 */
export type ScopeGroup = { service: string; scopes: readonly string[] };

export const SCOPE_GROUPS: readonly ScopeGroup[] = [
  { service: 'Identity provider', scopes: [IDENTITY_ADMIN_SCOPE] },
  { service: 'Event bridge', scopes: BRIDGE_SCOPES },
  { service: 'Audit', scopes: AUDIT_SCOPES },
  { service: 'Notification hub', scopes: HUB_SCOPES },
  { service: 'Workflow', scopes: WORKFLOW_SCOPES },
];

const SERVICE = new Set(SCOPE_GROUPS.flatMap((g) => g.scopes));

/** every application may ask for these (OpenID Connect's own scopes); they are not registered per client */
export const OPENID_SCOPES: readonly string[] = OIDC_SCOPES;

/** scopes that are no service's (kept as they are; a user's free roles) */
export const otherScopes = (scopes: readonly string[]): string[] => scopes.filter((s) => !SERVICE.has(s));

/** a free-text list of scopes (spaces or commas between them) */
export const parseScopeList = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
