import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
/**
 * The event store port. Adapters: infra/sqlite (embedded default) and infra/esdb (EventStoreDB/KurrentDB).
 * Both pass spec/core/event-store.contract.ts.
 *
 * Positions are zero-padded decimal strings ordered as text. `START` is before the first event.
 * Revisions are 0-based per stream.
 */
import type { ExpectedRevision } from './expected-revision.ts';
import type { WrongExpectedRevisionError } from './store-errors.ts';

export type { ExpectedRevision };

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

/**
 * One entry of appendMany: an append to one stream with its own expected revision. `after`: the index of
 * an earlier entry of the same batch this one depends on: it is appended only if that one went ahead
 * (appended, or answered as an idempotent retry); otherwise it writes nothing and answers that entry's
 * WrongExpectedRevisionError (putEvent's acceptance and the first attempts it starts: a duplicate starts none).
 */
export type AppendRequest = { stream: string; events: EventEnvelope[]; expected: ExpectedRevision; after?: number };

/**
 * A page of the global log as a process's log reader hands it out: the events in log order, and the
 * position the page covers up to. `position` is at least the last event's position; a filtered reader
 * that reached the head may set it further (to the head it saw), past events no consumer asked for.
 */
export type LogPage = { events: RecordedEvent[]; position: string };

export type SubscribePagesOptions = {
  /** exclusive: pages hold events strictly after this position; default START */
  after?: string;
  filter?: AllFilter;
  /** largest page (events); default 500 */
  pageSize?: number;
  /** aborting ends the iteration cleanly */
  signal?: AbortSignal;
};

export interface EventStore {
  /**
   * Appends atomically. Throws WrongExpectedRevisionError on a conflict. Re-appending events whose ids
   * are already stored in the stream is a no-op that answers the stored result (idempotent retry).
   */
  append(stream: string, events: EventEnvelope[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Several appends, each to its own stream with its own expected revision, committed together where the
   * store can (SQLite: one transaction, a savepoint per entry; EventStoreDB: pipelined appends, atomic per
   * stream; an entry with `after` is sent once its dependency answered). Answers per entry, in order, its
   * AppendResult or the WrongExpectedRevisionError it met: one entry's conflict does not fail the others,
   * except those that depend on it (AppendRequest.after). Other failures (store down) reject the whole call.
   */
  appendMany(batch: AppendRequest[]): Promise<Array<AppendResult | WrongExpectedRevisionError>>;
  /** An unknown stream reads as empty. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One page of the global log. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Catch-up then live. Backpressure: the next event is handed over only when the consumer asks for it
   * (`for await` body finished). When the connection drops it resubscribes after the last delivered event.
   */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  /**
   * The log in pages, catch-up then live: the shape of a process's one log reader (infra/core/log-reader).
   * The next page is read only when the consumer asks for it (backpressure). Live wake-ups are coalesced:
   * appends made through this store instance wake the reader at once (once per burst), appends by other
   * processes are noticed by one cheap probe per store instance (SQLite: `PRAGMA data_version`), never a
   * query per subscriber. EventStoreDB: one `$all` subscription with the filter applied on the server, whose
   * checkpoints move `position` past filtered-out events. Resubscribes after the last page when the
   * connection drops.
   */
  subscribePages(options?: SubscribePagesOptions): AsyncIterable<LogPage>;
  /** Position of the newest event, or START when the log is empty. */
  headPosition(): Promise<string>;
  /**
   * A counter that moves whenever the log may have grown: an append through this instance, or another
   * process's commit seen by the store's cheap probe (SQLite: `PRAGMA data_version`, a few µs). Only stores
   * that have such a probe offer it (not EventStoreDB, where it would be a round trip): the log reader's
   * pause under load ends early when the log stood still for a moment (LogReaderOptions.coalesceMs).
   */
  changes?(): number;
  /**
   * Position of the newest event in any stream of these categories (undefined: none), where the store can
   * answer it with an index seek (SQLite: max(position) per category, about a microsecond). Callers that
   * find it absent read `readAll({ direction: 'backwards', filter: { categories }, limit: 1 })` instead.
   */
  lastPositionIn?(categories: string[]): Promise<string | undefined>;
  /** Throws StoreUnavailableError when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
