import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { START } from '../../infra/core/position.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { projectionFilter, wants } from './apply-batch.ts';
import { checkpoints, dropGeneration, ensureGeneration, initCheckpoint } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { projectionStore } from './projection-store.ts';

export type RebuildProgress = { position: string; head: string; events: number; applied: number };

export type RebuildOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: Projection;
  clock: Clock;
  pageSize?: number;
  onProgress?: (p: RebuildProgress) => void;
};

/**
 * Builds a new generation of the projection's collections from position 0 beside the live one, in pages
 * (memory stays flat whatever the log's size), then in one transaction applies the last events and points
 * the checkpoint (and so every reader) at the new generation. The generation before the previous one is
 * dropped; the previous one stays until the next rebuild, so a reader that resolved it a moment before the
 * switch still reads a complete collection.
 */
export async function rebuildProjection(o: RebuildOptions): Promise<{ generation: number; position: string; events: number }> {
  const { eventStore, readStore, projection, clock } = o;
  const pageSize = o.pageSize ?? 2000;
  const live = await initCheckpoint(readStore, projection, clock.now().toISOString());
  const generation = live.generation + 1;
  await dropGeneration(readStore, projection, generation); // leftovers of an interrupted rebuild
  await ensureGeneration(readStore, projection, generation);
  const filter = projectionFilter(projection);
  const head = await eventStore.headPosition();
  let position = START;
  let events = 0;
  let applied = 0;

  const applyPage = async (page: RecordedEvent[], tx: Parameters<Parameters<ReadStore['transaction']>[0]>[0]) => {
    const relevant = page.filter((e) => wants(projection, e));
    if (relevant.length > 0) await projection.apply(relevant, projectionStore(tx, projection, generation));
    events += page.length;
    applied += relevant.length;
    position = page[page.length - 1]!.position;
  };

  // Bulk phase: outside the switch transaction, one transaction per page.
  while (true) {
    const page = await eventStore.readAll({ after: position, filter, limit: pageSize });
    if (page.length === 0) break;
    await readStore.transaction((tx) => applyPage(page, tx));
    o.onProgress?.({ position, head, events, applied });
    if (page.length < pageSize) break;
  }

  // Switch phase: live writers of this projection wait on the transaction; read what came meanwhile.
  const result = await readStore.transaction(async (tx) => {
    while (true) {
      const page = await eventStore.readAll({ after: position, filter, limit: pageSize });
      if (page.length === 0) break;
      await applyPage(page, tx);
    }
    // everything up to the log's head is now in the new generation: readers and the live runner move over
    await checkpoints(tx).upsert({
      id: projection.name,
      version: projection.version,
      generation,
      position,
      updatedAt: clock.now().toISOString(),
    });
    return { generation, position, events };
  });
  o.onProgress?.({ position, head: position > head ? position : head, events, applied });
  if (generation > 2) await dropGeneration(readStore, projection, generation - 2);
  return result;
}
