import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

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
  /** X-Comm-Callback-Id names no attempt */
  'RECEIPT.UNKNOWN_CALLBACK': 404,

  // previews, import/export, cache (domain/hub/preview.ts, config-bundle.ts; commands/hub/preview.queries.ts, config-bundle.commands.ts)
  /** a preview's input is not usable (an inline context, content, a mask pattern) */
  'PREVIEW.INVALID': 400,
  /** previewContent got both a saved (ContextDefinitionId / SamplePayload) and an inline Context */
  'PREVIEW.CONTEXT_MODE_CONFLICT': 400,
  /** the bundle fails validation as a whole: nothing was imported */
  'IMPORT.INVALID': 400,
  /** another import holds the lock of a resource group the bundle touches */
  'IMPORT.LOCKED': 409,
  /** a write after the dry run was refused (a concurrent edit outside imports): details say how far it got */
  'IMPORT.INCOMPLETE': 409,
  /** the cache bucket named is not the hub's */
  'CACHE.BUCKET_UNKNOWN': 404,

  // operator actions and housekeeping (notification.operator.decide.ts, commands/hub/operator.commands.ts)
  /** the action is not possible in the message's current state; details.Reason says why */
  'OPERATOR.NOT_ELIGIBLE': 409,
  /** a customer policy of the dispatch gate (quiet hours, preference, frequency cap) denies the manual retry: no attempt */
  'OPERATOR.DENIED_BY_POLICY': 409,
  /** `comm-hub.enabled` is false for the tenant: the hub sends nothing (sends are still stored); turn it on to retry */
  'HUB.DISABLED': 409,
  'HOUSEKEEPING.INVALID': 400,
  /** the notification changed between the job's check and its removal (it is kept) */
  'HOUSEKEEPING.NOT_ELIGIBLE': 409,

  // customer policies (docs/hub.md#customer-policies; preference, interaction, frequency-cap, frequency-quota, quiet-hours)
  'PREFERENCE.INVALID': 400,
  'PREFERENCE.NOT_FOUND': 404,
  'INTERACTION.INVALID': 400,
  'INTERACTION.NOT_FOUND': 404,
  /** the InteractionId was recorded with other content */
  'INTERACTION.EXISTS': 409,
  /** handling an interaction already HANDLED or DISMISSED the other way */
  'INTERACTION.STATE_CONFLICT': 409,
  'FREQUENCY_CAP.INVALID': 400,
  'FREQUENCY_CAP.NOT_FOUND': 404,
  'QUIET_HOURS.INVALID': 400,
  'QUIET_HOURS.NOT_FOUND': 404,
  /** a reservation would exceed the recipient's frequency cap (the dispatch gate suppresses the message) */
  'QUOTA.EXCEEDED': 409,

  // TCC (docs/hub.md#tcc; domain/hub/tcc.decider.ts)
  /** Confirm of a branch no Try prepared */
  'TCC.NOT_FOUND': 404,
  /** the branch was cancelled (or rolled back before its Try: the tombstone refuses the late Try) */
  'TCC.CANCELLED': 409,
  /** Cancel of a confirmed branch */
  'TCC.ALREADY_CONFIRMED': 409,
  /** a Try of the same branch with other content */
  'TCC.CONFLICT': 409,
  /** a claim or completion by a worker whose lease was taken over (or after the command completed) */
  'TCC.STALE_FENCE': 409,
} as const satisfies ErrorCatalog;

export type HubErrorCode = keyof typeof HUB_ERRORS;

export const hubError = errorFactory(HUB_ERRORS);

/** one bad field of a hub request or resource */
export type Violation = { field: string; message: string };
