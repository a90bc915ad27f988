import type { AllStreamResolvedEvent, AllStreamSubscription, EventStoreDBClient } from '@eventstore/db-client';
import { BACKWARDS, END } from '@eventstore/db-client';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { AllFilter, LogPage, SubscribeAllOptions, SubscribePagesOptions } from '../core/event-store.port.ts';
import { resilientPages } from '../core/resilient-pages.ts';
import { resilientSubscription } from '../core/resilient-subscription.ts';
import { StoreUnavailableError } from '../core/store-errors.ts';
import {
  decodeEsdbPosition,
  encodeEsdbPosition,
  isSystemEvent,
  isValidCheckpoint,
  matches,
  serverFilter,
  toRecorded,
} from './event-store.codec.ts';
import { createPageGatherer, type PageItem } from './event-store.pages.ts';

export type EsdbSubscriptionsOptions = {
  client: EventStoreDBClient;
  store: string;
  isClosed(): boolean;
  /** aborted when the store closes: ends every subscription */
  closing: AbortSignal;
  mapError(error: unknown): unknown;
  emptyPageIntervalMs: number;
  /** the filter's checkpoint interval multiplier (× 32 events scanned) */
  checkpointInterval: number;
};

const DEFAULT_PAGE_SIZE = 500;

/**
 * The live side of the EventStoreDB adapter: subscribeAll (one event at a time) and subscribePages (the
 * process's one log reader), both on `$all` with the filter applied by the server, both reopened after a
 * dropped connection by the resilient wrappers of infra/core.
 */
export function createEsdbSubscriptions(o: EsdbSubscriptionsOptions) {
  const { client } = o;
  /** the open subscriptions' streams, for interrupt() */
  const open = new Set<AllStreamSubscription>();

  /** Opens a $all subscription and keeps track of it; `release` unsubscribes and forgets it. */
  const subscribe = (
    options: Parameters<EventStoreDBClient['subscribeToAll']>[0],
    readable?: { highWaterMark: number },
  ) => {
    const stream = client.subscribeToAll(options, readable);
    // an error after the reader let go (or before it started) must not be an unhandled 'error' event
    stream.on('error', () => {});
    open.add(stream);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      open.delete(stream);
      // unsubscribe waits for the call to exist, which may be never while the server is away: not awaited
      stream.unsubscribe().then(
        () => stream.destroy(),
        () => stream.destroy(),
      );
    };
    return { stream, release };
  };

  const ended = () => new StoreUnavailableError(o.store, 'the subscription ended unexpectedly');

  /** One subscribeAll attempt; resilientSubscription reopens it after a failure. */
  async function* events(
    after: string,
    filter: AllFilter | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<RecordedEvent> {
    if (o.isClosed() || signal.aborted) return;
    const { stream, release } = subscribe({ fromPosition: decodeEsdbPosition(after), filter: serverFilter(filter) });
    signal.addEventListener('abort', release, { once: true });
    try {
      for await (const resolved of stream as AsyncIterable<AllStreamResolvedEvent>) {
        const event = resolved.event;
        if (!event) continue;
        const position = encodeEsdbPosition(event.position);
        // the server filter is coarse (one of stream name / event type); the exact filter runs here
        if (position <= after || isSystemEvent(event) || !matches(filter, event.streamId, event.type)) continue;
        yield toRecorded(event, resolved.commitPosition);
      }
    } catch (error) {
      if (o.isClosed() || signal.aborted) return;
      throw o.mapError(error);
    } finally {
      signal.removeEventListener('abort', release);
      release();
    }
    // A catch-up subscription never ends by itself: the connection went away without an error.
    if (!o.isClosed() && !signal.aborted) throw ended();
  }

  /** Position of the newest event of $all, system events included; undefined when the log is empty. */
  async function logEnd(): Promise<string | undefined> {
    for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      if (resolved.event) return encodeEsdbPosition(resolved.event.position);
    }
    return undefined;
  }

  /**
   * One subscribePages attempt; resilientPages reopens it after a failure. One $all subscription with the
   * server-side filter; its checkpoints, and the head read before subscribing once the server reports the
   * subscription caught up, move the pages' position past events the filter left out.
   *
   * Backpressure pauses reading while a page is handled. Servers before 23.10 drop a live subscription
   * whose client reads too slowly ("consumer too slow"): that arrives as an error, and resilientPages
   * subscribes again after the last page, catching up from there.
   */
  async function* pages(
    after: string,
    filter: AllFilter | undefined,
    pageSize: number,
    signal: AbortSignal,
  ): AsyncGenerator<LogPage> {
    if (o.isClosed() || signal.aborted) return;
    let head: string | undefined;
    try {
      // read before subscribing: once caught up, the subscription has delivered everything up to here
      head = await logEnd();
    } catch (error) {
      if (o.isClosed() || signal.aborted) return;
      throw o.mapError(error);
    }
    const gatherer = createPageGatherer({ after, pageSize, emptyPageIntervalMs: o.emptyPageIntervalMs });
    const { stream, release } = subscribe(
      {
        fromPosition: decodeEsdbPosition(after),
        filter: serverFilter(filter, {
          checkpointInterval: o.checkpointInterval,
          // called by the subscription's own stream processing, after the events before it were pushed
          checkpointReached: (_subscription, position) => {
            if (isValidCheckpoint(position)) gatherer.mark(encodeEsdbPosition(position));
          },
        }),
      },
      // a whole page can wait in the stream's buffer while the previous one is handled
      { highWaterMark: pageSize },
    );
    // servers from 23.10 on say when the subscription reaches the live edge (no position in the message)
    const onCaughtUp = () => {
      if (head !== undefined) gatherer.mark(head);
    };
    stream.on('caughtUp', onCaughtUp);
    try {
      yield* gatherer.pages(stream, (resolved: AllStreamResolvedEvent) => pageItem(resolved, filter), signal, ended);
    } catch (error) {
      if (o.isClosed() || signal.aborted) return;
      throw o.mapError(error);
    } finally {
      stream.off('caughtUp', onCaughtUp);
      release();
    }
  }

  return {
    subscribeAll(options: SubscribeAllOptions = {}): AsyncIterable<RecordedEvent> {
      const { after, filter, signal } = options;
      const stop = signal ? AbortSignal.any([signal, o.closing]) : o.closing;
      return resilientSubscription((from, readerSignal) => events(from, filter, readerSignal), { after, signal: stop });
    },

    subscribePages(options: SubscribePagesOptions = {}): AsyncIterable<LogPage> {
      const { after, filter, signal } = options;
      const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(pageSize) || pageSize < 1)
        throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
      const stop = signal ? AbortSignal.any([signal, o.closing]) : o.closing;
      return resilientPages((from, readerSignal) => pages(from, filter, pageSize, readerSignal), {
        after,
        signal: stop,
      });
    },

    /** fails every open subscription's stream, as a dropped connection would */
    interrupt() {
      for (const stream of [...open]) stream.destroy(new Error('eventstoredb subscription interrupted'));
    },
  };
}

function pageItem(resolved: AllStreamResolvedEvent, filter: AllFilter | undefined): PageItem {
  const event = resolved.event;
  if (!event) return { position: undefined, event: undefined };
  const wanted = !isSystemEvent(event) && matches(filter, event.streamId, event.type);
  return {
    position: encodeEsdbPosition(event.position),
    event: wanted ? toRecorded(event, resolved.commitPosition) : undefined,
  };
}
