import type { RequestHandler, Router } from 'express';
import type { JsonSchema, RequestSchemas } from './validate.ts';
import { validate } from './validate.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the OpenAPI document says about one route. `path` uses express syntax (`/rules/:id`). */
export type RouteDescription = {
  method: HttpMethod;
  path: string;
  summary?: string;
  schemas: RequestSchemas & {
    /** the success body */
    response?: JsonSchema;
  };
  /** success status, default 200 */
  successStatus?: number;
  /** body media type, default application/json (the OAuth token endpoint takes a form) */
  requestContentType?: string;
  tags?: string[];
};

/**
 * The routes one service router declares, in declaration order. A service keeps one registry beside its
 * router and serves `openApiDocument(title, registry)` from it.
 */
export type RouteRegistry = {
  readonly routes: readonly RouteDescription[];
  /** records a route for the OpenAPI document (no validation, no handler) */
  describeRoute(description: RouteDescription): RouteDescription;
  /**
   * Declares a route in one place: records it, validates the request against its schemas, then runs the
   * handlers. `registry.route(router, { method: 'get', path: '/rules/:id', schemas }, handler)`.
   */
  route(router: Router, description: RouteDescription, ...handlers: RequestHandler[]): void;
};

export function createRouteRegistry(): RouteRegistry {
  const routes: RouteDescription[] = [];
  const describeRoute = (description: RouteDescription): RouteDescription => {
    routes.push(description);
    return description;
  };
  return {
    routes,
    describeRoute,
    route(router, description, ...handlers) {
      describeRoute(description);
      const { response: _response, ...requestSchemas } = description.schemas;
      router[description.method](
        description.path,
        validate(requestSchemas, { bodyType: description.requestContentType }),
        ...handlers,
      );
    },
  };
}
