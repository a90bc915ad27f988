import type { Collection, Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import { partitionedName, physicalName } from './projection.ts';

export type ReadModel<T extends Doc> = Pick<
  Collection<T>,
  'get' | 'find' | 'findJson' | 'findOne' | 'count' | 'groupCount'
>;

/**
 * How long readers trust the generation a projection's checkpoint named, instead of a checkpoint read per
 * query. The generation moves only at a rebuild's switch, which this process sees at once
 * (forgetGenerations); a reader in another process reads the previous generation, which the switch leaves
 * in place and complete up to it, for at most this long.
 */
const GENERATION_RECHECK_MS = 1000;
const generations = new WeakMap<ReadStore, Map<string, { generation: number; at: number }>>();

/** the rebuild in this process switched generations: readers look the checkpoints up again */
export function forgetGenerations(store: ReadStore): void {
  generations.delete(store);
}

const knownOf = (store: ReadStore) => {
  let known = generations.get(store);
  if (known === undefined) generations.set(store, (known = new Map()));
  return known;
};

/** a checkpoint just read names this generation: readers use it from now on */
export function noteGeneration(store: ReadStore, projection: string, generation: number): void {
  knownOf(store).set(projection, { generation, at: performance.now() });
}

async function generationOf(store: ReadStore, projection: string): Promise<number> {
  const known = knownOf(store);
  const now = performance.now();
  const cached = known.get(projection);
  if (cached !== undefined && now - cached.at < GENERATION_RECHECK_MS) return cached.generation;
  const generation = (await readCheckpoint(store, projection))?.generation ?? 1;
  // a switch while the lookup ran has emptied the cache: this answer may be older than it, keep nothing
  if (generations.get(store) === known) known.set(projection, { generation, at: now });
  return generation;
}

/**
 * Readers' view of a projection's collection, in the generation the checkpoint names, so a rebuild's
 * switch reaches all readers (across processes too, GENERATION_RECHECK_MS) without a restart. A partitioned
 * collection is read one partition at a time (`partition`: a tenant, or a part of one).
 */
export function readModel<T extends Doc>(
  store: ReadStore,
  projection: string,
  collection: string,
  partition?: string,
): ReadModel<T> {
  const current = async () => {
    const generation = await generationOf(store, projection);
    return store.collection<T>(
      partition === undefined
        ? physicalName(projection, collection, generation)
        : partitionedName(projection, partition, collection, generation),
    );
  };
  return {
    get: async (id) => (await current()).get(id),
    find: async (filter, options) => (await current()).find(filter, options),
    findJson: async (filter, options) => (await current()).findJson(filter, options),
    findOne: async (filter, options) => (await current()).findOne(filter, options),
    count: async (filter) => (await current()).count(filter),
    groupCount: async (field, filter) => (await current()).groupCount(field, filter),
  };
}
