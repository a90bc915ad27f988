/**
 * Who a request acts as, shared by every service: the identity provider issues and verifies the token,
 * the shared http core (http/core/bearer-auth.ts, http/core/tenancy.ts) puts this on the request, and every
 * service's routers read it. It lives in domain/core so that no service depends on another's model.
 */

/** What a verified access token says; the bearer middleware puts it on the request. */
export type AccessContext = {
  tenant: string;
  subject: string;
  clientId: string;
  scopes: string[];
  jti: string;
  /** unix seconds */
  exp: number;
};

/** The tenant of the platform itself: its administrators manage platform resources and may name any tenant where a service says so. */
export const PLATFORM_TENANT = 'platform';

/** Scope that lets a token act on another tenant listed in its client's allowed_access_tenants. */
export const CROSS_TENANT_SCOPE = 'tenant:cross';
