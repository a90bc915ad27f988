import { SERVICE_SCOPES } from '../core/service.scopes.ts';
import { OIDC_SCOPES } from '../identity/identity.scopes.ts';

/**
 * What the portal asks for at sign-in: OpenID Connect's scopes and every service's. The provider grants a
 * user only those of them the user holds as roles, so the session's scopes say which areas and actions the
 * portal offers. `tenant:cross` is not among them: a platform administrator acts on another tenant through
 * the routes that let platform admins name any tenant, not through a client's allowed tenants.
 */
export const PORTAL_SCOPES: readonly string[] = [...OIDC_SCOPES, ...SERVICE_SCOPES];
