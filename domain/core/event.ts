/**
 * The event envelope shared by every service (see ../shared/DESIGN.md, "Event sourcing").
 * `type` is PascalCase past tense; `metadata` says who, when, and why.
 */
export type EventMetadata = {
  tenant: string;
  actor?: string;
  correlationId?: string;
  causationId?: string;
  commandId?: string;
  /** ISO-8601 instant, set from the command's clock, never from inside a decider. */
  occurredAt: string;
  schemaVersion: number;
  [extra: string]: unknown;
};

/** What a decider emits: the fact, without the bookkeeping the command handler adds. */
export type DomainEvent<T extends string = string, D = unknown> = { type: T; data: D };

/** An event ready to append: the domain fact plus its id and metadata. */
export type EventEnvelope<T extends string = string, D = unknown> = DomainEvent<T, D> & {
  id: string;
  metadata: EventMetadata;
};

/**
 * An event as read back from the log. `revision` is its 0-based index in its stream; `position` is its
 * place in the global log as a zero-padded decimal string (never a bigint in JSON), ordered as text.
 */
export type RecordedEvent<T extends string = string, D = unknown> = EventEnvelope<T, D> & {
  stream: string;
  revision: number;
  position: string;
};
