import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type ClientSession,
  MongoClient,
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { checkSpec } from '../core/collection-spec.ts';
import { compareForSort, validateUpdateLimit } from '../core/query/index.ts';
import type {
  Collection,
  CollectionSpec,
  Doc,
  Filter,
  FindOptions,
  ReadStore,
  ReadStoreSession,
  TransactionOptions,
  TransactionSession,
} from '../core/read-store.port.ts';
import { PartialRollbackUnavailableError } from '../core/read-store.port.ts';
import { StoreUnavailableError } from '../core/store-errors.ts';
import {
  assertCollectionName,
  checkPaging,
  fromMongoDoc,
  type Stored,
  toMongoDoc,
  toMongoFilter,
  toMongoIndexKeys,
  toMongoPath,
  toMongoSort,
  toMongoUpdate,
} from './read-store.translate.ts';

export type MongoReadStoreOptions = {
  /** mongodb:// or mongodb+srv:// connection string */
  url: string;
  /** default: the database named in the URL, else the driver's default ("test") */
  database?: string;
};

/*
 * MongoDB evaluates the filters itself (validated first, see read-store.translate.ts). The client
 * connects on first use; a server that cannot be reached surfaces as StoreUnavailableError (503) after
 * serverSelectionTimeoutMS (5 s unless the URL says otherwise).
 *
 * transaction() needs a replica set (or a sharded cluster): MongoDB has no transactions on a standalone
 * server, where it fails with "Transaction numbers are only allowed on a replica set member or mongos"
 * (a single-node replica set is enough for development). session.withTransaction retries fn on transient
 * errors (a write conflict with a concurrent transaction), so fn may run more than once and must not have
 * side effects outside the store. Operations inside one transaction must be awaited one after the other
 * (the driver does not support parallel operations in a transaction). As in the embedded adapter,
 * nested transaction() calls and calls of this store from fn's async context join the transaction, unless
 * it was opened with `ambient: false` (reached through its session only: nothing tracks fn's context).
 */

const STORE = 'mongodb read store';

const CODE_NAMESPACE_EXISTS = 48;
const CODE_NAMESPACE_NOT_FOUND = 26;
const CODE_INDEX_NOT_FOUND = 27;
const CODE_INDEX_OPTIONS_CONFLICT = 85;
const CODE_INDEX_KEY_SPECS_CONFLICT = 86;

const hasCode = (e: unknown, code: number) => (e as { code?: unknown } | null)?.code === code;
/** errors on which the driver's withTransaction retries the whole transaction */
const isTransient = (e: unknown) =>
  e instanceof MongoError &&
  (e.hasErrorLabel('TransientTransactionError') || e.hasErrorLabel('UnknownTransactionCommitResult'));

function mapError(e: unknown): unknown {
  if (
    e instanceof MongoServerSelectionError ||
    e instanceof MongoNetworkError ||
    e instanceof MongoNotConnectedError ||
    e instanceof MongoTopologyClosedError ||
    e instanceof MongoClientClosedError ||
    e instanceof MongoOperationTimeoutError
  ) {
    return new StoreUnavailableError(STORE, e.message, { cause: e });
  }
  return e;
}

