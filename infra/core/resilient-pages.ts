import type { LogPage } from './event-store.port.ts';
import { START } from './position.ts';
import { abortableSleep } from './supervised-loop.ts';

/**
 * Opens the underlying page reader for events strictly after `after`. The signal is aborted when the
 * consumer stops; readers should end (or throw) promptly when it fires.
 */
export type OpenPages = (after: string, signal: AbortSignal) => AsyncIterable<LogPage>;

export type ResilientOptions = {
  /** exclusive start position; default START */
  after?: string;
  /** aborting ends the iteration cleanly, also while waiting for a page or to reconnect */
  signal?: AbortSignal;
  /** first reconnect delay, doubled after each consecutive failure; default 100 ms */
  initialDelayMs?: number;
  /** cap of the reconnect delay; default 5 s */
  maxDelayMs?: number;
  /** told about every failure before the wait (logging, metrics) */
  onError?: (error: unknown, retryInMs: number) => void;
};

/**
 * Keeps a page reader (`subscribePages`) alive across dropped connections, as resilientSubscription does
 * for single events: when the reader fails it waits (capped exponential backoff) and reopens after the
 * position of the last page handed over. Positions are ordered as text, so a replayed event (at or before
 * that position) is dropped from the page it comes in, and a page that brings neither a new event nor a
 * new position is not handed over: no event twice, none skipped, page positions strictly increasing.
 *
 * Backpressure: a pull-based async generator; the reader is asked for the next page only when the
 * consumer asks for it. A reader that ends without an error ends the iteration (store closed).
 */
export async function* resilientPages(
  open: OpenPages,
  options: ResilientOptions = {},
): AsyncGenerator<LogPage, void, undefined> {
  const { signal, onError } = options;
  const initialDelay = options.initialDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 5_000;
  let last = options.after ?? START;
  let delay = initialDelay;

  // Readers get our own signal, so that a consumer leaving the loop early (break/return) stops them too.
  const stop = new AbortController();
  const forward = () => stop.abort(signal?.reason);
  if (signal?.aborted) return;
  signal?.addEventListener('abort', forward, { once: true });

  try {
    while (!stop.signal.aborted) {
      const reader = open(last, stop.signal)[Symbol.asyncIterator]();
      let pending = false; // a next() still in flight cannot be interrupted by return()
      try {
        for (;;) {
          if (stop.signal.aborted) return;
          pending = true;
          const step = await untilAborted(reader.next(), stop.signal);
          if (step === ABORTED) return;
          pending = false;
          if (step.done) return;
          const page = fresh(step.value, last);
          if (!page) continue;
          last = page.position;
          delay = initialDelay; // the connection works again: the next failure starts the backoff anew
          yield page;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        onError?.(error, delay);
        await abortableSleep(delay, stop.signal);
        delay = Math.min(delay * 2, maxDelay);
      } finally {
        // Release the reader (unsubscribe). Awaiting it while its next() is in flight would wait for that
        // next() to settle, which may be never: fire and forget in that case.
        const done = reader.return?.();
        if (done) {
          if (pending) done.catch(() => {});
          else await done.catch(() => {});
        }
      }
    }
  } finally {
    signal?.removeEventListener('abort', forward);
    stop.abort();
  }
}

/** The part of `page` that is new after `last`, or undefined when nothing is. */
function fresh(page: LogPage, last: string): LogPage | undefined {
  const events =
    page.events[0] !== undefined && page.events[0].position <= last
      ? page.events.filter((event) => event.position > last)
      : page.events;
  const newest = events[events.length - 1]?.position;
  const position = newest !== undefined && newest > page.position ? newest : page.position;
  if (events.length === 0 && position <= last) return undefined;
  return events === page.events && position === page.position ? page : { events, position };
}

const ABORTED = Symbol('aborted');

/** Resolves with the promise, or with ABORTED as soon as the signal aborts (the promise is then left to settle alone). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.resolve(ABORTED);
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {}); // its eventual failure is of no interest any more
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
