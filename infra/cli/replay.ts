import type { RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type { EventStore } from '../core/event-store.port.ts';
import type { DeciderRegistry } from '../platform-service.ts';
import { redactSecrets } from './redact.ts';

export type ReplayQuery =
  | { kind: 'stream'; stream: string }
  | { kind: 'correlation'; correlationId: string }
  | { kind: 'window'; from: string; to: string; category?: string };

const PAGE = 1000;

/**
 * The events of an incident, oldest first, streamed page by page: one stream, everything that shares a
 * correlation id, or a time window (by `occurredAt`, optionally one category).
 */
export async function* replayEvents(store: EventStore, q: ReplayQuery): AsyncGenerator<RecordedEvent> {
  if (q.kind === 'stream') {
    let from = 0;
    while (true) {
      const page = await store.readStream(q.stream, { fromRevision: from, limit: PAGE });
      yield* page;
      if (page.length < PAGE) return;
      from = page[page.length - 1]!.revision + 1;
    }
  }
  const filter = q.kind === 'window' && q.category ? { categories: [q.category] } : undefined;
  let after: string | undefined;
  while (true) {
    const page = await store.readAll({ ...(after !== undefined && { after }), ...(filter && { filter }), limit: PAGE });
    for (const e of page) {
      if (
        q.kind === 'correlation'
          ? e.metadata.correlationId === q.correlationId || e.metadata.causationId === q.correlationId
          : e.metadata.occurredAt >= q.from && e.metadata.occurredAt <= q.to
      )
        yield e;
    }
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.position;
  }
}

const MAX_DATA = 160;

/** One readable line per event: time, stream@revision, type, key data (compact, cut to one line). */
export function timelineLine(e: RecordedEvent): string {
  // secrets never (redact.ts): sealed values, secret configuration values, password and secret hashes
  let data = JSON.stringify(redactSecrets(e.data)) ?? '';
  if (data.length > MAX_DATA) data = `${data.slice(0, MAX_DATA - 1)}…`;
  const who = e.metadata.actor ? ` by ${e.metadata.actor}` : '';
  return `${e.metadata.occurredAt}  ${e.stream}@${e.revision}  ${e.type}${who}  ${data}`;
}

/**
 * Prints the timeline; with `state`, the aggregate state after each event, folded by the stream category's
 * decider (`evolve`), one state per stream.
 */
export async function replay(
  store: EventStore,
  q: ReplayQuery,
  options: { state?: boolean; deciders?: DeciderRegistry; write: (line: string) => void },
): Promise<number> {
  const states = new Map<string, unknown>();
  let count = 0;
  for await (const e of replayEvents(store, q)) {
    count++;
    options.write(timelineLine(e));
    if (!options.state) continue;
    const decider = options.deciders?.[categoryOf(e.stream)];
    if (!decider) {
      options.write(`    state: (no decider registered for category "${categoryOf(e.stream)}")`);
      continue;
    }
    const before = states.has(e.stream) ? states.get(e.stream) : decider.initialState();
    const after = decider.evolve(before, e);
    states.set(e.stream, after);
    options.write(`    state: ${JSON.stringify(redactSecrets(after))}`);
  }
  options.write(`${count} event(s)`);
  return count;
}
