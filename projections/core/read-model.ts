import type { Collection, Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import { physicalName } from './projection.ts';

export type ReadModel<T extends Doc> = Pick<Collection<T>, 'get' | 'find' | 'findOne' | 'count' | 'groupCount'>;

/**
 * Readers' view of a projection's collection. Every call resolves the generation the checkpoint names, so a
 * rebuild's switch reaches all readers at once (and across processes) without a restart.
 */
export function readModel<T extends Doc>(store: ReadStore, projection: string, collection: string): ReadModel<T> {
  const current = async () => {
    const cp = await readCheckpoint(store, projection);
    return store.collection<T>(physicalName(projection, collection, cp?.generation ?? 1));
  };
  return {
    get: async (id) => (await current()).get(id),
    find: async (filter, options) => (await current()).find(filter, options),
    findOne: async (filter, options) => (await current()).findOne(filter, options),
    count: async (filter) => (await current()).count(filter),
    groupCount: async (field, filter) => (await current()).groupCount(field, filter),
  };
}
