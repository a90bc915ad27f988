import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

/**
 * The identity provider's error codes with the HTTP status each is answered with (DESIGN "Services as
 * modules": per service, its error codes live once). Thrown through `identityError(code, …)`: the code is a
 * key of this table and the status comes from it. Codes every service shares (REQUEST.INVALID,
 * TENANT.FORBIDDEN, CONCURRENCY.CONFLICT …) are in domain/core/core.errors.ts. The OAuth endpoints answer
 * RFC 6749 errors instead (commands/identity/oauth.error.ts maps the grant and code refusals below).
 *
 * spec/domain/identity/identity.errors.spec.ts scans the identity sources: every code they name is in a
 * catalog, and every literal (code, status) pair agrees with it.
 */
export const IDENTITY_ERRORS = {
  // tenants
  'TENANT.INVALID': 400,
  'TENANT.NOT_FOUND': 404,
  'TENANT.ALREADY_EXISTS': 409,

  // users
  'USER.INVALID': 400,
  'USER.NOT_FOUND': 404,
  'USER.ALREADY_EXISTS': 409,
  'USER.USERNAME_TAKEN': 409,

  // clients
  'CLIENT.INVALID': 400,
  'CLIENT.NO_SECRET': 400,
  /** a tenant admin naming another tenant in allowed_access_tenants */
  'CLIENT.CROSS_TENANT_FORBIDDEN': 403,
  'CLIENT.NOT_FOUND': 404,
  'CLIENT.ALREADY_EXISTS': 409,

  // authorization codes (refusals at redemption are the caller's: 400, invalid_grant on the wire)
  'CODE.NOT_FOUND': 400,
  'CODE.CLIENT_MISMATCH': 400,
  'CODE.EXPIRED': 400,
  'CODE.REDIRECT_URI_MISMATCH': 400,
  'CODE.PKCE_REQUIRED': 400,
  'CODE.PKCE_FAILED': 400,
  'CODE.PKCE_UNEXPECTED': 400,
  'CODE.ALREADY_ISSUED': 409,

  // exchange codes
  'EXCHANGE_CODE.NOT_FOUND': 400,
  'EXCHANGE_CODE.USED': 400,
  'EXCHANGE_CODE.EXPIRED': 400,
  'EXCHANGE_CODE.WRONG_AUDIENCE': 400,
  'EXCHANGE_CODE.TENANT_MISMATCH': 400,
  'EXCHANGE_CODE.EXISTS': 409,

  // grants (refresh tokens; refusals are invalid_grant / invalid_scope on the wire)
  'GRANT.INVALID': 400,
  'GRANT.NOT_FOUND': 400,
  'GRANT.CLIENT_MISMATCH': 400,
  'GRANT.REVOKED': 400,
  'GRANT.REFRESH_TOKEN_EXPIRED': 400,
  'GRANT.INVALID_SCOPE': 400,
  'GRANT.EXISTS': 409,

  // sessions and signing keys
  'SESSION.ALREADY_STARTED': 409,
  'SIGNING_KEY.INVALID': 400,
  'SIGNING_KEY.PRIVATE_PART_IN_PUBLIC_JWK': 400,
  'SIGNING_KEY.NOT_FOUND': 404,
  'SIGNING_KEY.EXISTS': 409,
  'SIGNING_KEY.NOT_RETIRED': 409,
  'SIGNING_KEY.STILL_NEEDED': 409,
} as const satisfies ErrorCatalog;

export type IdentityErrorCode = keyof typeof IDENTITY_ERRORS;

/** `identityError('USER.NOT_FOUND', 'no such user')`: a DomainError with the catalog's status. */
export const identityError = errorFactory(IDENTITY_ERRORS);
