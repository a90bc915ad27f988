import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Collection, CollectionSpec, Doc, IndexSpec } from '../../infra/core/read-store.port.ts';

/** What a projection's `apply` writes to: its own logical collections, inside the runner's transaction. */
export type ProjectionStore = {
  /**
   * A logical collection of the projection. A collection declared `partitioned` needs the partition (a
   * tenant, or a part of one such as a tenant's search index) and may add indexes of that partition's own
   * (configuration-defined fields); its physical collection is created with them when first used.
   */
  collection<T extends Doc = Doc>(name: string, partition?: string, indexes?: IndexSpec[]): Collection<T>;
  /**
   * The events come after later events of their streams (a parked event applied again, retryParked): a
   * projection may not take a stream's first event, or an acceptance, as the first it sees of the stream.
   * Absent otherwise: pages apply in log order, once, with the checkpoint.
   */
  readonly late?: true;
};

/**
 * A logical collection: its index declarations and, when `partitioned`, one physical collection per
 * partition (`<projection>__<partition>__<collection>__g<N>`) instead of one for all: a tenant's data then
 * lives in collections of its own (per-tenant names on the embedded store; on MongoDB a collection prefix
 * per tenant). Partitioned collections are created lazily, with the declared indexes plus the partition's.
 */
export type ProjectionCollection = CollectionSpec & { partitioned?: boolean };

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
  collections: Record<string, ProjectionCollection>;
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

/** A partition names a tenant or a part of one: letters, digits, `_ . -`, no `__` (the name separator). */
export const PARTITION = /^[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*$/;

/** The physical collection of one partition of a partitioned logical collection, per generation. */
export function partitionedName(projection: string, partition: string, collection: string, generation: number): string {
  if (!PARTITION.test(partition) || partition.endsWith('_'))
    throw new Error(`invalid partition ${JSON.stringify(partition)} of ${projection}.${collection}`);
  return `${projection}__${partition}__${collection}__g${generation}`;
}

/** Whether a physical name is one partition of `collection` in `generation` (listing for drops). */
export function isPartitionOf(name: string, projection: string, collection: string, generation: number): boolean {
  const prefix = `${projection}__`;
  const suffix = `__${collection}__g${generation}`;
  return name.length > prefix.length + suffix.length && name.startsWith(prefix) && name.endsWith(suffix);
}
