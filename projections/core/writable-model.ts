import type { Collection, Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import { physicalName } from './projection.ts';

/**
 * The live generation of a projection's collection, for the few writers besides the projection itself:
 * schedulers putting a lease on a due item (findOneAndUpdate). Resolved on every call, like readModel.
 */
export function liveCollection<T extends Doc>(store: ReadStore, projection: string, collection: string): () => Promise<Collection<T>> {
  return async () => {
    const cp = await readCheckpoint(store, projection);
    return store.collection<T>(physicalName(projection, collection, cp?.generation ?? 1));
  };
}
