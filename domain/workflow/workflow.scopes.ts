/**
 * The workflow engine's scopes (DESIGN "Services as modules": per service, its scopes live once). Routers
 * (http/workflow) require them, the seed (infra/identity/seed.ts) grants them to the demo client.
 */

/** start process instances, complete tasks, read and search tasks, read instances and definitions */
export const WORKFLOW_USER_SCOPE = 'workflow:user';
/** deploy definitions, manage index schemas, enable tenants */
export const WORKFLOW_ADMIN_SCOPE = 'workflow:admin';

export const WORKFLOW_SCOPES = [WORKFLOW_USER_SCOPE, WORKFLOW_ADMIN_SCOPE] as const;
