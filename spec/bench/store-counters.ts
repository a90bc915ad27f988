import type { EventStore } from '../../infra/core/event-store.port.ts';
import type {
  Collection,
  Doc,
  ReadStore,
  ReadStoreSession,
  TransactionSession,
} from '../../infra/core/read-store.port.ts';
import type { Stores } from '../../infra/stores.ts';

/**
 * Counting wrappers around the stores, for benchmarks that say what one request or one event costs:
 * event-store calls by method (appends, appendMany batches, stream reads, log pages), read-store calls by
 * method, and read-store transactions.
 */
export type StoreCounts = Record<string, number>;

export function countingStores(stores: Stores): { stores: Stores; counts: StoreCounts; reset(): void } {
  const counts: StoreCounts = {};
  const inc = (k: string, n = 1) => (counts[k] = (counts[k] ?? 0) + n);
  // COUNT_BY_COLLECTION=1: calls also counted per collection (`rs.get <collection>`) and stream category
  const byCollection = process.env.COUNT_BY_COLLECTION === '1';
  const es = stores.eventStore;
  const eventStore: EventStore = {
    append: (s, e, x) => (inc('es.append'), es.append(s, e, x)),
    appendMany: (b) => (inc('es.appendMany (commits)'), inc('es.appendMany entries', b.length), es.appendMany(b)),
    readStream: (s, o) => (
      inc('es.readStream'), byCollection && inc(`es.readStream ${s.split('-')[0]}`), es.readStream(s, o)
    ),
    readAll: (o) => (inc('es.readAll'), es.readAll(o)),
    subscribeAll: (o) => es.subscribeAll(o),
    async *subscribePages(o) {
      for await (const page of es.subscribePages(o)) {
        inc('es.page');
        yield page;
      }
    },
    headPosition: () => (inc('es.headPosition'), es.headPosition()),
    ping: () => es.ping(),
    close: () => es.close(),
    ...(es.changes !== undefined && { changes: () => es.changes!() }),
    ...(es.lastPositionIn !== undefined && {
      lastPositionIn: (categories: string[]) => (inc('es.lastPositionIn'), es.lastPositionIn!(categories)),
    }),
  };
  const wrapCollection = <T extends Doc>(c: Collection<T>, name: string): Collection<T> => {
    const out = {} as Collection<T>;
    for (const m of [
      'get',
      'upsert',
      'patch',
      'delete',
      'deleteMany',
      'find',
      'findOne',
      'count',
      'groupCount',
      'findOneAndUpdate',
      'findManyAndUpdate',
    ] as const) {
      (out as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
        inc(`rs.${m}`);
        if (byCollection) inc(`rs.${m} ${name}`);
        return (c[m] as unknown as (...x: unknown[]) => unknown)(...a);
      };
    }
    return out;
  };
  const wrapSession = (s: ReadStoreSession): ReadStoreSession => ({
    collection: (n) => wrapCollection(s.collection(n), n),
  });
  const rs = stores.readStore;
  const readStore: ReadStore = {
    ...wrapSession(rs),
    ensureCollection: (n, s) => rs.ensureCollection(n, s),
    dropCollection: (n) => rs.dropCollection(n),
    listCollections: () => rs.listCollections(),
    transaction: (fn, options) => {
      inc('rs.transaction');
      return rs.transaction(
        (tx: TransactionSession) =>
          fn({
            ...wrapSession(tx),
            ensureCollection: (n, s) => tx.ensureCollection(n, s),
            savepoint: (f) => (inc('rs.savepoint'), tx.savepoint((sp) => f(wrapSession(sp)))),
          }),
        options,
      );
    },
    ping: () => rs.ping(),
    close: () => rs.close(),
  };
  return {
    stores: { ...stores, eventStore, readStore },
    counts,
    reset: () => {
      for (const k of Object.keys(counts)) delete counts[k];
    },
  };
}
