import type { RequestHandler, Router } from 'express';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import type { RequestSchemas } from '../core/validate.ts';
import { ADMIN_BASE } from './identity.paths.ts';

/** Declares one admin route: recorded for the OpenAPI document, request validated, then `handler`. */
export type AdminRoute = (
  method: HttpMethod,
  path: string,
  summary: string,
  schemas: RequestSchemas,
  handler: RequestHandler,
  successStatus?: number,
) => void;

export const adminRoute =
  (router: Router, registry: RouteRegistry): AdminRoute =>
  (method, path, summary, schemas, handler, successStatus = 200) =>
    registry.route(router, { method, path: `${ADMIN_BASE}${path}`, summary, schemas, successStatus, tags: ['identity admin'] }, handler);
