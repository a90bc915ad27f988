import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

/**
 * The event bridge's error codes with the HTTP status each is answered with (DESIGN "Services as modules":
 * per service, its error codes live once). Every bridge error is thrown through `bridgeError(code, …)`, whose
 * code is a key of this table, so TypeScript refuses a code that is not here and the status cannot drift
 * between the decider, the command and the router that throw it. Codes every service shares
 * (REQUEST.INVALID, CONCURRENCY.CONFLICT, TENANT.FORBIDDEN …) are in domain/core/core.errors.ts.
 *
 * spec/domain/bridge/bridge.errors.spec.ts scans the bridge's sources: every code they name is in a
 * catalog, and every literal (code, status) pair agrees with it.
 */
export const BRIDGE_ERRORS = {
  // buses and event sources
  'BUS.INVALID': 400,
  'BUS.NAME_RESERVED': 400,
  'BUS.FORBIDDEN': 403,
  'BUS.NOT_FOUND': 404,
  'BUS.EXISTS': 409,
  'SOURCE.INVALID': 400,
  'SOURCE.PLATFORM_BUS_ONLY': 400,
  'SOURCE.FORBIDDEN': 403,
  /** the source is not registered to publish this event type on this bus */
  'SOURCE.TYPE_NOT_ALLOWED': 403,

  // published events (putEvent, putEvents)
  'EVENT.INVALID': 400,
  'EVENT.BATCH_SIZE': 400,
  'EVENT.SCHEMA_VIOLATION': 400,
  /** the SDK receiver's answer to a payload that is not JSON */
  'EVENT.NOT_JSON': 400,
  'EVENT.NOT_FOUND': 404,
  'EVENT.DUPLICATE': 409,
  'EVENT.TOO_LARGE': 413,

  // rules, patterns, configuration
  'RULE.INVALID': 400,
  'RULE.BUS_IMMUTABLE': 400,
  'RULE.PLATFORM_FORBIDDEN': 403,
  'RULE.NOT_FOUND': 404,
  'RULE.ALREADY_EXISTS': 409,
  'PATTERN.INVALID': 400,
  'CONFIG.INVALID': 400,
  'CONFIG.NOT_FOUND': 404,
  /** the service registry (preset HTTP client targets) */
  'SERVICE.INVALID': 400,
  'SERVICE.FORBIDDEN': 403,
  'SERVICE.NOT_FOUND': 404,

  // schema registry
  'SCHEMA.INVALID': 400,
  /** a stored version the validator cannot compile (only a converter change could cause it) */
  'SCHEMA.UNUSABLE': 400,
  'SCHEMA.FORBIDDEN': 403,
  /** the schema the path names */
  'SCHEMA.NOT_FOUND': 404,
  /** a request field (putEvent's dataSchemaId, an event source's schemaId) names a schema the registry does not have */
  'SCHEMA.UNKNOWN': 400,
  'SCHEMA.VERSION_NOT_FOUND': 404,
  'SCHEMA.ALREADY_EXISTS': 409,
  'SCHEMA.DELETED': 409,
  'SCHEMA.VERSION_IMMUTABLE': 409,
  'SCHEMA.TOO_MANY_VERSIONS': 409,
  'SCHEMA.TOO_LARGE': 413,

  // trace
  'TRACE.NOT_FOUND': 404,

  // connections and API destinations
  'CONNECTION.INVALID': 400,
  'CONNECTION.NOT_FOUND': 404,
  'CONNECTION.EXISTS': 409,
  'CONNECTION.IN_USE': 409,
  'API_DESTINATION.INVALID': 400,
  'API_DESTINATION.NOT_FOUND': 404,
  'API_DESTINATION.EXISTS': 409,

  // deliveries, dead letters, blocked rule targets: a command in the wrong state is a 409
  'DELIVERY.NOT_FOUND': 404,
  'DELIVERY.NO_SUCH_ATTEMPT': 409,
  'DELIVERY.IN_FLIGHT': 409,
  'DELIVERY.NOT_PENDING': 409,
  'DELIVERY.NOT_DUE': 409,
  'DELIVERY.NOT_IN_FLIGHT': 409,
  'DELIVERY.NOT_EXHAUSTED': 409,
  'DELIVERY.NOT_DEAD_LETTERED': 409,
  'DELIVERY.NOT_BLOCKED': 409,
  'DEAD_LETTER.NOT_FOUND': 404,
  'RULE_TARGET.NOT_BLOCKED': 409,

  // the platform message queue and the users' inboxes
  'MQ.INVALID_MESSAGE': 400,
  'MQ.TOPIC_INVALID': 400,
  'MQ.GROUP_INVALID': 400,
  'MQ.OFFSET_INVALID': 400,
  'USER_MESSAGE.INVALID': 400,
  'USER_MESSAGE.NOT_FOUND': 404,
} as const satisfies ErrorCatalog;

export type BridgeErrorCode = keyof typeof BRIDGE_ERRORS;

/** `bridgeError('RULE.NOT_FOUND', 'no such rule', details)`: a DomainError with the catalog's status. */
export const bridgeError = errorFactory(BRIDGE_ERRORS);
