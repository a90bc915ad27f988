import { DomainError } from './domain-error.ts';

/**
 * Error catalogs: per service one table of its error codes with the HTTP status each is answered with, so
 * that a code means one status wherever it is thrown. Each service has its own (domain/bridge/bridge.errors.ts,
 * domain/identity/identity.errors.ts); this one holds the codes every service shares (request shape,
 * authentication and tenancy, concurrency, store outages). Throw through the catalog's factory, never
 * `new DomainError(code, status, …)`: the code is then a typed key and the status comes from the table.
 */
export type ErrorCatalog = Readonly<Record<string, number>>;

/** A factory `(code, message, details?) => DomainError` whose code must be a key of `catalog`. */
export const errorFactory =
  <C extends ErrorCatalog>(catalog: C) =>
  (code: keyof C & string, message: string, details?: unknown): DomainError => {
    const status = catalog[code];
    // TypeScript refuses an unknown code; this catches a cast or a plain-JS caller
    if (status === undefined) throw new Error(`error code ${code} is not in its catalog`);
    return new DomainError(code, status, message, details);
  };

export const CORE_ERRORS = {
  /** a body, query, path or header field is invalid (one detail per field) */
  'REQUEST.INVALID': 400,
  'REQUEST.MALFORMED_JSON': 400,
  /** an input limit (docs/architecture.md#input-limits) */
  'REQUEST.LIMIT_EXCEEDED': 400,
  'REQUEST.ABORTED': 400,
  'REQUEST.SIZE_MISMATCH': 400,
  'REQUEST.TOO_LARGE': 413,
  /** a body of another type than the route takes (JSON unless its OpenAPI document names another) */
  'REQUEST.UNSUPPORTED_MEDIA_TYPE': 415,
  'REQUEST.UNSUPPORTED_CHARSET': 415,
  'REQUEST.UNSUPPORTED_ENCODING': 415,
  /** an Idempotency-Key reused for a different request */
  'REQUEST.IDEMPOTENCY_KEY_REUSED': 422,
  'ROUTE.NOT_FOUND': 404,
  /** bearer authentication (http/core/bearer-auth.ts, RFC 6750) */
  'AUTH.REQUIRED': 401,
  'AUTH.INVALID_TOKEN': 401,
  'AUTH.INVALID_REQUEST': 400,
  'AUTH.INSUFFICIENT_SCOPE': 403,
  /** another tenant named without the cross-tenant scope or outside allowed_access_tenants (http/core/tenancy.ts) */
  'AUTH.TENANT_FORBIDDEN': 403,
  /** another tenant named where only the platform tenant's administrators may (http/core/tenancy.ts) */
  'TENANT.FORBIDDEN': 403,
  'CONCURRENCY.CONFLICT': 409,
  'STORE.UNAVAILABLE': 503,
  INTERNAL: 500,
} as const satisfies ErrorCatalog;

export type CoreErrorCode = keyof typeof CORE_ERRORS;

/** `coreError('REQUEST.INVALID', message, details)`: a DomainError with the catalog's status. */
export const coreError = errorFactory(CORE_ERRORS);
