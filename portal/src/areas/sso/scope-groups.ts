import { SERVICE_SCOPE_GROUPS } from '../../../../domain/core/service.scopes.ts';
import { OIDC_SCOPES } from '../../../../domain/identity/identity.scopes.ts';

/**
 * The platform's service scopes by service, for the "API access" of an application and a user's roles:
 * the platform's own list (domain/core/service.scopes.ts), so a new service's scopes show up here.
 */
export type ScopeGroup = { service: string; scopes: readonly string[] };

export const SCOPE_GROUPS: readonly ScopeGroup[] = SERVICE_SCOPE_GROUPS;

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
