import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { unionFilter } from '../../infra/core/log-reader.ts';
import { maxPosition, START } from '../../infra/core/position.ts';
import type { ReadStore, ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { projectionFilter, wants } from './apply-batch.ts';
import { checkpoints, dropGeneration, ensureGeneration, initCheckpoint } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { projectionStore } from './projection-store.ts';
import { forgetGenerations } from './read-model.ts';

/**
 * `position`: how far the log has been covered; `head`: the log's head when the rebuild began (or the
 * position, once past it). The last report, on completion, has position == head: a filtered read ends at
 * the projections' last event, but every event after it up to the head was of other categories.
 */
export type RebuildProgress = { position: string; head: string; events: number; applied: number };

export type RebuildOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  /** events per page: a page is read once and applied in one read-store transaction (default 5000) */
  pageSize?: number;
  onProgress?: (p: RebuildProgress) => void;
};

type Target = { projection: Projection; generation: number };

/**
 * Builds a new generation of each projection's collections from position 0 beside its live one, in ONE
 * pass over the log: each page (thousands of events, memory stays flat whatever the log's size) is read
 * once and applied to every projection in one read-store transaction. Then, in one transaction, the last
 * events are applied and every checkpoint (and so every reader) moves to the new generation. The
 * generation before the previous one is dropped; the previous one stays until the next rebuild, so a
 * reader that resolved it a moment before the switch still reads a complete collection.
 */
export async function rebuildProjections(
  o: RebuildOptions & { projections: Projection[] },
): Promise<{ position: string; events: number; generations: Record<string, number> }> {
  const { eventStore, readStore, clock } = o;
  const pageSize = o.pageSize ?? 5000;
  const targets: Target[] = [];
  for (const projection of o.projections) {
    const live = await initCheckpoint(readStore, projection, clock.now().toISOString());
    const generation = live.generation + 1;
    await dropGeneration(readStore, projection, generation); // leftovers of an interrupted rebuild
    await ensureGeneration(readStore, projection, generation);
    targets.push({ projection, generation });
  }
  const filter = unionFilter(o.projections.map(projectionFilter));
  const head = await eventStore.headPosition();
  let position = START;
  let events = 0;
  let applied = 0;

  const applyPage = async (page: RecordedEvent[], tx: ReadStoreSession) => {
    for (const { projection, generation } of targets) {
      const relevant = page.filter((e) => wants(projection, e));
      if (relevant.length === 0) continue;
      await projection.apply(
        relevant,
        projectionStore(tx, projection, generation, (name, spec) => readStore.ensureCollection(name, spec)),
      );
      applied += relevant.length;
    }
    events += page.length;
    position = page[page.length - 1]!.position;
  };
  const readPage = () => eventStore.readAll({ after: position, ...(filter && { filter }), limit: pageSize });

  // Bulk phase: outside the switch transaction, one transaction per page.
  while (true) {
    const page = await readPage();
    if (page.length === 0) break;
    await readStore.transaction((tx) => applyPage(page, tx));
    o.onProgress?.({ position, head, events, applied });
    if (page.length < pageSize) break;
  }

  // Switch phase: live writers of these projections wait on the transaction; read what came meanwhile.
  await readStore.transaction(async (tx) => {
    while (true) {
      const page = await readPage();
      if (page.length === 0) break;
      await applyPage(page, tx);
    }
    // everything up to the log's head is now in the new generations: readers and live consumers move over
    for (const { projection, generation } of targets) {
      await checkpoints(tx).upsert({
        id: projection.name,
        version: projection.version,
        generation,
        position,
        updatedAt: clock.now().toISOString(),
      });
    }
  });
  forgetGenerations(readStore); // this process's readers move over at once
  const end = maxPosition(position, head);
  o.onProgress?.({ position: end, head: end, events, applied });
  for (const { projection, generation } of targets) {
    if (generation > 2) await dropGeneration(readStore, projection, generation - 2);
  }
  return { position, events, generations: Object.fromEntries(targets.map((t) => [t.projection.name, t.generation])) };
}

/** One projection (`platform rebuild <projection>`, a version bump). */
export async function rebuildProjection(
  o: RebuildOptions & { projection: Projection },
): Promise<{ generation: number; position: string; events: number }> {
  const r = await rebuildProjections({ ...o, projections: [o.projection] });
  return { generation: r.generations[o.projection.name]!, position: r.position, events: r.events };
}
