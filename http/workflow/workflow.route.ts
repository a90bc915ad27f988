import type { Request, Response, Router } from 'express';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { WORKFLOW_BASES } from './workflow.paths.ts';

export type WorkflowHandler = (req: Request, res: Response, base: string) => Promise<void> | void;

/** Declares a route under both bases (in-cluster and external); the handler learns which one was used (for links). */
export function workflowRoute(
  registry: RouteRegistry,
  router: Router,
  o: {
    method: HttpMethod;
    path: string;
    summary: string;
    schemas: RequestSchemas & { response?: JsonSchema };
    tags: string[];
    successStatus?: number;
    requestContentType?: string;
  },
  handler: WorkflowHandler,
): void {
  for (const base of WORKFLOW_BASES) {
    registry.route(
      router,
      {
        method: o.method,
        path: `${base}${o.path}`,
        summary: o.summary,
        schemas: o.schemas,
        tags: o.tags,
        ...(o.successStatus !== undefined && { successStatus: o.successStatus }),
        ...(o.requestContentType !== undefined && { requestContentType: o.requestContentType }),
      },
      (req, res) => handler(req, res, base),
    );
  }
}
