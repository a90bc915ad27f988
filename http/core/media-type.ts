import type { Request, RequestHandler } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import type { DomainError } from '../../domain/core/domain-error.ts';

/** What a route's body is by default, and what it is answered as when another type comes. */
export const JSON_MEDIA_TYPE = 'application/json';
/** the types the JSON body parser reads (app.ts): `application/*+json` too, e.g. merge-patch */
const JSON_TYPES = [JSON_MEDIA_TYPE, 'application/*+json'];

/** a route's body type (RouteDescription.requestContentType) is JSON: parameters and case aside */
export const isJsonMediaType = (type: string | undefined): boolean => {
  const t = (type ?? JSON_MEDIA_TYPE).split(';')[0]!.trim().toLowerCase();
  return t === JSON_MEDIA_TYPE || (t.startsWith('application/') && t.endsWith('+json'));
};

/** bytes on the way: a chunked body, or a Content-Length other than 0 (an empty POST has no body to refuse) */
const hasBodyBytes = (req: Request): boolean => {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) !== 0;
};

const MAX_SHOWN_TYPE = 200;

/**
 * 415 REQUEST.UNSUPPORTED_MEDIA_TYPE for a body that is not JSON on a route whose body is: without this a
 * form body reached the route parsed as fields (`… is not an event field`) and a text/plain one as no body.
 * A request without a body passes (a route whose body is optional), and so does every JSON type.
 */
export function nonJsonBody(req: Request): DomainError | undefined {
  if (!hasBodyBytes(req) || req.is(JSON_TYPES) !== false) return undefined;
  const header = req.headers['content-type'];
  const received =
    header === undefined || header.trim() === ''
      ? null
      : header.split(';')[0]!.trim().toLowerCase().slice(0, MAX_SHOWN_TYPE);
  const sent = received === null ? 'a body without Content-Type' : received;
  return coreError(
    'REQUEST.UNSUPPORTED_MEDIA_TYPE',
    `the body must be ${JSON_MEDIA_TYPE} (send Content-Type: ${JSON_MEDIA_TYPE}), got ${sent}`,
    { expected: JSON_MEDIA_TYPE, received },
  );
}

/** nonJsonBody as a middleware, for a route that reads its JSON body without a body schema to validate */
export const requireJsonBody: RequestHandler = (req, _res, next) => next(nonJsonBody(req));
