import {
  ANY,
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  NotLeaderError,
  STREAM_EXISTS,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  AppendExpectedRevision,
  Filter,
  JSONType,
  Position,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type { EventEnvelope, EventMetadata, RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type {
  AllFilter,
  AppendResult,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeAllOptions,
} from '../core/event-store.port.ts';
import { POSITION_DIGITS, START } from '../core/position.ts';
import { resilientSubscription } from '../core/resilient-subscription.ts';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../core/store-errors.ts';

export type EsdbEventStoreOptions = {
  /** e.g. `esdb://localhost:2113?tls=false` (KurrentDB's `kurrentdb://` servers speak the same gRPC API) */
  connectionString: string;
};

const STORE = 'eventstoredb';
const DEFAULT_READ_ALL_LIMIT = 1000;
/** an ordinary (non-system) stream that never exists: reading it proves the server answers */
const PING_STREAM = 'eventStorePing-platform.health';
const PING_DEADLINE_MS = 5_000;

/**
 * EventStoreDB positions are a (commit, prepare) pair of 64-bit numbers. They travel as 40 digits: the
 * commit zero-padded to 20, then the prepare zero-padded to 20, so text order is log order and
 * `positionValue()` (the leading 20 digits) is the commit position. START ('0' × 20) sorts before every
 * 40-digit position and means "the beginning of $all".
 */
export function encodeEsdbPosition(position: Position): string {
  return (
    position.commit.toString().padStart(POSITION_DIGITS, '0') +
    position.prepare.toString().padStart(POSITION_DIGITS, '0')
  );
}

export function decodeEsdbPosition(position: string): ReadPosition {
  if (position === START) return 'start';
  if (position.length === 2 * POSITION_DIGITS) {
    return { commit: BigInt(position.slice(0, POSITION_DIGITS)), prepare: BigInt(position.slice(POSITION_DIGITS)) };
  }
  // a bare 20-digit position: commit and prepare positions coincide for single-event writes
  const value = BigInt(position);
  return { commit: value, prepare: value };
}

export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  let closed = false;
  const closing = new AbortController();

  const assertOpen = () => {
    if (closed) throw new StoreUnavailableError(STORE, 'the event store is closed');
  };

  /** Connection trouble becomes StoreUnavailableError (503, the process stays up); anything else is kept. */
  const mapError = (error: unknown): unknown => {
    if (error instanceof StoreUnavailableError || error instanceof WrongExpectedRevisionError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (closed) return new StoreUnavailableError(STORE, 'the event store is closed', { cause: error });
    if (isConnectionError(error)) return new StoreUnavailableError(STORE, message, { cause: error });
    return error;
  };

  /** Every event of a stream read, in order; an unknown stream reads as []. */
  const readStreamEvents = async (
    stream: string,
    read: { direction: typeof FORWARDS | typeof BACKWARDS; fromRevision: bigint | 'start' | 'end'; maxCount?: number },
  ): Promise<RecordedEvent[]> => {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(stream, read)) {
        if (resolved.event) events.push(toRecorded(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw mapError(error);
    }
    return events;
  };

  /**
   * The stored result of an idempotent retry, when the batch's ids are in this stream in order; null when
   * the first id is not there. A partly stored batch is a programming error (ids come from the command).
   * EventStoreDB has no global id index, so an id stored in another stream is not detected here.
   */
  const storedBatch = async (stream: string, events: EventEnvelope[]): Promise<AppendResult | null> => {
    const first = events[0];
    if (!first) return null;
    const stored = await readStreamEvents(stream, { direction: FORWARDS, fromRevision: 'start' });
    const at = stored.findIndex((event) => event.id === first.id);
    if (at < 0) return null;
    const slice = stored.slice(at, at + events.length);
    const last = slice[slice.length - 1];
    if (!last || slice.length !== events.length || slice.some((event, i) => event.id !== events[i]?.id)) {
      throw new Error(`stream ${stream}: the batch starting with event ${first.id} is only partly stored`);
    }
    return { revision: last.revision, position: last.position };
  };

  /** Newest non-system event of $all read backwards from `from`, scanning past system events. */
  const lastUserEventPosition = async (): Promise<string> => {
    const batch = 500;
    let from: ReadPosition = END;
    let boundary: string | undefined;
    for (;;) {
      let count = 0;
      let found: string | undefined;
      let oldest: Position | undefined;
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: batch })) {
        count += 1;
        const event = resolved.event;
        if (!event) continue;
        oldest = event.position;
        const position = encodeEsdbPosition(event.position);
        if (boundary !== undefined && position >= boundary) continue;
        if (!found && !isSystemEvent(event)) found = position;
      }
      if (found) return found;
      if (count < batch || !oldest) return START;
      from = oldest;
      boundary = encodeEsdbPosition(oldest);
    }
  };

  /** One subscription attempt; the resilient wrapper reopens it after a failure. */
  async function* subscription(after: string, filter: AllFilter | undefined, signal: AbortSignal) {
    if (closed || signal.aborted) return;
    const live = client.subscribeToAll({ fromPosition: decodeEsdbPosition(after), filter: serverFilter(filter) });
    const stop = () => void live.unsubscribe().catch(() => {});
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const resolved of live) {
        const event = resolved.event;
        if (!event) continue;
        const position = encodeEsdbPosition(event.position);
        // the server filter is coarse (one of stream name / event type); the exact filter runs here
        if (position <= after || isSystemEvent(event) || !matches(filter, event.streamId, event.type)) continue;
        yield toRecorded(event, resolved.commitPosition);
      }
    } catch (error) {
      if (closed || signal.aborted) return;
      throw mapError(error);
    } finally {
      signal.removeEventListener('abort', stop);
      stop();
    }
    // A catch-up subscription never ends by itself: the connection went away without an error.
    if (!closed && !signal.aborted) throw new StoreUnavailableError(STORE, 'the subscription ended unexpectedly');
  }

  return {
    async append(stream, events, expected) {
      assertOpen();
      if (events.length === 0) {
        // Nothing to write, nothing to check: answer where the stream is (-1 / START when missing).
        const [last] = await readStreamEvents(stream, { direction: BACKWARDS, fromRevision: 'end', maxCount: 1 });
        return last ? { revision: last.revision, position: last.position } : { revision: -1, position: START };
      }
      try {
        const result = await client.appendToStream(stream, events.map(toEventData), {
          expectedRevision: toExpectedRevision(expected),
        });
        if (result.position) {
          const revision = Number(result.nextExpectedRevision);
          const reported = encodeEsdbPosition(result.position);
          if (events.length === 1) return { revision, position: reported };
          // The server reports one position per write (its commit position twice), which is not always
          // the last event's own (commit, prepare) pair in $all. Callers compare this position with
          // subscription checkpoints (read-your-writes), so read the exact one back: one more call, for
          // multi-event batches only.
          const [last] = await readStreamEvents(stream, {
            direction: FORWARDS,
            fromRevision: BigInt(revision),
            maxCount: 1,
          });
          return { revision, position: last && last.position !== START ? last.position : reported };
        }
        // The server answers an idempotent retry with "no position": look up where the batch was stored.
        const stored = await storedBatch(stream, events);
        if (stored) return stored;
        throw new Error(`stream ${stream}: append succeeded without a position and the events are not found`);
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          // An idempotent retry with a stale expected revision is still a success.
          const stored = await storedBatch(stream, events);
          if (stored) return stored;
          const actual = error.actualVersion;
          throw new WrongExpectedRevisionError(
            stream,
            expected,
            actual === NO_STREAM || actual < 0n ? 'no_stream' : Number(actual),
          );
        }
        throw mapError(error);
      }
    },

    async readStream(stream, options: ReadStreamOptions = {}) {
      assertOpen();
      if (options.limit !== undefined && options.limit <= 0) return [];
      const forwards = (options.direction ?? 'forwards') === 'forwards';
      return readStreamEvents(stream, {
        direction: forwards ? FORWARDS : BACKWARDS,
        fromRevision: options.fromRevision !== undefined ? BigInt(options.fromRevision) : forwards ? 'start' : 'end',
        ...(options.limit !== undefined ? { maxCount: options.limit } : {}),
      });
    },

    async readAll(options: ReadAllOptions = {}) {
      assertOpen();
      const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
      const forwards = (options.direction ?? 'forwards') === 'forwards';
      const after = options.after ?? START;
      const filter = options.filter;
      const page: RecordedEvent[] = [];
      if (limit <= 0) return page;
      // This client version has no server-side filter on reads: system events and the filter are applied
      // here, reading batches until the page is full or the log ends.
      const batch = Math.min(Math.max(limit, 64), 1000);
      // backwards, `after` is the exclusive upper bound in reading order; START (the default) means the end
      let boundary: string | undefined = forwards || after !== START ? after : undefined;
      let from: ReadPosition = boundary === undefined ? END : decodeEsdbPosition(boundary);
      const beyond = (position: string) =>
        boundary === undefined || (forwards ? position > boundary : position < boundary);
      try {
        for (;;) {
          let count = 0;
          let lastSeen: Position | undefined;
          for await (const resolved of client.readAll({
            direction: forwards ? FORWARDS : BACKWARDS,
            fromPosition: from,
            maxCount: batch,
          })) {
            count += 1;
            const event = resolved.event;
            if (!event) continue;
            lastSeen = event.position;
            if (page.length >= limit) continue; // drain the batch rather than leave the call hanging
            const position = encodeEsdbPosition(event.position);
            if (!beyond(position) || isSystemEvent(event) || !matches(filter, event.streamId, event.type)) continue;
            page.push(toRecorded(event, resolved.commitPosition));
          }
          if (page.length >= limit || count < batch || !lastSeen) return page;
          // reads start at (and include) the given position: the boundary skips it next time
          from = lastSeen;
          boundary = encodeEsdbPosition(lastSeen);
        }
      } catch (error) {
        throw mapError(error);
      }
    },

    subscribeAll(options: SubscribeAllOptions = {}) {
      const { after, filter, signal } = options;
      // close() ends every live subscription
      const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
      return resilientSubscription((from, readerSignal) => subscription(from, filter, readerSignal), {
        after,
        signal: stop,
      });
    },

    async headPosition() {
      assertOpen();
      try {
        return await lastUserEventPosition();
      } catch (error) {
        throw mapError(error);
      }
    },

    async ping() {
      assertOpen();
      try {
        for await (const _ of client.readStream(PING_STREAM, { maxCount: 1, deadline: PING_DEADLINE_MS })) {
          // an event would be fine too: the server answered
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return;
        const message = error instanceof Error ? error.message : String(error);
        throw new StoreUnavailableError(STORE, message, { cause: error });
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      await client.dispose();
    },
  };
}

