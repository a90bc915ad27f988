import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';

/**
 * The event store port. Adapters: infra/sqlite (embedded default) and infra/esdb (EventStoreDB/KurrentDB).
 * Both pass spec/core/event-store.contract.ts.
 *
 * Positions are zero-padded decimal strings ordered as text. `START` is before the first event.
 * Revisions are 0-based per stream.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export type AllFilter = {
  /** stream categories (the part of the stream name before the first `-`) */
  categories?: string[];
  eventTypes?: string[];
};

export type AppendResult = {
  /** revision of the last event now in the stream */
  revision: number;
  /** global position of the last event appended (or of the already stored one on an idempotent retry) */
  position: string;
};

export type ReadStreamOptions = {
  direction?: 'forwards' | 'backwards';
  /** inclusive; default: start (forwards) or end (backwards) */
  fromRevision?: number;
  limit?: number;
};

export type ReadAllOptions = {
  /** exclusive: events strictly after this position; default START */
  after?: string;
  filter?: AllFilter;
  limit?: number;
  direction?: 'forwards' | 'backwards';
};

export type SubscribeAllOptions = {
  /** exclusive: the subscription delivers events strictly after this position */
  after?: string;
  filter?: AllFilter;
  /** aborting ends the iteration cleanly */
  signal?: AbortSignal;
};

export interface EventStore {
  /**
   * Appends atomically. Throws WrongExpectedRevisionError on a conflict. Re-appending events whose ids
   * are already stored in the stream is a no-op that answers the stored result (idempotent retry).
   */
  append(stream: string, events: EventEnvelope[], expected: ExpectedRevision): Promise<AppendResult>;
  /** An unknown stream reads as empty. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One page of the global log. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Catch-up then live. Backpressure: the next event is handed over only when the consumer asks for it
   * (`for await` body finished). When the connection drops it resubscribes after the last delivered event.
   */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  /** Position of the newest event, or START when the log is empty. */
  headPosition(): Promise<string>;
  /** Throws StoreUnavailableError when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
