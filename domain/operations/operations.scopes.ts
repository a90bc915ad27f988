/**
 * The operations API's scope (DESIGN "Services as modules": per service, its scopes live once). The
 * projections, rebuilds and readiness it shows are the platform's, not a tenant's: the router also
 * requires a token of an operator tenant (http/operations/operator-only.ts).
 */

/** projections, parked events, rebuilds and readiness (`/ops/v1`) */
export const OPS_ADMIN_SCOPE = 'ops:admin';

export const OPS_SCOPES = [OPS_ADMIN_SCOPE] as const;
