/**
 * The audit service's paths (the spec's `{base_url}/<service_prefix>/1.0`, our service prefix
 * `/api/platform/audit`) and scopes, in one place. The scopes live in domain/audit/audit.scopes.ts so the
 * seed can grant them.
 */
export {
  AUDIT_ADMIN_SCOPE,
  AUDIT_READ_SCOPE,
  AUDIT_SCOPES,
  AUDIT_WRITE_SCOPE,
} from '../../domain/audit/audit.scopes.ts';

export const AUDIT_BASE = '/api/platform/audit/1.0';
/** the current version: log, metadata and operations */
export const AUDIT_V3 = `${AUDIT_BASE}/audit/v3`;
/** version 2: log/sync and log/query-many only, identical bodies (its X-Target-User header is accepted and ignored) */
export const AUDIT_V2 = `${AUDIT_BASE}/audit/v2`;
export const AUDIT_VERSIONS = [AUDIT_V3, AUDIT_V2] as const;

export const LOG_SYNC = '/log/sync';
export const LOG_QUERY_MANY = '/log/query-many';
export const LOG_EXPORT = `${AUDIT_V3}/log/export`;
export const MODULES = `${AUDIT_V3}/modules`;
export const WARNING_LEVELS = `${AUDIT_V3}/warning-levels`;
export const METADATA_EXPORT = `${AUDIT_V3}/metadata/export`;
export const METADATA_IMPORT = `${AUDIT_V3}/metadata/import`;
export const RECORDS = `${AUDIT_V3}/records`;
export const CHAIN = `${AUDIT_V3}/chain`;
export const VERIFY = `${AUDIT_V3}/verify`;
export const RETENTION = `${AUDIT_V3}/retention`;

/** the service's OpenAPI 3 document (public) */
export const AUDIT_OPENAPI_PATH = `${AUDIT_BASE}/openapi.json`;