function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected < 0 ? NO_STREAM : BigInt(expected);
  }
}

function toEventData(event: EventEnvelope) {
  // The client types data as a JSON object/array/string; any JSON value serialises the same way.
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata });
}

/** What servers before 22.6 put in the position of events read from a stream (they do not know it). */
const UNKNOWN_POSITION = 18446744073709551615n;

function toRecorded(event: EsdbRecordedEvent, commitPosition: bigint | undefined): RecordedEvent {
  // $all reads always carry the position; stream reads only on servers from 22.6 on. Without one the
  // event reads with position START: stream reads are for deciders, which go by revision.
  const known = event.position && event.position.commit !== UNKNOWN_POSITION ? event.position : undefined;
  const fallback =
    commitPosition !== undefined && commitPosition !== UNKNOWN_POSITION
      ? { commit: commitPosition, prepare: commitPosition }
      : undefined;
  const position = known ?? fallback;
  return {
    id: event.id,
    type: event.type,
    data: event.data as unknown,
    metadata: event.metadata as EventMetadata,
    stream: event.streamId,
    revision: Number(event.revision),
    position: position ? encodeEsdbPosition(position) : START,
  };
}

/** `$`-prefixed types and streams are the server's own (statistics, settings, projections' links). */
const isSystemEvent = (event: { type: string; streamId: string }) =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

function matches(filter: AllFilter | undefined, stream: string, type: string): boolean {
  const categories = filter?.categories;
  const types = filter?.eventTypes;
  if (categories?.length && !categories.includes(categoryOf(stream))) return false;
  if (types?.length && !types.includes(type)) return false;
  return true;
}

/**
 * The server filters on one thing only (stream name or event type): categories when given (usually the
 * most selective, and the category is a stream-name prefix up to the first `-`), else event types, else
 * just "no system events". The exact filter is applied again on the client.
 */
function serverFilter(filter: AllFilter | undefined): Filter {
  const categories = filter?.categories ?? [];
  const types = filter?.eventTypes ?? [];
  if (categories.length > 0) return streamNameFilter({ regex: `^(?:${categories.map(escapeRegex).join('|')})(?:-|$)` });
  if (types.length > 0) return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$` });
  return excludeSystemEvents();
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isConnectionError(error: unknown): boolean {
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError
  ) {
    return true;
  }
  const code = (error as { code?: unknown } | null)?.code;
  // raw gRPC statuses: 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE
  if (code === 4 || code === 14) return true;
  return error instanceof Error && /failed to discover|ECONNREFUSED|ECONNRESET|ENOTFOUND/i.test(error.message);
}
