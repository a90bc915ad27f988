import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  Collection,
  CollectionSpec,
  Doc,
  ReadStore,
  ReadStoreSession,
  TransactionOptions,
  TransactionSession,
} from '../core/read-store.port.ts';
import { StoreUnavailableError } from '../core/store-errors.ts';
import { registerReadStoreFunctions } from './read-store.functions.ts';
import { createMutex } from './read-store.mutex.ts';
import * as ops from './read-store.ops.ts';
import { assertCollectionName } from './read-store.sql.ts';
import { createUnitOfWork, type UnitOfWork } from './read-store.unit-of-work.ts';
import { AUTOCHECKPOINT, backgroundCheckpoints } from './wal-checkpointer.ts';

export type SqliteReadStoreOptions = {
  /** database file, apart from the event log's; its folder is created when missing */
  file: string;
  /** as the event store's: > 0, a worker thread checkpoints the WAL every that many ms (wal-checkpointer.ts) */
  checkpointIntervalMs?: number;
};

/*
 * Two connections per store instance:
 *   - the writer runs every write and every transaction, one at a time (the mutex), BEGIN IMMEDIATE for
 *     anything that reads before it writes, so two instances (two processes) on one file stay atomic;
 *   - the reader (read-only) answers reads outside transactions. In WAL mode it sees the last committed
 *     state, never the inside of a transaction that is awaiting between its statements, and reads do not
 *     queue behind writers.
 * Inside a transaction (the tx session, or any call of this store made from fn's async context, tracked
 * with AsyncLocalStorage) everything runs on the writer without the mutex: reads see the transaction's own
 * writes, nested transaction() calls join it, and a store call from inside fn cannot deadlock on the mutex.
 * A transaction opened with `ambient: false` is reached through its session only (nothing is tracked).
 *
 * Writes wait for SQLite's write lock asynchronously (withWriteLock): SQLite's own busy handler sleeps
 * synchronously, which would freeze the event loop while another process, or another store instance in
 * this process, holds the lock across the awaits of its transaction.
 */

const STORE = 'sqlite read store';

/** result codes meaning the database cannot be used right now (503), as opposed to a bad request */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|CORRUPT|NOTADB|PROTOCOL|READONLY|NOMEM)/;

function mapError(e: unknown): unknown {
  if (e instanceof StoreUnavailableError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new StoreUnavailableError(STORE, (e as Error).message, { cause: e });
  }
  if (e instanceof TypeError && e.message.includes('connection is not open')) {
    return new StoreUnavailableError(STORE, 'closed', { cause: e });
  }
  return e;
}

function guard<R>(fn: () => R): R {
  try {
    return fn();
  } catch (e) {
    throw mapError(e);
  }
}

/** how long a write waits for another process's write lock before the store counts as unavailable */
const LOCK_WAIT_MS = 5000;
const isBusy = (e: unknown) => /^SQLITE_BUSY/.test(String((e as { code?: unknown } | null)?.code ?? ''));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a write that needs SQLite's write lock, waiting for it asynchronously: the writer connection has no
 * busy timeout, because SQLite's own busy handler sleeps synchronously and would freeze this process's event
 * loop while another process (or another store instance here) holds the lock — including the loop that
 * holder may need to finish its transaction.
 */
async function withWriteLock<R>(fn: () => R): Promise<R> {
  const started = Date.now();
  let delay = 1;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e) || Date.now() - started >= LOCK_WAIT_MS) throw mapError(e);
      await sleep(delay);
      delay = Math.min(delay * 2, 25);
    }
  }
}

function openDatabase(file: string, readonly: boolean): Database.Database {
  const db = new Database(file, { readonly, fileMustExist: readonly });
  db.pragma('busy_timeout = 5000');
  if (!readonly) db.pragma('journal_mode = WAL');
  if (!readonly) db.pragma('busy_timeout = 0'); // writes wait for the lock asynchronously (withWriteLock)
  db.pragma('synchronous = NORMAL');
  // the event store's reasoning (infra/sqlite/event-store.sqlite.ts): projections and due items rewrite the
  // same pages commit after commit; checkpointing every 10,000 pages instead of 1,000 (measured: a rebuild
  // about 20 % faster)
  if (!readonly) db.pragma(AUTOCHECKPOINT);
  registerReadStoreFunctions(db);
  return db;
}

type Tx = { open: boolean; session: TransactionSession; work: UnitOfWork };

