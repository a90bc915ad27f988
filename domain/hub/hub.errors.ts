import { errorFactory, type ErrorCatalog } from '../core/core.errors.ts';

/**
 * The notification hub's error codes with the HTTP status each is answered with (DESIGN "Services as
 * modules": per service, its error codes live once). Every hub error is thrown through `hubError(code, …)`.
 * Codes every service shares (REQUEST.INVALID, CONCURRENCY.CONFLICT …) are in domain/core/core.errors.ts.
 * spec/domain/hub/hub.errors.spec.ts scans the hub's sources against this table.
 */
export const HUB_ERRORS = {
  // configuration resources
  'CHANNEL.INVALID': 400,
  'CHANNEL.NOT_FOUND': 404,
  'CHANNEL.EXISTS': 409,
  'DELIVERY_SERVICE.INVALID': 400,
  /** validateSettings and saves: the driver refuses the settings */
  'DELIVERY_SERVICE.SETTINGS_INVALID': 400,
  'DELIVERY_SERVICE.DRIVER_UNKNOWN': 400,
  'DELIVERY_SERVICE.NOT_FOUND': 404,
  'DELIVERY_SERVICE.EXISTS': 409,
  'TEMPLATE.INVALID': 400,
  'TEMPLATE.NOT_FOUND': 404,
  'TEMPLATE.EXISTS': 409,
  'CONTEXT.INVALID': 400,
  'CONTEXT.NOT_FOUND': 404,
  'CONTEXT.EXISTS': 409,
  'DEFINITION.INVALID': 400,
  'DEFINITION.NOT_FOUND': 404,
  'DEFINITION.EXISTS': 409,
  /** two selectable (enabled) versions of one NotificationCode would overlap in time */
  'DEFINITION.OVERLAP': 409,
  'DELIVERY_RULE.INVALID': 400,
  /** the rule's FEEL condition does not parse */
  'DELIVERY_RULE.CONDITION_INVALID': 400,
  'DELIVERY_RULE.NOT_FOUND': 404,
  'DELIVERY_RULE.EXISTS': 409,

  // send
  'SEND.INVALID': 400,
  /** Recipients break the recipient rules (unique role/channel, FALLBACK candidates' RecipientId) */
  'SEND.RECIPIENTS_INVALID': 400,
  /** no enabled definition version of the NotificationCode is effective now */
  'SEND.DEFINITION_NOT_FOUND': 404,
  /** the RequestId was accepted before with other content */
  'SEND.REQUEST_CONFLICT': 409,
  /** every message fails synchronous validation: nothing is stored */
  'SEND.NOT_SENDABLE': 422,

  // progress, snapshots, receipts
  'NOTIFICATION.NOT_FOUND': 404,
  'MESSAGE.NOT_FOUND': 404,
  /** a command for a message in a state that does not take it (a worker raced another) */
  'MESSAGE.STATE_CONFLICT': 409,
  'SNAPSHOT.NOT_FOUND': 404,
  'RECEIPT.INVALID': 400,
  /** X-Comm-Callback-Id names no attempt */
  'RECEIPT.UNKNOWN_CALLBACK': 404,
} as const satisfies ErrorCatalog;

export type HubErrorCode = keyof typeof HUB_ERRORS;

export const hubError = errorFactory(HUB_ERRORS);

/** one bad field of a hub request or resource */
export type Violation = { field: string; message: string };
