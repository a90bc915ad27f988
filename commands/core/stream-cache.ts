import type { Decider } from '../../domain/core/decider.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import { setNewest } from '../../infra/core/bounded.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';

/**
 * Aggregate states kept in memory and brought up to date on every load by reading only the events after
 * the revision already folded: one indexed query that usually returns nothing, instead of reading and
 * parsing the whole stream. Always as current as a full read (the store answers the newer events), so it
 * is safe for decisions (a deleted bus, a disabled client); only the memory is saved. Bounded: the least
 * recently loaded streams are forgotten first.
 */
export type StreamCache<S> = {
  /** the stream's state now, and its revision (-1: no stream) */
  load(stream: string): Promise<{ state: S; revision: number }>;
};

export function createStreamCache<E extends DomainEvent, S>(
  eventStore: EventStore,
  decider: Pick<Decider<never, E, S>, 'initialState' | 'evolve'>,
  o: { maxEntries?: number } = {},
): StreamCache<S> {
  const max = o.maxEntries ?? 10_000;
  const entries = new Map<string, { state: S; revision: number }>();

  return {
    async load(stream) {
      const cached = entries.get(stream);
      const from = cached === undefined ? 0 : cached.revision + 1;
      const newer = await eventStore.readStream(stream, { fromRevision: from });
      let state = cached?.state ?? decider.initialState();
      let revision = cached?.revision ?? -1;
      for (const e of newer) {
        state = decider.evolve(state, e as unknown as E);
        revision = e.revision;
      }
      const entry = { state, revision };
      setNewest(entries, stream, entry, max); // most recently used last
      return entry;
    },
  };
}
