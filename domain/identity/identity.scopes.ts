/**
 * The scopes the identity provider defines (DESIGN "Services as modules": per service, its scopes live
 * once). Routers (http/identity), the seed (infra/identity/seed.ts) and the discovery documents use these.
 */
export { CROSS_TENANT_SCOPE } from '../core/access-context.ts';

/** OpenID Connect's own scopes: every client may ask for them. */
export const OIDC_SCOPES = ['openid', 'profile', 'email'] as const;

/** The administration API of the identity provider (tenants, users, clients). */
export const IDENTITY_ADMIN_SCOPE = 'identity:admin';
