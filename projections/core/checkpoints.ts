import { START } from '../../infra/core/position.ts';
import type { ReadStore, ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { CHECKPOINTS, isPartitionOf, type Projection, type ProjectionCheckpoint, physicalName } from './projection.ts';

export const checkpoints = (session: ReadStoreSession) => session.collection<ProjectionCheckpoint>(CHECKPOINTS);

export const readCheckpoint = (session: ReadStoreSession, name: string) => checkpoints(session).get(name);

/** Creates the collections of one generation with the projection's indexes (partitioned ones: on first use). */
export async function ensureGeneration(store: ReadStore, projection: Projection, generation: number): Promise<void> {
  for (const [name, spec] of Object.entries(projection.collections)) {
    if (spec.partitioned) continue;
    await store.ensureCollection(physicalName(projection.name, name, generation), spec);
  }
}

/** Drops the collections of one generation, every partition of the partitioned ones included. */
export async function dropGeneration(store: ReadStore, projection: Projection, generation: number): Promise<void> {
  const partitioned = Object.entries(projection.collections)
    .filter(([, spec]) => spec.partitioned)
    .map(([name]) => name);
  const existing = partitioned.length > 0 ? await store.listCollections() : [];
  for (const [name, spec] of Object.entries(projection.collections)) {
    if (!spec.partitioned) {
      await store.dropCollection(physicalName(projection.name, name, generation));
      continue;
    }
    for (const physical of existing.filter((n) => isPartitionOf(n, projection.name, name, generation)))
      await store.dropCollection(physical);
  }
}

/** First start of a projection: generation 1, nothing applied yet. */
export async function initCheckpoint(
  store: ReadStore,
  projection: Projection,
  now: string,
): Promise<ProjectionCheckpoint> {
  await store.ensureCollection(CHECKPOINTS);
  const existing = await readCheckpoint(store, projection.name);
  if (existing) return existing;
  await ensureGeneration(store, projection, 1);
  return store.transaction(async (tx) => {
    const again = await readCheckpoint(tx, projection.name);
    if (again) return again; // another process got there first
    const fresh: ProjectionCheckpoint = {
      id: projection.name,
      version: projection.version,
      generation: 1,
      position: START,
      updatedAt: now,
    };
    await checkpoints(tx).upsert(fresh);
    return fresh;
  });
}
