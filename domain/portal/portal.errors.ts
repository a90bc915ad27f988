import { errorFactory } from '../core/core.errors.ts';

/**
 * The portal backend's error codes with their HTTP status (DESIGN "Services as modules"). The errors of
 * the APIs it passes requests to reach the browser unchanged; these are its own.
 */
export const PORTAL_ERRORS = {
  /** no session cookie, or a session that ended or expired */
  'PORTAL.NO_SESSION': 401,
  /** a call of /portal/api or the sign-out without the portal's header (another site's form or link) */
  'PORTAL.HEADER_REQUIRED': 403,
  /** /portal/api/<path> where the path is none of the platform's APIs */
  'PORTAL.NOT_PROXIED': 404,
  /** returnTo is not a path of the portal on this origin */
  'PORTAL.RETURN_TO_INVALID': 400,
  /** the identity provider could not be reached or answered what the portal cannot use */
  'PORTAL.PROVIDER_UNAVAILABLE': 502,
} as const;

export type PortalErrorCode = keyof typeof PORTAL_ERRORS;

export const portalError = errorFactory(PORTAL_ERRORS);