export function createMongoReadStore(options: MongoReadStoreOptions): ReadStore {
  const client = new MongoClient(options.url, {
    // undefined fields are dropped, as JSON.stringify does in the embedded adapter (not stored as null)
    ignoreUndefined: true,
    ...(/serverSelectionTimeoutMS=/i.test(options.url) ? {} : { serverSelectionTimeoutMS: 5000 }),
  });
  const db = client.db(options.database);
  const txContext = new AsyncLocalStorage<ClientSession>();
  let openTransactions = 0;
  let closed = false;
  let connected = false;

  /*
   * Connect explicitly instead of relying on the driver's auto-connect: when that first connection fails
   * (server down at start-up), driver v7 keeps the closed topology and every later operation fails with
   * "Topology is closed". client.connect() builds a new topology, so the store recovers once the server is
   * back. connect() is internally locked, so concurrent first operations share one attempt.
   */
  async function connect(): Promise<void> {
    if (connected) return;
    await client.connect();
    connected = true;
  }

  /** the explicit tx session, else the transaction of the calling async context, if still running */
  function sessionFor(session: ClientSession | undefined): { session?: ClientSession } {
    if (session) return { session };
    const ambient = txContext.getStore();
    return ambient?.inTransaction() ? { session: ambient } : {};
  }

  /**
   * Validates and translates first (`prepare`: a bad filter is an Error whatever the server's state),
   * then connects if needed and runs `fn`, mapping connection failures to StoreUnavailableError.
   */
  async function run<P, R>(
    session: ClientSession | undefined,
    prepare: () => P,
    fn: (input: P, opts: { session?: ClientSession }) => Promise<R>,
  ): Promise<R> {
    if (closed) throw new StoreUnavailableError(STORE, 'closed');
    const input = prepare();
    const opts = sessionFor(session);
    try {
      await connect();
      return await fn(input, opts);
    } catch (e) {
      if (e instanceof MongoTopologyClosedError && !closed) connected = false;
      throw mapError(e);
    }
  }

  function collection<T extends Doc = Doc>(name: string, session?: ClientSession): Collection<T> {
    assertCollectionName(name);
    const coll = db.collection<Stored>(name);
    const query = (filter: Filter, options: FindOptions = {}) => ({
      filter: toMongoFilter(filter),
      sort: toMongoSort(options.sort),
      ...checkPaging(options),
    });
    const findDocs = (filter: Filter, options: FindOptions) =>
      run(
        session,
        () => query(filter, options),
        async (q, opts) => {
          const cursor = coll.find(q.filter, { sort: q.sort, skip: q.skip, limit: q.limit, ...opts });
          return (await cursor.toArray()).map((d) => fromMongoDoc<T>(d));
        },
      );
    // MongoDB updates one document atomically at a time: one findOneAndUpdate per document, each leaving out
    // the ones already taken (an update that keeps a document matching would take it again)
    const findManyAndUpdate: Collection<T>['findManyAndUpdate'] = (filter, update, options) =>
      run(
        session,
        () => {
          const { limit } = options;
          validateUpdateLimit(limit);
          const first = toMongoFilter(filter); // a bad filter fails here, whatever the server's state
          const filterWithout = (ids: string[]) =>
            ids.length === 0 ? first : toMongoFilter({ $and: [filter, { id: { $nin: ids } }] });
          return { limit, update: toMongoUpdate(update), sort: toMongoSort(options.sort), filterWithout };
        },
        async (q, opts) => {
          const taken: T[] = [];
          while (taken.length < q.limit) {
            let stored;
            try {
              stored = await coll.findOneAndUpdate(q.filterWithout(taken.map((d) => d.id)), q.update, {
                sort: q.sort,
                returnDocument: 'after',
                ...opts,
              });
            } catch (e) {
              // the documents already updated are the caller's (a lease taken): answered, not lost until
              // their lease runs out; the failure shows again on the next call
              if (taken.length > 0 && opts.session === undefined) return taken;
              throw e;
            }
            if (!stored) break;
            taken.push(fromMongoDoc<T>(stored));
          }
          return taken;
        },
      );
    return {
      get: (id) =>
        run(
          session,
          () => id,
          async (_id, opts) => {
            const stored = await coll.findOne({ _id }, opts);
            return stored ? fromMongoDoc<T>(stored) : null;
          },
        ),
      upsert: (doc) =>
        run(
          session,
          () => toMongoDoc(doc),
          async ({ _id, ...fields }, opts) => {
            await coll.replaceOne({ _id }, fields, { upsert: true, ...opts });
          },
        ),
      patch: (id, update) =>
        run(
          session,
          () => toMongoUpdate(update),
          async (u, opts) => {
            return (await coll.updateOne({ _id: id }, u, opts)).matchedCount > 0;
          },
        ),
      delete: (id) =>
        run(
          session,
          () => id,
          async (_id, opts) => (await coll.deleteOne({ _id }, opts)).deletedCount > 0,
        ),
      deleteMany: (filter) =>
        run(
          session,
          () => toMongoFilter(filter),
          async (f, opts) => (await coll.deleteMany(f, opts)).deletedCount,
        ),
      find: (filter = {}, options = {}) => findDocs(filter, options),
      // the driver hands over BSON decoded to objects: the text is written here
      findJson: async (filter = {}, options = {}) => (await findDocs(filter, options)).map((d) => JSON.stringify(d)),
      findOne: (filter = {}, options = {}) =>
        run(
          session,
          () => query(filter, options),
          async (q, opts) => {
            const stored = await coll.findOne(q.filter, { sort: q.sort, skip: q.skip, ...opts });
            return stored ? fromMongoDoc<T>(stored) : null;
          },
        ),
      count: (filter = {}) =>
        run(
          session,
          () => toMongoFilter(filter),
          (f, opts) => coll.countDocuments(f, opts),
        ),
      groupCount: (field, filter = {}) =>
        run(
          session,
          () => [{ $match: toMongoFilter(filter) }, { $group: { _id: `$${toMongoPath(field)}`, count: { $sum: 1 } } }],
          async (pipeline, opts) => {
            const groups = await coll.aggregate<{ _id: unknown; count: number }>(pipeline, opts).toArray();
            // the embedded adapter's order: most frequent first, ties by key in BSON order
            return groups
              .map((g) => ({ key: g._id ?? null, count: g.count }))
              .sort((a, b) => b.count - a.count || compareForSort(a.key, b.key));
          },
        ),
      findOneAndUpdate: async (filter, update, options) =>
        (await findManyAndUpdate(filter, update, { ...options, limit: 1 }))[0] ?? null,
      findManyAndUpdate,
    };
  }

  /** creates the collection if missing and declares its indexes; with a session, as a part of its transaction */
  const ensureCollectionIn = (session: ClientSession | undefined, name: string, spec: CollectionSpec) =>
    run(
      session,
      () => (assertCollectionName(name), checkSpec(spec)),
      async (_, opts) => {
        try {
          await db.createCollection(name, opts);
        } catch (e) {
          if (!hasCode(e, CODE_NAMESPACE_EXISTS)) throw e;
        }
        const coll = db.collection<Stored>(name);
        for (const index of spec.indexes ?? []) {
          const keys = toMongoIndexKeys(index.fields);
          if (Object.keys(keys).length === 1 && '_id' in keys) continue; // the _id index exists already
          const indexOptions = { name: index.name, ...(index.unique ? { unique: true } : {}), ...opts };
          try {
            await coll.createIndex(keys, indexOptions);
          } catch (e) {
            // same name, other declaration: rebuild it, as the embedded adapter does
            if (!hasCode(e, CODE_INDEX_OPTIONS_CONFLICT) && !hasCode(e, CODE_INDEX_KEY_SPECS_CONFLICT)) throw e;
            await coll.dropIndex(index.name, opts).catch((dropError: unknown) => {
              if (!hasCode(dropError, CODE_INDEX_NOT_FOUND)) throw dropError;
            });
            await coll.createIndex(keys, indexOptions);
          }
        }
      },
    );

  const sessionFacade = (session: ClientSession): ReadStoreSession => ({
    collection: <T extends Doc = Doc>(name: string) => collection<T>(name, session),
  });

  /**
   * The failed part of each running transaction attempt: once a savepoint's fn has thrown, the attempt can
   * only abort (MongoDB cannot undo a part of a transaction), even if fn caught the error and went on.
   */
  const failedParts = new WeakMap<ClientSession, { error: unknown }>();

  const transactionFacade = (session: ClientSession): TransactionSession => ({
    ...sessionFacade(session),
    ensureCollection: (name: string, spec: CollectionSpec = {}) => ensureCollectionIn(session, name, spec),
    async savepoint<S>(fn: (part: ReadStoreSession) => Promise<S>): Promise<S> {
      const failed = failedParts.get(session);
      if (failed) throw failed.error;
      try {
        return await fn(sessionFacade(session));
      } catch (e) {
        // A transient error (write conflict, failover) stays as it is, so that withTransaction sees its
        // label and retries the whole transaction; so does a store that went away. Anything else says
        // that only a part failed, which MongoDB cannot undo alone.
        const error =
          isTransient(e) || e instanceof StoreUnavailableError || e instanceof PartialRollbackUnavailableError
            ? e
            : new PartialRollbackUnavailableError(e);
        if (!failedParts.has(session)) failedParts.set(session, { error });
        throw error;
      }
    },
  });

  /** one attempt of fn in the session's transaction; a failed part fails the attempt */
  const attempt = async <R>(
    session: ClientSession,
    fn: (tx: TransactionSession) => Promise<R>,
    tracked: boolean,
  ): Promise<R> => {
    failedParts.delete(session); // withTransaction may run fn again: a new attempt starts clean
    let result: R;
    if (!tracked)
      result = await fn(transactionFacade(session)); // `ambient: false`: reached through its session only
    else {
      openTransactions += 1;
      try {
        result = await txContext.run(session, () => fn(transactionFacade(session)));
      } finally {
        // Node 20's AsyncLocalStorage keeps promise hooks on for the whole process once entered (every promise
        // pays): off again when no transaction is open
        if (--openTransactions === 0) txContext.disable();
      }
    }
    const failed = failedParts.get(session);
    if (failed) throw failed.error;
    return result;
  };

  return {
    collection: (name) => collection(name),

    ensureCollection: (name: string, spec: CollectionSpec = {}) => ensureCollectionIn(undefined, name, spec),

    dropCollection: (name: string) =>
      run(
        undefined,
        () => assertCollectionName(name),
        async (_, opts) => {
          try {
            await db.dropCollection(name, opts);
          } catch (e) {
            if (!hasCode(e, CODE_NAMESPACE_NOT_FOUND)) throw e;
          }
        },
      ),

    listCollections: () =>
      run(
        undefined,
        () => undefined,
        async (_, opts) => {
          const infos = await db.listCollections({}, { nameOnly: true, ...opts }).toArray();
          return infos
            .map((info) => info.name)
            .filter((name) => !name.startsWith('system.'))
            .sort();
        },
      ),

    async transaction<R>(fn: (tx: TransactionSession) => Promise<R>, options?: TransactionOptions): Promise<R> {
      const ambient = txContext.getStore();
      if (ambient?.inTransaction()) return fn(transactionFacade(ambient));
      const tracked = options?.ambient !== false;
      if (closed) throw new StoreUnavailableError(STORE, 'closed');
      await run(undefined, () => undefined, connect);
      const session = client.startSession();
      try {
        return await session.withTransaction(() => attempt(session, fn, tracked));
      } catch (e) {
        throw mapError(e);
      } finally {
        await session.endSession();
      }
    },

    async ping() {
      if (closed) throw new StoreUnavailableError(STORE, 'closed');
      try {
        await connect();
        await db.command({ ping: 1 });
      } catch (e) {
        const mapped = mapError(e);
        if (mapped instanceof StoreUnavailableError) throw mapped;
        throw new StoreUnavailableError(STORE, String(e), { cause: e });
      }
    },

    async close() {
      closed = true;
      await client.close();
    },
  };
}
