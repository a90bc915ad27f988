import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

/**
 * The operations API's error codes with the HTTP status each is answered with. Codes every service
 * shares (REQUEST.INVALID, AUTH.*) are in domain/core/core.errors.ts.
 */
export const OPS_ERRORS = {
  /** the path names no projection of the platform */
  'PROJECTION.NOT_FOUND': 404,
  /** a rebuild of that projection is running (one at a time per projection) */
  'REBUILD.RUNNING': 409,
  'REBUILD.NOT_FOUND': 404,
  /** the incident view: the stream has no event at that revision */
  'STREAM.REVISION_NOT_FOUND': 404,
  /** the incident view: no decider folds the stream's category, so it has no aggregate state */
  'STREAM.NO_STATE': 404,
  /** the token is not of an operator tenant (the platform tenant or the seed tenant) */
  'OPS.TENANT_FORBIDDEN': 403,
} as const satisfies ErrorCatalog;

export type OpsErrorCode = keyof typeof OPS_ERRORS;

/** `opsError('PROJECTION.NOT_FOUND', 'no projection x')`: a DomainError with the catalog's status. */
export const opsError = errorFactory(OPS_ERRORS);
