import type { RecordedEvent } from '../../domain/core/event.ts';
import { type ResilientOptions, resilientPages } from './resilient-pages.ts';

/**
 * Opens the underlying reader for events strictly after `after`. The signal is aborted when the
 * subscriber stops; readers should end (or throw) promptly when it fires.
 */
export type OpenSubscription = (after: string, signal: AbortSignal) => AsyncIterable<RecordedEvent>;

export type ResilientSubscriptionOptions = ResilientOptions;

/**
 * Keeps a catch-up subscription alive across dropped connections: resilientPages over one-event pages.
 * When the reader fails it waits (capped exponential backoff) and reopens after the last delivered
 * position; anything at or before it is a replay and is dropped: no event is delivered twice, none is
 * skipped. Backpressure: the reader is only asked for the next event when the consumer asks for it. A
 * reader that ends without error ends the subscription (store closed).
 */
export async function* resilientSubscription(
  open: OpenSubscription,
  options: ResilientSubscriptionOptions = {},
): AsyncGenerator<RecordedEvent, void, undefined> {
  async function* asPages(after: string, signal: AbortSignal) {
    for await (const event of open(after, signal)) yield { events: [event], position: event.position };
  }
  for await (const page of resilientPages(asPages, options)) yield* page.events;
}
