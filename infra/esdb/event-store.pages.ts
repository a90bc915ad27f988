import type { Readable } from 'node:stream';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { LogPage } from '../core/event-store.port.ts';

/** What one item of the subscription's stream is to the pages: its log position, and the event if wanted. */
export type PageItem = {
  /** position of the delivered event, encoded; undefined when it has none (then it moves nothing) */
  position: string | undefined;
  /** undefined: delivered but not for the consumer (system event, outside the exact filter) */
  event: RecordedEvent | undefined;
};

export type PageGathererOptions = {
  /** exclusive: the position the consumer already has */
  after: string;
  /** largest page (events) */
  pageSize: number;
  /**
   * Least time between two empty pages (pages that only move the position past filtered-out events):
   * the server's checkpoints can come every few dozen events scanned, the consumers need only hear of
   * them now and then.
   */
  emptyPageIntervalMs: number;
  /** the clock for that interval; default Date.now */
  now?: () => number;
};

export type PageGatherer = {
  /**
   * A position the server vouches for: every event at or before it that the subscription delivers has
   * already been pushed into the stream (a filter checkpoint, or the head read before subscribing once
   * the server says the subscription caught up). Call it from the stream's own processing, in order.
   */
  mark(position: string): void;
  /**
   * The subscription's stream in pages: a page is handed over when pageSize events are gathered or when
   * no further item is buffered right now. While the consumer holds a page nothing is read, so the
   * stream's buffer fills up to its highWaterMark and the stream stops pulling from the network.
   * Throws the stream's error (after the events buffered before it), or `ended()` when the stream ends.
   */
  pages<T>(
    stream: Readable,
    item: (chunk: T) => PageItem,
    signal: AbortSignal,
    ended: () => Error,
  ): AsyncGenerator<LogPage>;
};

export function createPageGatherer(o: PageGathererOptions): PageGatherer {
  const now = o.now ?? Date.now;
  const pageSize = Math.max(1, Math.floor(o.pageSize));
  /** the highest mark so far; it counts only once the buffer is drained (the mark's events all read) */
  let marked: string | undefined;
  let poke: () => void = () => {};

  return {
    mark(position) {
      if (marked === undefined || position > marked) {
        marked = position;
        poke();
      }
    },

    pages<T>(stream: Readable, item: (chunk: T) => PageItem, signal: AbortSignal, ended: () => Error) {
      /** position of the last page handed over */
      let cursor = o.after;
      /** highest position of any item read from the stream, wanted or not */
      let seen = o.after;
      let lastEmptyPageAt = Number.NEGATIVE_INFINITY;
      let failure: { error: unknown } | undefined;
      let finished = false;
      let wake: (() => void) | undefined;
      const wakeUp = () => {
        const resolve = wake;
        wake = undefined;
        resolve?.();
      };
      const onError = (error: unknown) => {
        failure ??= { error };
        wakeUp();
      };
      const onEnd = () => {
        finished = true;
        wakeUp();
      };
      // listening starts now, not at the first next(): an error the stream reports before is not lost
      poke = wakeUp;
      stream.on('readable', wakeUp);
      stream.on('error', onError);
      stream.on('end', onEnd);
      stream.on('close', onEnd);
      signal.addEventListener('abort', wakeUp);
      return gather();

      async function* gather(): AsyncGenerator<LogPage> {
        try {
          for (;;) {
            if (signal.aborted) return;
            const events: RecordedEvent[] = [];
            let drained = false;
            while (events.length < pageSize) {
              const chunk = stream.read() as T | null;
              if (chunk === null) {
                drained = true;
                break;
              }
              const { position, event } = item(chunk);
              if (position === undefined || position <= seen) continue; // replayed or positionless
              seen = position;
              if (event) events.push(event);
            }
            // Drained: every item pushed before the latest mark has been read, so the mark is covered.
            const covered = drained && marked !== undefined && marked > seen ? marked : seen;
            if (events.length > 0) {
              cursor = covered;
              seen = covered;
              yield { events, position: covered };
              continue;
            }
            let waitMs: number | undefined;
            if (covered > cursor) {
              const dueIn = lastEmptyPageAt + o.emptyPageIntervalMs - now();
              if (dueIn <= 0) {
                cursor = covered;
                seen = covered;
                lastEmptyPageAt = now();
                yield { events: [], position: covered };
                continue;
              }
              waitMs = dueIn;
            }
            if (failure) throw failure.error;
            if (finished || stream.readableEnded || stream.destroyed) throw ended();
            await new Promise<void>((resolve) => {
              const timer = waitMs === undefined ? undefined : setTimeout(wakeUp, waitMs);
              wake = () => {
                if (timer !== undefined) clearTimeout(timer);
                resolve();
              };
            });
          }
        } finally {
          poke = () => {};
          wake = undefined;
          stream.off('readable', wakeUp);
          stream.off('error', onError);
          stream.off('end', onEnd);
          stream.off('close', onEnd);
          signal.removeEventListener('abort', wakeUp);
        }
      }
    },
  };
}
