import type { Position, ReadPosition } from '@eventstore/db-client';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import { dependencyOf } from '../core/append-dependency.ts';
import type {
  AppendRequest,
  AppendResult,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
} from '../core/event-store.port.ts';
import { START } from '../core/position.ts';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../core/store-errors.ts';
import {
  decodeEsdbPosition,
  encodeEsdbPosition,
  isConnectionError,
  isSystemEvent,
  matches,
  toEventData,
  toExpectedRevision,
  toRecorded,
} from './event-store.codec.ts';
import { createEsdbSubscriptions } from './event-store.subscriptions.ts';

export { decodeEsdbPosition, encodeEsdbPosition } from './event-store.codec.ts';

export type EsdbEventStoreOptions = {
  /** e.g. `esdb://localhost:2113?tls=false` (KurrentDB's `kurrentdb://` servers speak the same gRPC API) */
  connectionString: string;
  /**
   * Least time between two pages of subscribePages that carry no event, only a position moved forward by
   * the server's filter checkpoints past events nobody asked for; default 3 s.
   */
  emptyPageIntervalMs?: number;
};

export type EsdbEventStore = EventStore & {
  /**
   * Fails every live subscription's stream as a dropped connection would (for tests): the subscriptions
   * resubscribe after the last event or page they handed over.
   */
  interruptSubscriptions(): void;
};

const STORE = 'eventstoredb';
const DEFAULT_READ_ALL_LIMIT = 1000;
const DEFAULT_EMPTY_PAGE_INTERVAL_MS = 3_000;
/**
 * The filter's checkpoint interval multiplier: a checkpoint every 32 events the server scans. They are
 * small messages; what the consumers see of them is throttled by emptyPageIntervalMs.
 */
const CHECKPOINT_INTERVAL = 1;
/** an ordinary (non-system) stream that never exists: reading it proves the server answers */
const PING_STREAM = 'eventStorePing-platform.health';
const PING_DEADLINE_MS = 5_000;

export function createEsdbEventStore(options: EsdbEventStoreOptions): EsdbEventStore {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const emptyPageIntervalMs = options.emptyPageIntervalMs ?? DEFAULT_EMPTY_PAGE_INTERVAL_MS;
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

  const subscriptions = createEsdbSubscriptions({
    client,
    store: STORE,
    isClosed: () => closed,
    closing: closing.signal,
    mapError,
    emptyPageIntervalMs,
    checkpointInterval: CHECKPOINT_INTERVAL,
  });

  /** One append (the port's append, without the open check). */
  async function appendOne(stream: string, events: EventEnvelope[], expected: ExpectedRevision): Promise<AppendResult> {
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
  }

  return {
    async append(stream, events, expected) {
      assertOpen();
      return appendOne(stream, events, expected);
    },

    async appendMany(batch: AppendRequest[]) {
      assertOpen();
      // Pipelined on the one client: every stream's appends are sent at once, each atomic on its stream.
      // Entries for the same stream run one after the other, in batch order, as they would in one
      // transaction (sent together, the second could overtake the first).
      // An entry with `after` is sent once the entry it depends on answered, and only if that one went ahead.
      const dependencies = batch.map((entry, index) => dependencyOf(entry, index)); // all checked before any is sent
      const tails = new Map<string, Promise<unknown>>();
      const results: Array<Promise<AppendResult | WrongExpectedRevisionError>> = [];
      for (const [index, entry] of batch.entries()) {
        const previous = tails.get(entry.stream);
        const after = dependencies[index];
        const dependsOn = after === undefined ? undefined : results[after];
        const sent = async (): Promise<AppendResult | WrongExpectedRevisionError> => {
          const stopped = await dependsOn;
          if (stopped instanceof WrongExpectedRevisionError) return stopped;
          return appendOne(entry.stream, entry.events, entry.expected);
        };
        const result = previous ? previous.then(sent) : sent();
        tails.set(
          entry.stream,
          result.catch(() => {}),
        ); // the next entry of this stream runs whatever this one met
        results.push(
          result.catch((error: unknown) => {
            if (error instanceof WrongExpectedRevisionError) return error;
            throw error;
          }),
        );
      }
      return Promise.all(results);
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

    // close() ends every live subscription (the closing signal)
    subscribeAll: subscriptions.subscribeAll,
    subscribePages: subscriptions.subscribePages,
    interruptSubscriptions: subscriptions.interrupt,

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
