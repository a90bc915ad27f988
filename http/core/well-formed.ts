import type { RequestHandler } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { illFormedIssue, type ValidationIssue } from './validate.ts';

/** 400 REQUEST.INVALID for one field holding a lone surrogate, worded as validate() words its issues */
const illFormedProblem = (issue: ValidationIssue) =>
  coreError(
    'REQUEST.INVALID',
    `request validation failed: ${issue.field === '' ? issue.in : `${issue.in}.${issue.field}`} ${issue.message}`,
    [issue],
  );

/**
 * Every parsed body, before any router sees it: a string or key holding a lone surrogate is 400
 * REQUEST.INVALID naming the field, whatever the route (ids, stream names, keys and hashes are made from
 * these strings; domain/core/well-formed.ts). Query strings and path segments cannot carry one (their
 * percent-decoding yields U+FFFD or a 400); validate() checks them all the same.
 */
export function wellFormedBodies(): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null) return next();
    const issue = illFormedIssue('body', body);
    next(issue === null ? undefined : illFormedProblem(issue));
  };
}
