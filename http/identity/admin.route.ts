import type { RequestHandler, Router } from 'express';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { ADMIN_BASE } from './identity.paths.ts';

/**
 * Declares one admin route: recorded for the OpenAPI document (`/cas/admin/v1/openapi.json`, with its
 * request schemas and `response`, the success body), request validated, then `handler`.
 */
export type AdminRoute = (
  method: HttpMethod,
  path: string,
  summary: string,
  schemas: RequestSchemas & { response?: JsonSchema },
  handler: RequestHandler,
  successStatus?: number,
) => void;

export const adminRoute =
  (router: Router, registry: RouteRegistry): AdminRoute =>
  (method, path, summary, schemas, handler, successStatus = 200) =>
    registry.route(
      router,
      { method, path: `${ADMIN_BASE}${path}`, summary, schemas, successStatus, tags: ['identity admin'] },
      handler,
    );
