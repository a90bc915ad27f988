import { type Decider, fold } from '../../domain/core/decider.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';

/**
 * An aggregate's state folded from its whole stream, with the revision it was read at (-1: no stream), for a
 * read or for a command given `from` so the handler need not read the stream again.
 */
export async function loadAggregate<C, E extends DomainEvent, S>(
  eventStore: EventStore,
  decider: Decider<C, E, S>,
  stream: string,
): Promise<{ state: S; revision: number }> {
  const events = await eventStore.readStream(stream);
  return { state: fold(decider, events as unknown as E[]), revision: events.length - 1 };
}
