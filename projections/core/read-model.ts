import type { Collection, Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import { partitionedName, physicalName } from './projection.ts';

export type ReadModel<T extends Doc> = Pick<
  Collection<T>,
  'get' | 'find' | 'findJson' | 'findOne' | 'count' | 'groupCount'
>;

/**
 * Readers' view of a projection's collection. Every call resolves the generation the checkpoint names, so a
 * rebuild's switch reaches all readers at once (and across processes) without a restart. A partitioned
 * collection is read one partition at a time (`partition`: a tenant, or a part of one).
 */
export function readModel<T extends Doc>(
  store: ReadStore,
  projection: string,
  collection: string,
  partition?: string,
): ReadModel<T> {
  const current = async () => {
    const cp = await readCheckpoint(store, projection);
    const generation = cp?.generation ?? 1;
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
