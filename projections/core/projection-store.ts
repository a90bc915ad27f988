import type { ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { physicalName, type Projection, type ProjectionStore } from './projection.ts';

/** Maps a projection's logical collection names onto one generation's physical collections. */
export function projectionStore(session: ReadStoreSession, projection: Projection, generation: number): ProjectionStore {
  return {
    collection(name) {
      if (!(name in projection.collections)) {
        throw new Error(`projection ${projection.name} has no collection "${name}" (declare it in collections)`);
      }
      return session.collection(physicalName(projection.name, name, generation));
    },
  };
}