export function createSqliteReadStore(options: SqliteReadStoreOptions): ReadStore {
  const { file } = options;
  const memory = file === ':memory:' || file === '';
  const { writer, reader } = guard(() => {
    if (!memory) mkdirSync(dirname(file), { recursive: true });
    const w = ops.createConn(openDatabase(file, false));
    // an in-memory database exists once per connection: it reads through the writer
    return { writer: w, reader: memory ? w : ops.createConn(openDatabase(file, true)) };
  });
  const checkpointer = backgroundCheckpoints(file, options.checkpointIntervalMs);
  const mutex = createMutex();
  let savepoints = 0;
  const txContext = new AsyncLocalStorage<Tx>();
  let closing: Promise<void> | undefined;

  const activeTx = (): Tx | undefined => {
    const tx = txContext.getStore();
    return tx?.open ? tx : undefined;
  };

  function connectionFor(tx: Tx | undefined): { tx: Tx | undefined } {
    const t = tx ?? activeTx();
    if (t && !t.open) throw new Error('read store: this transaction has already ended');
    if (!t && closing) throw new StoreUnavailableError(STORE, 'closed');
    return { tx: t };
  }

  async function read<R>(tx: Tx | undefined, fn: (c: ops.Conn) => R): Promise<R> {
    const { tx: t } = connectionFor(tx);
    return guard(() => fn(t ? writer : reader));
  }

  async function write<R>(tx: Tx | undefined, fn: (c: ops.Conn) => R): Promise<R> {
    const { tx: t } = connectionFor(tx);
    if (t) return guard(() => fn(writer));
    return mutex.run(() => withWriteLock(() => fn(writer)));
  }

  /**
   * Inside a transaction, document writes go to its unit of work (written at commit, or before a query
   * that needs them); outside, straight to the table.
   */
  function collection<T extends Doc = Doc>(name: string, tx?: Tx): Collection<T> {
    assertCollectionName(name);
    const inTx = () => connectionFor(tx).tx;
    /** a query on the collection: inside a transaction, its buffered writes first */
    const query = <R>(fn: (c: ops.Conn) => R) =>
      read(tx, (c) => {
        inTx()?.work.flush(c, name);
        return fn(c);
      });
    const change = <R>(buffered: (w: UnitOfWork, c: ops.Conn) => R, direct: (c: ops.Conn) => R) =>
      write(tx, (c) => {
        const t = inTx();
        return t ? buffered(t.work, c) : direct(c);
      });
    const findManyAndUpdate: Collection<T>['findManyAndUpdate'] = (filter, update, options) =>
      change(
        (w, c) => (w.flush(c, name), ops.findManyAndUpdate<T>(c, name, filter, update, options.sort, options.limit)),
        (c) => ops.findManyAndUpdate<T>(c, name, filter, update, options.sort, options.limit),
      );
    return {
      get: (id) =>
        read(tx, (c) => {
          const t = inTx();
          return t ? t.work.get<T>(c, name, id) : ops.get<T>(c, name, id);
        }),
      upsert: (doc) =>
        change(
          (w) => w.upsert(name, doc),
          (c) => ops.upsert(c, name, doc),
        ),
      patch: (id, update) =>
        change(
          (w, c) => w.patch(c, name, id, update),
          (c) => ops.patch(c, name, id, update),
        ),
      delete: (id) =>
        change(
          (w, c) => w.remove(c, name, id),
          (c) => ops.remove(c, name, id),
        ),
      deleteMany: (filter) =>
        change(
          (w, c) => (w.flush(c, name), ops.removeMany(c, name, filter)),
          (c) => ops.removeMany(c, name, filter),
        ),
      find: (filter = {}, options) => query((c) => ops.find<T>(c, name, filter, options)),
      findJson: (filter = {}, options) => query((c) => ops.findJson(c, name, filter, options)),
      findOne: (filter = {}, options) =>
        query((c) => ops.find<T>(c, name, filter, { ...options, limit: 1 })[0] ?? null),
      count: (filter = {}) => query((c) => ops.count(c, name, filter)),
      groupCount: (field, filter = {}) => query((c) => ops.groupCount(c, name, field, filter)),
      findOneAndUpdate: async (filter, update, options) =>
        (await findManyAndUpdate(filter, update, { ...options, limit: 1 }))[0] ?? null,
      findManyAndUpdate,
    };
  }

  // outside a transaction a handle holds nothing of its caller's (the ambient transaction is looked up per
  // call), so one per name serves every caller: a query path asks for its collections on every request
  const handles = new Map<string, Collection>();
  /** the handle of `name` kept in `kept` (outside a transaction, or for one: a transaction's own map) */
  function handleOf<T extends Doc>(kept: Map<string, Collection>, name: string, tx?: Tx): Collection<T> {
    let handle = kept.get(name);
    if (handle === undefined) kept.set(name, (handle = collection(name, tx)));
    return handle as Collection<T>;
  }

  /** creates the collection with its indexes, in `tx` when given */
  function ensureCollectionIn(tx: Tx | undefined, name: string, spec: CollectionSpec): Promise<void> {
    assertCollectionName(name);
    return write(tx, (c) => ops.ensureCollection(c, name, spec));
  }

  return {
    collection: <T extends Doc = Doc>(name: string) => handleOf<T>(handles, name),

    ensureCollection: (name: string, spec: CollectionSpec = {}) => ensureCollectionIn(undefined, name, spec),

    dropCollection: (name: string) => {
      assertCollectionName(name);
      handles.delete(name); // a dropped generation or partition is not asked for again
      return write(undefined, (c) => ops.dropCollection(c, name));
    },

    listCollections: () => read(undefined, (c) => ops.listCollections(c)),

    async transaction<R>(fn: (tx: TransactionSession) => Promise<R>, options?: TransactionOptions): Promise<R> {
      const ambient = options?.ambient !== false;
      const outer = activeTx();
      if (outer) return fn(outer.session);
      connectionFor(undefined);
      return mutex.run(async () => {
        // a transaction's handles hold nothing but its name and the transaction: one per name (a page's
        // projections ask for theirs once per apply, a claim once per query)
        const txHandles = new Map<string, Collection>();
        const tx: Tx = {
          open: true,
          work: createUnitOfWork(),
          session: {
            collection: <T extends Doc = Doc>(name: string) => handleOf<T>(txHandles, name, tx),
            ensureCollection: (name: string, spec: CollectionSpec = {}) => ensureCollectionIn(tx, name, spec),
            // the transaction's statements run one at a time on the writer, so a savepoint brackets exactly
            // the writes fn makes
            async savepoint<S>(fn: (session: ReadStoreSession) => Promise<S>): Promise<S> {
              const name = `sp${++savepoints}`;
              guard(() => tx.work.flush(writer));
              guard(() => writer.db.exec(`SAVEPOINT ${name}`));
              try {
                const result = await fn(tx.session);
                guard(() => tx.work.flush(writer));
                guard(() => writer.db.exec(`RELEASE ${name}`));
                return result;
              } catch (e) {
                tx.work.discard();
                if (writer.db.open && writer.db.inTransaction) {
                  writer.db.exec(`ROLLBACK TO ${name}`);
                  writer.db.exec(`RELEASE ${name}`);
                }
                writer.forgetSchema(); // the rollback may have undone a CREATE INDEX
                throw e;
              }
            },
          },
        };
        await withWriteLock(() => writer.db.exec('BEGIN IMMEDIATE'));
        const schemaStart = ops.schemaChanges();
        try {
          const result = ambient ? await txContext.run(tx, () => fn(tx.session)) : await fn(tx.session);
          guard(() => tx.work.flush(writer));
          guard(() => writer.db.exec('COMMIT'));
          // a CREATE in the transaction is visible to the reader connection only now
          if (ops.schemaChanges() !== schemaStart) ops.noteSchemaChange();
          return result;
        } catch (e) {
          tx.work.discard();
          if (writer.db.open && writer.db.inTransaction) writer.db.exec('ROLLBACK');
          writer.forgetSchema(); // the rollback may have undone a CREATE INDEX
          throw e;
        } finally {
          tx.open = false;
          // Node 20's AsyncLocalStorage keeps promise hooks on for the whole process once entered, which
          // makes every promise (HTTP requests, workers) markedly slower; off again when no transaction of
          // this store is open (they are serialized by the mutex)
          if (ambient) txContext.disable();
        }
      });
    },

    async ping() {
      if (closing) throw new StoreUnavailableError(STORE, 'closed');
      try {
        // reads the schema page, so a vanished or unreadable file fails here
        writer.stmt('SELECT count(*) FROM sqlite_master').get();
        reader.stmt('SELECT count(*) FROM sqlite_master').get();
      } catch (e) {
        const mapped = mapError(e);
        if (mapped instanceof StoreUnavailableError) throw mapped;
        throw new StoreUnavailableError(STORE, String(e), { cause: e });
      }
    },

    close() {
      // waits for the running transaction and the queued writes, refuses new ones
      closing ??= mutex
        .run(() => {
          if (reader !== writer) reader.db.close();
          writer.db.close();
        })
        .finally(() => checkpointer?.stop());
      return closing;
    },
  };
}
