import type { RequestHandler } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import type { DomainError } from '../../domain/core/domain-error.ts';
import {
  checkJsonLimits,
  describeViolation,
  dottedPath,
  type JsonLimits,
  type LimitViolation,
  REQUEST_BODY_LIMITS,
} from '../../domain/core/input-limits.ts';

/**
 * The 400 for a request value past an input limit (domain/core/input-limits.ts):
 * `{ code: 'REQUEST.LIMIT_EXCEEDED', message, details: { in, path, limit, max } }`. `root` is where the
 * value sits in the request (`body`, or `body.event` for a part a route checks with stricter limits);
 * `path` is dotted from there, as REQUEST.INVALID names fields.
 */
export function limitExceeded(violation: LimitViolation, root: string): DomainError {
  const [part = 'body', ...within] = root.split('.');
  return coreError('REQUEST.LIMIT_EXCEEDED', `input limit exceeded: ${describeViolation(violation, root)}`, {
    in: part,
    path: dottedPath(violation.path, within.join('.')),
    limit: violation.limit,
    max: violation.max,
  });
}

/** Throws REQUEST.LIMIT_EXCEEDED when `value` (at `root` in the request) exceeds `limits`. */
export function assertWithinLimits(value: unknown, limits: JsonLimits, root: string): void {
  const violation = checkJsonLimits(value, limits);
  if (violation !== null) throw limitExceeded(violation, root);
}

/**
 * Every parsed JSON body against REQUEST_BODY_LIMITS, before any router sees it. It runs right after the
 * body parsers: JSON.parse itself copes with any depth, but nearly everything after it (JSON.stringify,
 * validators, the stores' JSON functions) is recursive or has a depth limit of its own. Form bodies
 * (flat, `extended: false`) pass through the same check at no real cost.
 */
export function jsonBodyLimits(limits: JsonLimits = REQUEST_BODY_LIMITS): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null) return next();
    const violation = checkJsonLimits(body, limits);
    next(violation === null ? undefined : limitExceeded(violation, 'body'));
  };
}
