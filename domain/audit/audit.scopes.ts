/**
 * The audit service's scopes (DESIGN "Services as modules": per service, its scopes live once). Routers
 * (http/audit) require them; the seed (infra/identity/seed.ts) grants them to the demo client. A client is
 * granted them by the identity provider's administration (the spec's "request API access in the portal
 * catalog").
 */

/** `log/sync` (v2 and v3): writing audit records */
export const AUDIT_WRITE_SCOPE = 'audit:write';
/** `log/query-many`, `log/export`, `verify`: reading audit records */
export const AUDIT_READ_SCOPE = 'audit:read';
/** modules, transactions, warning levels, metadata import and export, retention */
export const AUDIT_ADMIN_SCOPE = 'audit:admin';

export const AUDIT_SCOPES = [AUDIT_WRITE_SCOPE, AUDIT_READ_SCOPE, AUDIT_ADMIN_SCOPE] as const;
