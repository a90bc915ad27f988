/**
 * The workflow engine's paths and scopes, in one place (DESIGN "Services as modules"). The spec gives an
 * in-cluster base and an external gateway prefix; both are served, every route at both.
 */
export { WORKFLOW_ADMIN_SCOPE, WORKFLOW_SCOPES, WORKFLOW_USER_SCOPE } from '../../domain/workflow/workflow.scopes.ts';

/** in-cluster base */
export const WORKFLOW_BASE = '/workflow/v1';
/** the external gateway's path prefix */
export const WORKFLOW_EXTERNAL_BASE = '/api/platform/workflow/workflow/v1';
export const WORKFLOW_BASES = [WORKFLOW_BASE, WORKFLOW_EXTERNAL_BASE] as const;

/** the workflow's OpenAPI 3 document (public), under each base */
export const WORKFLOW_OPENAPI = '/openapi.json';
