import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

/**
 * The workflow engine's error codes with the HTTP status each is answered with (the spec leaves the
 * status mapping open: "HTTP status mapping of workflow errors: not shown"). A request the schema accepts
 * but the process cannot move with (no gateway condition matches, an expression cannot be evaluated) is a
 * 422: the definition and the variables disagree, the request is not malformed. A command on something in
 * the wrong state (a task already completed) is a 409. Codes every service shares are in core.errors.ts.
 */
export const WORKFLOW_ERRORS = {
  // deployment
  /** the XML cannot be parsed (details: line, column) */
  'DEPLOYMENT.INVALID_XML': 400,
  /** an element the engine does not run (details: element, id, line) */
  'DEPLOYMENT.UNSUPPORTED_ELEMENT': 400,
  /** a structural problem: a flow to nowhere, two start events, an expression that does not parse … */
  'DEPLOYMENT.INVALID': 400,
  'DEPLOYMENT.NO_FILES': 400,
  'DEPLOYMENT.NOT_FOUND': 404,

  // definitions
  'DEFINITION.NOT_FOUND': 404,

  // instances and tasks
  'START.INVALID': 400,
  'COMPLETE.INVALID': 400,
  'PROCESS_INSTANCE.NOT_FOUND': 404,
  'PROCESS_INSTANCE.NOT_ACTIVE': 409,
  /** a loop of elements without a wait state */
  'PROCESS_INSTANCE.STEP_LIMIT': 422,
  'TASK.NOT_FOUND': 404,
  /** completing a task that is completed or canceled (a duplicate submission) */
  'TASK.NOT_OPEN': 409,
  /** a claim (or an unclaim naming its assignee) of a task another assignee holds */
  'TASK.CLAIMED_BY_ANOTHER': 409,
  'TIMER.NOT_FOUND': 404,
  'TIMER.NOT_PENDING': 409,
  /** "Error while evaluating expression: ${assignee}" */
  'EXPRESSION.EVALUATION_FAILED': 422,
  /** "No outgoing sequence flow of the exclusive gateway '<id>' could be selected" */
  'GATEWAY.NO_OUTGOING_FLOW': 422,
  /** a call activity names a process that is not deployed (with its binding) */
  'CALLED_PROCESS.NOT_FOUND': 422,

  // tenants and index schemas
  /** the token's tenant has not been enabled for the workflow (POST /admin/tenants/{tenant}/enable) */
  'WORKFLOW.TENANT_NOT_ENABLED': 409,
  'INDEX_SCHEMA.INVALID': 400,
  'INDEX_SCHEMA.NOT_FOUND': 404,
  'SEARCH.INVALID': 400,
} as const satisfies ErrorCatalog;

export type WorkflowErrorCode = keyof typeof WORKFLOW_ERRORS;

/** `workflowError('TASK.NOT_OPEN', message, details)`: a DomainError with the catalog's status. */
export const workflowError = errorFactory(WORKFLOW_ERRORS);
