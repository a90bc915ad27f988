/**
 * The read store port: named collections of JSON documents. Adapters: infra/sqlite (embedded default, its
 * own file apart from the log) and infra/mongo (MongoDB). Both pass spec/core/read-store.contract.ts.
 *
 * Documents carry a string `id` (MongoDB's `_id`). Filters are a documented subset of the MongoDB query
 * language with MongoDB's semantics, including matching inside arrays:
 *   equality `{a: 1}`, `$eq $ne $in $nin $gt $gte $lt $lte $regex` (string or {$regex, $options}: i m s x),
 *   `$exists`, `$and $or`, dotted paths (`a.b.c`, numeric segments index arrays).
 * Comparison operators compare only values of the same kind (numbers with numbers, strings with strings),
 * as MongoDB does.
 */
export type Doc = { id: string } & Record<string, unknown>;
export type Filter = Record<string, unknown>;
/** Ordered: keys are applied in insertion order. */
export type Sort = Record<string, 1 | -1>;
/** `limit: 0` (or none) means no limit, as in MongoDB; results are always ordered with `id` as the last key. */
export type FindOptions = { sort?: Sort; skip?: number; limit?: number };

/** `$set` by dotted path, `$unset` by dotted path, `$inc` by dotted path. */
export type Update = {
  $set?: Record<string, unknown>;
  $unset?: string[];
  $inc?: Record<string, number>;
};

export type IndexSpec = {
  /** unique within the collection */
  name: string;
  /** ordered key list; paths must hold scalars (not arrays) unless `multi` is set */
  fields: Sort;
  unique?: boolean;
  /** the path may hold arrays (MongoDB multikey); the embedded adapter then cannot use it to narrow */
  multi?: boolean;
};

export type CollectionSpec = { indexes?: IndexSpec[] };

export interface Collection<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  /** insert or replace the whole document */
  upsert(doc: T): Promise<void>;
  /** apply an update to one document; false when there is none with that id */
  patch(id: string, update: Update): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * find's documents as JSON text (each parses to what find answers), for an answer that passes them on
   * as they are: the embedded store hands over the text it holds instead of parsing and re-serializing it
   * (MongoDB's driver decodes BSON to objects: its adapter writes the text)
   */
  findJson(filter?: Filter, options?: FindOptions): Promise<string[]>;
  findOne(filter?: Filter, options?: FindOptions): Promise<T | null>;
  count(filter?: Filter): Promise<number>;
  /**
   * counts per distinct value of `field` among matching documents (missing field: key null; an array
   * value is one key), most frequent first, ties in BSON order of the key
   */
  groupCount(field: string, filter?: Filter): Promise<Array<{ key: unknown; count: number }>>;
  /**
   * Atomic compare-and-set: the first document matching `filter` (in `sort` order) gets `update` and is
   * returned as it is after the update; null when none matches. Leases on due work are built from this.
   */
  findOneAndUpdate(filter: Filter, update: Update, options?: { sort?: Sort }): Promise<T | null>;
  /**
   * findOneAndUpdate for up to `limit` distinct documents (a whole integer, at least 1): the first matches
   * in `sort` order each get `update` and are returned as they are after it, in that order; fewer when fewer
   * match, [] when none. Each document is a compare-and-set of its own, so concurrent callers never get the
   * same one; the embedded store takes them all in one transaction (a work engine with free slots claims
   * them with one commit instead of one each). MongoDB updates them one by one: outside a transaction, a
   * failure after some were updated answers those (they are updated; the failure shows on the next call).
   */
  findManyAndUpdate(filter: Filter, update: Update, options: { sort?: Sort; limit: number }): Promise<T[]>;
}

export interface ReadStoreSession {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
}

/** The session a transaction's function gets: collections, plus savepoints and collections created in it. */
export interface TransactionSession extends ReadStoreSession {
  /** ReadStore.ensureCollection as a part of the transaction (a rollback may undo it) */
  ensureCollection(name: string, spec?: CollectionSpec): Promise<void>;
  /**
   * Runs `fn` as a part of the transaction that can fail alone: when fn throws, every write it made is
   * undone, the error is rethrown, and the transaction goes on (SQLite: SAVEPOINT … ROLLBACK TO). An
   * adapter that cannot undo part of a transaction (MongoDB) rethrows the error as a
   * PartialRollbackUnavailableError, which the caller lets abort the whole transaction and then retries
   * without the failed part. The projection group applies each projection of a page in one savepoint.
   */
  savepoint<R>(fn: (session: ReadStoreSession) => Promise<R>): Promise<R>;
}

export type TransactionOptions = { ambient?: boolean };

/** Thrown by savepoint() on adapters without partial rollback: the whole transaction must be abandoned. */
export class PartialRollbackUnavailableError extends Error {
  constructor(readonly original: unknown) {
    super(
      `the transaction cannot undo only a part: ${original instanceof Error ? original.message : String(original)}`,
      { cause: original },
    );
    this.name = 'PartialRollbackUnavailableError';
  }
}

export interface ReadStore extends ReadStoreSession {
  /** create the collection if missing and declare its indexes (idempotent) */
  ensureCollection(name: string, spec?: CollectionSpec): Promise<void>;
  dropCollection(name: string): Promise<void>;
  listCollections(): Promise<string[]>;
  /**
   * Runs `fn` in one transaction: all its writes commit together or not at all. Transactions are
   * serialized against other writers of this store. The projection runner writes its checkpoint here.
   * Nested transaction() calls, and calls of this store made from fn's async context, join the running
   * transaction. fn may be retried on MongoDB (transient conflicts): keep it free of outside side effects.
   *
   * `ambient: false`: fn reaches the store only through `tx` (ensureCollection included); calls of the store
   * itself from fn's async context do not join the transaction: a read answers from outside it (it does not
   * see the transaction's writes), and a write, an ensureCollection or a nested transaction() that fn awaits
   * never completes (SQLite: it queues behind the transaction; MongoDB: it waits on the transaction's
   * locks until the server aborts it). Nothing tracks fn's async context then: on Node 20 tracking it turns
   * on promise hooks that every promise made meanwhile pays for, in the whole process (the projection
   * group's page transactions, whose projections only get `tx`; measured: about 2 % of CPU per send, within
   * the benchmark's noise).
   */
  transaction<R>(fn: (tx: TransactionSession) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /** Throws StoreUnavailableError when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
