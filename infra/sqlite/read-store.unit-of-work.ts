import { applyUpdate, isPlainObject, validateUpdate } from '../core/query/index.ts';
import type { Doc, Update } from '../core/read-store.port.ts';
import * as ops from './read-store.ops.ts';

/**
 * The writes of one transaction, kept in memory until something needs them in SQLite: a projection
 * applying a page typically reads a document, changes it and writes it back many times (a balance, a
 * stream summary, a trace entry), and only the last version has to reach the table. `get` answers from
 * the buffer; a query (find, count, …) on a collection first writes that collection's buffered changes;
 * commit writes the rest. The statements are prepared once per connection (ops' statement cache).
 *
 * Savepoints: the buffer is written before a savepoint opens and before it is released, and dropped
 * when it rolls back, so a rollback undoes exactly what the savepoint changed.
 *
 * Documents are kept as objects and serialized once, when they are written: inside a transaction `get`
 * answers the object `upsert` stored (a shallow copy of the caller's), not a fresh parse. A projection
 * that changes a document it read writes it back (as it must on every store); changing one in place
 * without writing it back is not a way to update it.
 *
 * It also knows which ids are not in the table: a `get` that found nothing, a deletion written. The
 * transaction holds the write lock, so only its own writes can change that: a document it writes leaves
 * the set, a rollback forgets the set. So a projection asking again for a document that is not there (a
 * notification's expiry, looked up for each of its events) reads nothing more, and a document created and
 * deleted within one transaction costs no DELETE. A deletion of a document not buffered is written at once
 * (its DELETE answers whether it was there). (The other statements a transaction runs on a
 * collection, findManyAndUpdate and deleteMany, never create a document.)
 */
export type UnitOfWork = {
  get<T extends Doc>(c: ops.Conn, collection: string, id: string): T | null;
  upsert(collection: string, doc: Doc): void;
  patch(c: ops.Conn, collection: string, id: string, update: Update): boolean;
  remove(c: ops.Conn, collection: string, id: string): boolean;
  /** writes the buffered changes of one collection, or of all */
  flush(c: ops.Conn, collection?: string): void;
  /** forgets the buffered changes (the transaction or savepoint rolled back) */
  discard(): void;
};

/** a buffered document (serialized when it is written), or null for a deletion */
type Buffered = Doc | null;

export function createUnitOfWork(): UnitOfWork {
  const dirty = new Map<string, Map<string, Buffered>>();
  const of = (collection: string) => {
    let m = dirty.get(collection);
    if (m === undefined) dirty.set(collection, (m = new Map()));
    return m;
  };
  const buffered = (collection: string, id: string): Buffered | undefined => dirty.get(collection)?.get(id);
  /** documents known not to be in their table, as collection + NUL + id */
  const absent = new Set<string>();
  const key = (collection: string, id: string) => `${collection}\u0000${id}`;

  function current<T extends Doc>(c: ops.Conn, collection: string, id: string): T | null {
    const b = buffered(collection, id);
    if (b !== undefined) return b as T | null;
    if (absent.has(key(collection, id))) return null;
    const doc = ops.get<T>(c, collection, id);
    if (doc === null) absent.add(key(collection, id));
    return doc;
  }

  function flushOne(c: ops.Conn, collection: string, docs: Map<string, Buffered>) {
    for (const [id, doc] of docs) {
      if (doc === null) {
        if (!absent.has(key(collection, id))) ops.remove(c, collection, id);
        absent.add(key(collection, id));
      } else {
        ops.upsertJson(c, collection, id, JSON.stringify(doc));
        absent.delete(key(collection, id));
      }
    }
    dirty.delete(collection);
  }

  return {
    get: current,
    upsert(collection, doc) {
      if (!isPlainObject(doc) || typeof doc.id !== 'string')
        throw new Error('read store: a document needs a string id');
      const { id, ...fields } = doc;
      of(collection).set(id, { id, ...fields }); // id first, as MongoDB's _id
    },
    patch(c, collection, id, update) {
      validateUpdate(update);
      const doc = current<Doc>(c, collection, id);
      if (doc === null) return false;
      of(collection).set(id, applyUpdate(doc, update));
      return true;
    },
    remove(c, collection, id) {
      const b = buffered(collection, id);
      if (b !== undefined) {
        of(collection).set(id, null);
        return b !== null;
      }
      if (absent.has(key(collection, id))) return false;
      // the table holds the truth: one DELETE now tells whether it was there (reading first to answer,
      // then deleting at the flush, is two statements; a projection settling a message's work deletes)
      const existed = ops.remove(c, collection, id);
      absent.add(key(collection, id));
      return existed;
    },
    flush(c, collection) {
      if (collection !== undefined) {
        const docs = dirty.get(collection);
        if (docs !== undefined) flushOne(c, collection, docs);
        return;
      }
      for (const [name, docs] of [...dirty]) flushOne(c, name, docs);
    },
    discard() {
      dirty.clear();
      absent.clear(); // a rollback may bring back what was deleted
    },
  };
}
