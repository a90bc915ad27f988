import type { RecordedEvent } from '../../domain/core/event.ts';
import { START } from './position.ts';

/**
 * Opens the underlying reader for events strictly after `after`. The signal is aborted when the
 * subscriber stops; readers should end (or throw) promptly when it fires.
 */
export type OpenSubscription = (after: string, signal: AbortSignal) => AsyncIterable<RecordedEvent>;

export type ResilientSubscriptionOptions = {
  /** exclusive start position; default START */
  after?: string;
  /** aborting ends the iteration cleanly, also while waiting to reconnect */
  signal?: AbortSignal;
  /** first reconnect delay, doubled after each consecutive failure; default 100 ms */
  initialDelayMs?: number;
  /** cap of the reconnect delay; default 5 s */
  maxDelayMs?: number;
  /** told about every failure before the wait (logging, metrics) */
  onError?: (error: unknown, retryInMs: number) => void;
};

/**
 * Keeps a catch-up subscription alive across dropped connections: when the reader fails it waits
 * (capped exponential backoff) and reopens after the last delivered position. Positions are ordered as
 * text, so anything at or before the last delivered position is a replay and is dropped: no event is
 * delivered twice, and since the reader restarts exactly after the last delivered one, none is skipped.
 *
 * Backpressure: this is a pull-based async generator, the reader is only asked for the next event when
 * the consumer asks for it. A reader that ends without error ends the subscription (store closed).
 */
export async function* resilientSubscription(
  open: OpenSubscription,
  options: ResilientSubscriptionOptions = {},
): AsyncGenerator<RecordedEvent, void, undefined> {
  const { signal, onError } = options;
  const initialDelay = options.initialDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 5_000;
  let last = options.after ?? START;
  let delay = initialDelay;

  // One controller per subscription: readers get our signal (not only the caller's) so that a consumer
  // leaving the loop early (break/return) also stops the reader.
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
          if (step === ABORTED) return; // that next() is still in flight
          pending = false;
          if (step.done) return;
          const event = step.value;
          if (event.position <= last) continue; // replayed after a reconnect
          last = event.position;
          delay = initialDelay; // the connection works again: next failure starts the backoff anew
          yield event;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        onError?.(error, delay);
        if (!(await sleep(delay, stop.signal))) return;
        delay = Math.min(delay * 2, maxDelay);
      } finally {
        // Release the reader (unsubscribe, close cursors). Awaiting it while its next() is in flight would
        // wait for that next() to settle, which may be never: fire and forget in that case.
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

export const ABORTED = Symbol('aborted');

/** Resolves with the promise, or with ABORTED as soon as the signal aborts (the promise is then left to settle alone). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
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

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
