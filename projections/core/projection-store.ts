import type { Collection, CollectionSpec, Doc, IndexSpec, ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { type Projection, type ProjectionStore, partitionedName, physicalName } from './projection.ts';

/** Creates a collection with its indexes (ReadStore.ensureCollection; inside a transaction it joins it). */
export type EnsureCollection = (name: string, spec: CollectionSpec) => Promise<void>;

/**
 * ensureCollection once per physical collection and spec for as long as nothing failed: a partitioned
 * collection is used on every page, and its ensure is a few schema statements. A rollback can undo a
 * CREATE TABLE or CREATE INDEX, so whoever sees a transaction or savepoint fail calls `forget()`.
 */
type Ensures = { ensureCollection(name: string, spec?: CollectionSpec): Promise<void> };

export function ensureOnce(readStore: Ensures): {
  ensure: EnsureCollection;
  within(tx: Ensures): EnsureCollection;
  forget(): void;
} {
  const done = new Map<string, string>();
  const once =
    (target: Ensures): EnsureCollection =>
    async (name, spec) => {
      const key = JSON.stringify(spec);
      if (done.get(name) === key) return;
      await target.ensureCollection(name, spec);
      done.set(name, key);
    };
  return {
    ensure: once(readStore),
    /** the same, as a part of a transaction that is reached through its session only (`ambient: false`) */
    within: once,
    forget: () => done.clear(),
  };
}

/**
 * Maps a projection's logical collection names onto one generation's physical collections. Partitioned
 * collections are ensured (created with their indexes) on their first use through this store: `ensure`
 * is the read store's ensureCollection; without it they are created by their first write, unindexed.
 */
export function projectionStore(
  session: ReadStoreSession,
  projection: Projection,
  generation: number,
  ensure?: EnsureCollection,
): ProjectionStore {
  const ensured = new Map<string, Promise<void>>();
  return {
    collection<T extends Doc = Doc>(name: string, partition?: string, indexes?: IndexSpec[]): Collection<T> {
      const spec = projection.collections[name];
      if (spec === undefined) {
        throw new Error(`projection ${projection.name} has no collection "${name}" (declare it in collections)`);
      }
      if (!spec.partitioned) {
        if (partition !== undefined) throw new Error(`collection ${projection.name}.${name} is not partitioned`);
        return session.collection<T>(physicalName(projection.name, name, generation));
      }
      if (partition === undefined)
        throw new Error(`collection ${projection.name}.${name} is partitioned: name the partition`);
      const physical = partitionedName(projection.name, partition, name, generation);
      const inner = session.collection<T>(physical);
      if (ensure === undefined) return inner;
      const ready = () => {
        let p = ensured.get(physical);
        if (p === undefined) {
          const { partitioned: _p, ...base } = spec;
          p = ensure(physical, { ...base, indexes: [...(base.indexes ?? []), ...(indexes ?? [])] });
          ensured.set(physical, p);
        }
        return p;
      };
      return ensuredFirst(inner, ready);
    },
  };
}

/** `inner`, each call of which waits for `ready` first (the collection's creation with its indexes). */
function ensuredFirst<T extends Doc>(inner: Collection<T>, ready: () => Promise<void>): Collection<T> {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready();
      return fn(...args);
    };
  return {
    get: after((id) => inner.get(id)),
    upsert: after((doc) => inner.upsert(doc)),
    patch: after((id, update) => inner.patch(id, update)),
    delete: after((id) => inner.delete(id)),
    deleteMany: after((filter) => inner.deleteMany(filter)),
    find: after((filter, options) => inner.find(filter, options)),
    findJson: after((filter, options) => inner.findJson(filter, options)),
    findOne: after((filter, options) => inner.findOne(filter, options)),
    count: after((filter) => inner.count(filter)),
    groupCount: after((field, filter) => inner.groupCount(field, filter)),
    findOneAndUpdate: after((filter, update, options) => inner.findOneAndUpdate(filter, update, options)),
    findManyAndUpdate: after((filter, update, options) => inner.findManyAndUpdate(filter, update, options)),
  };
}
