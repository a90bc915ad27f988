import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Collection, CollectionSpec, Doc } from '../../infra/core/read-store.port.ts';

/** What a projection's `apply` writes to: its own logical collections, inside the runner's transaction. */
export type ProjectionStore = {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
};

/**
 * A projection turns events into read-model changes. Bumping `version` makes the runner rebuild it from
 * position 0 beside the live collections and switch readers when the new one has caught up.
 */
export type Projection = {
  name: string;
  version: number;
  /** only these event types reach `apply` (all when absent) */
  eventTypes?: string[];
  /** only events of these stream categories reach `apply` (all when absent) */
  categories?: string[];
  /** the logical collections it owns, with their index declarations */
  collections: Record<string, CollectionSpec>;
  /** applies a batch in log order; runs inside the transaction that also moves the checkpoint */
  apply(events: RecordedEvent[], store: ProjectionStore): Promise<void>;
};

/** The checkpoint document kept per projection in the `_projections` collection. */
export type ProjectionCheckpoint = {
  id: string;
  version: number;
  /** which generation of physical collections readers use */
  generation: number;
  /** last applied global position */
  position: string;
  updatedAt: string;
};

export const CHECKPOINTS = '_projections';

/** The physical collection behind a logical one, per generation: rebuilds write a new generation beside. */
export const physicalName = (projection: string, collection: string, generation: number) =>
  `${projection}__${collection}__g${generation}`;
