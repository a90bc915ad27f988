/**
 * The operations API's paths and scope, in one place. The scope lives in
 * domain/operations/operations.scopes.ts so the seed can grant it.
 */
export { OPS_ADMIN_SCOPE, OPS_SCOPES } from '../../domain/operations/operations.scopes.ts';

export const OPS_BASE = '/ops/v1';
export const PROJECTIONS = `${OPS_BASE}/projections`;
export const PARKED = `${PROJECTIONS}/:name/parked`;
export const RETRY = `${PROJECTIONS}/:name/retry`;
export const REBUILD = `${PROJECTIONS}/:name/rebuild`;
export const REBUILDS = `${OPS_BASE}/rebuilds/:id`;
export const READINESS = `${OPS_BASE}/readiness`;
/** the incident view: `platform replay` and `replay --state` */
export const TIMELINE = `${OPS_BASE}/timeline`;
export const STREAM_STATE = `${OPS_BASE}/streams/:stream/state`;

/** the API's OpenAPI 3 document (public) */
export const OPS_OPENAPI_PATH = `${OPS_BASE}/openapi.json`;
