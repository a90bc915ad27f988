import type { Collection, Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import { partitionedName, physicalName } from './projection.ts';

/**
 * The live generation of a projection's collection, for the few writers besides the projection itself:
 * schedulers putting a lease on a due item (findOneAndUpdate). Resolved on every call (readModel trusts it
 * for a second; a lease written to a generation just replaced would be lost).
 */
export function liveCollection<T extends Doc>(
  store: ReadStore,
  projection: string,
  collection: string,
  partition?: string,
): (() => Promise<Collection<T>>) & { projection: string } {
  const live = async () => {
    const cp = await readCheckpoint(store, projection);
    const generation = cp?.generation ?? 1;
    return store.collection<T>(
      partition === undefined
        ? physicalName(projection, collection, generation)
        : partitionedName(projection, partition, collection, generation),
    );
  };
  // the projection that writes it: a work engine on these items is woken by pages that projection applies
  return Object.assign(live, { projection });
}
