import type Database from 'better-sqlite3';
import { setBounded } from '../core/bounded.ts';
import { checkSpec } from '../core/collection-spec.ts';
import {
  applyUpdate,
  compareForSort,
  isPlainObject,
  validateFilter,
  validateUpdate,
  validateUpdateLimit,
} from '../core/query/index.ts';
import type { CollectionSpec, Doc, Filter, FindOptions, Sort, Update } from '../core/read-store.port.ts';
import { processStatements } from './process-statements.ts';
import {
  groupKey,
  groupSql,
  indexedExpressions,
  indexNameOf,
  indexSql,
  quoteIdent,
  selectSql,
  TABLE_PREFIX,
  tableName,
  tableOf,
  whereClause,
} from './read-store.sql.ts';

/*
 * The read store's operations on one SQLite connection, synchronous (better-sqlite3). The caller decides
 * which connection and when (mutex, transaction); these only build and run statements.
 *
 * Collections are created by their first write (upsert or ensureCollection). Reading a collection that
 * does not exist answers empty, detected from SQLite's "no such table" rather than a lookup first, so
 * the common path costs nothing and a collection dropped by another process is handled the same way.
 */

const MAX_CACHED_STATEMENTS = 500;

/**
 * How long a collection's indexed expressions are trusted before SQLite's schema_version is asked again,
 * instead of that pragma before every query. A stale answer changes the plan, never the rows: a condition
 * narrowed on through json_extract selects the same rows with or without its index, and an index created
 * since is used from the next check. A CREATE or DROP made in this process is seen at once
 * (localSchemaChanges); another process's within this time.
 */
const SCHEMA_RECHECK_MS = 1000;
let localSchemaChanges = 0;
/** CREATEs and DROPs this process made (a transaction that made one notes it again once committed) */
export const schemaChanges = () => localSchemaChanges;
export const noteSchemaChange = () => {
  localSchemaChanges += 1;
};

export type Conn = {
  db: Database.Database;
  stmt(sql: string): Database.Statement;
  /** json_extract expressions of the collection's indexes (cached until the schema changes) */
  indexed(collection: string): ReadonlySet<string>;
  /** drop cached schema knowledge (after a rollback, which can undo a CREATE INDEX) */
  forgetSchema(): void;
};

export function createConn(db: Database.Database): Conn {
  const statements = new Map<string, Database.Statement>();
  const schema = new Map<string, { version: number; exprs: Set<string>; checkedAt: number; local: number }>();
  /**
   * Statements on a table that did not exist, with the schema version they failed at: a collection nobody
   * created yet (a service's due items where that service has no work) is asked for on every engine wake, and
   * preparing a statement only to fail costs ten times the version check that answers the same until a
   * CREATE (in any process) changes the version.
   */
  const missing = new Map<string, { version: number; error: unknown }>();
  let versionStmt: Database.Statement | undefined;
  const currentVersion = () => (versionStmt ??= db.prepare('PRAGMA schema_version').pluck()).get() as number;
  const stmt = (sql: string) => {
    // about to run: a read model can show another process's commit that the event store's probe has not
    // seen yet (process-statements.ts)
    processStatements.ran();
    let s = statements.get(sql);
    if (!s) {
      const miss = missing.get(sql);
      if (miss !== undefined) {
        if (currentVersion() === miss.version) throw miss.error;
        missing.delete(sql);
      }
      try {
        s = db.prepare(sql);
      } catch (e) {
        // only outside a transaction: a version reached inside one (its own CREATEs) comes back down with a
        // rollback, and a later CREATE would reach it again while this entry still said "missing"
        if (isNoSuchTable(e) && !db.inTransaction) {
          setBounded(missing, sql, { version: currentVersion(), error: e }, MAX_CACHED_STATEMENTS);
        }
        throw e;
      }
      setBounded(statements, sql, s, MAX_CACHED_STATEMENTS);
    }
    return s;
  };
  return {
    db,
    stmt,
    indexed(collection) {
      const cached = schema.get(collection);
      const now = performance.now();
      if (cached && cached.local === localSchemaChanges && now - cached.checkedAt < SCHEMA_RECHECK_MS)
        return cached.exprs;
      // schema_version changes with every CREATE/DROP, in this process or another one
      const version = currentVersion();
      if (cached && cached.version === version) {
        cached.checkedAt = now;
        cached.local = localSchemaChanges;
        return cached.exprs;
      }
      const local = localSchemaChanges;
      const sqls = stmt(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
        .pluck()
        .all(tableName(collection)) as string[];
      const exprs = indexedExpressions(sqls);
      schema.set(collection, { version, exprs, checkedAt: now, local });
      return exprs;
    },
    forgetSchema() {
      schema.clear();
      missing.clear();
    },
  };
}

const isNoSuchTable = (e: unknown) => e instanceof Error && e.message.startsWith('no such table');

/** `fn`, or `empty` when the collection does not exist */
function orEmpty<R>(fn: () => R, empty: R): R {
  try {
    return fn();
  } catch (e) {
    if (isNoSuchTable(e)) return empty;
    throw e;
  }
}

function createTable(c: Conn, collection: string): void {
  c.db.exec(`CREATE TABLE IF NOT EXISTS ${tableOf(collection)} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
}

const parse = <T>(json: string) => JSON.parse(json) as T;

export function get<T extends Doc>(c: Conn, collection: string, id: string): T | null {
  return orEmpty(() => {
    const json = c
      .stmt(`SELECT doc FROM ${tableOf(collection)} WHERE id = ?`)
      .pluck()
      .get(id) as string | undefined;
    return json === undefined ? null : parse<T>(json);
  }, null);
}

export function upsert(c: Conn, collection: string, doc: Doc): void {
  if (!isPlainObject(doc) || typeof doc.id !== 'string') throw new Error('read store: a document needs a string id');
  const { id, ...fields } = doc;
  upsertJson(c, collection, id, JSON.stringify({ id, ...fields })); // id first, as MongoDB's _id
}

/** insert or replace a document given as its JSON text (the caller serialized it, `id` first) */
export function upsertJson(c: Conn, collection: string, id: string, json: string): void {
  const sql = `INSERT INTO ${tableOf(collection)} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`;
  const run = () => c.stmt(sql).run(id, json);
  try {
    run();
  } catch (e) {
    if (!isNoSuchTable(e)) throw e;
    createTable(c, collection);
    run();
  }
}

export function patch(c: Conn, collection: string, id: string, update: Update): boolean {
  validateUpdate(update);
  const table = tableOf(collection);
  return orEmpty(
    () =>
      c.db
        .transaction(() => {
          const json = c.stmt(`SELECT doc FROM ${table} WHERE id = ?`).pluck().get(id) as string | undefined;
          if (json === undefined) return false;
          const next = applyUpdate(parse<Doc>(json), update);
          c.stmt(`UPDATE ${table} SET doc = ? WHERE id = ?`).run(JSON.stringify(next), id);
          return true;
        })
        .immediate(),
    false,
  );
}

export function remove(c: Conn, collection: string, id: string): boolean {
  return orEmpty(() => c.stmt(`DELETE FROM ${tableOf(collection)} WHERE id = ?`).run(id).changes > 0, false);
}

export function removeMany(c: Conn, collection: string, filter: Filter): number {
  validateFilter(filter);
  return orEmpty(() => {
    const where = whereClause(filter, c.indexed(collection));
    return c.stmt(`DELETE FROM ${tableOf(collection)}${where.sql}`).run(...where.params).changes;
  }, 0);
}

export function find<T extends Doc>(c: Conn, collection: string, filter: Filter, options: FindOptions = {}): T[] {
  validateFilter(filter);
  return orEmpty(() => {
    const q = selectSql(collection, 'doc', filter, c.indexed(collection), options);
    return (
      c
        .stmt(q.sql)
        .pluck()
        .all(...q.params) as string[]
    ).map((json) => parse<T>(json));
  }, []);
}

/** find's documents as the JSON text the table holds */
export function findJson(c: Conn, collection: string, filter: Filter, options: FindOptions = {}): string[] {
  validateFilter(filter);
  return orEmpty(() => {
    const q = selectSql(collection, 'doc', filter, c.indexed(collection), options);
    return c
      .stmt(q.sql)
      .pluck()
      .all(...q.params) as string[];
  }, []);
}

export function count(c: Conn, collection: string, filter: Filter): number {
  validateFilter(filter);
  return orEmpty(() => {
    const where = whereClause(filter, c.indexed(collection));
    return c
      .stmt(`SELECT count(*) FROM ${tableOf(collection)}${where.sql}`)
      .pluck()
      .get(...where.params) as number;
  }, 0);
}

/** most frequent first, ties by key in compareForSort order (the MongoDB adapter orders the same way) */
export function sortGroups(groups: Array<{ key: unknown; count: number }>): Array<{ key: unknown; count: number }> {
  return groups.sort((a, b) => b.count - a.count || compareForSort(a.key, b.key));
}

export function groupCount(
  c: Conn,
  collection: string,
  field: string,
  filter: Filter,
): Array<{ key: unknown; count: number }> {
  validateFilter(filter);
  return orEmpty(() => {
    const q = groupSql(collection, field, filter, c.indexed(collection));
    const rows = c.stmt(q.sql).all(...q.params) as Array<{ t: string | null; k: unknown; c: number }>;
    // SQL groups by (type, value); 1 and 1.0 or null and missing arrive as separate rows: merge by key
    const merged = new Map<string, { key: unknown; count: number }>();
    for (const row of rows) {
      const key = groupKey(row.t, row.k);
      const id = JSON.stringify(key);
      const entry = merged.get(id);
      if (entry) entry.count += row.c;
      else merged.set(id, { key, count: row.c });
    }
    return sortGroups([...merged.values()]);
  }, []);
}

/**
 * The first `limit` documents matching `filter` in `sort` order, each given `update` (the port's
 * findManyAndUpdate; findOneAndUpdate is its limit 1). Select-then-update inside one BEGIN IMMEDIATE
 * transaction: the write lock is taken before the select, so no other connection (or process) can claim
 * the same document in between. Nothing matches (a work engine looking for due items, most of the time):
 * answered by a read, without taking the write lock.
 */
export function findManyAndUpdate<T extends Doc>(
  c: Conn,
  collection: string,
  filter: Filter,
  update: Update,
  sort: Sort | undefined,
  limit: number,
): T[] {
  validateFilter(filter);
  validateUpdate(update);
  validateUpdateLimit(limit);
  const table = tableOf(collection);
  return orEmpty(() => {
    const probe = selectSql(collection, 'doc', filter, c.indexed(collection), { sort, limit: 1 });
    if (
      !c.db.inTransaction &&
      c
        .stmt(probe.sql)
        .pluck()
        .get(...probe.params) === undefined
    )
      return [];
    const q = limit === 1 ? probe : selectSql(collection, 'doc', filter, c.indexed(collection), { sort, limit });
    return c.db
      .transaction(() => {
        const put = c.stmt(`UPDATE ${table} SET doc = ? WHERE id = ?`);
        return (
          c
            .stmt(q.sql)
            .pluck()
            .all(...q.params) as string[]
        ).map((json) => {
          const next = applyUpdate(parse<T>(json), update);
          put.run(JSON.stringify(next), next.id);
          return next;
        });
      })
      .immediate();
  }, []);
}

/**
 * Creates the table and the declared indexes. An index whose declaration changed (same name) is dropped
 * and rebuilt; indexes no longer declared are left alone (MongoDB's createIndex does not drop either).
 */
export function ensureCollection(c: Conn, collection: string, spec: CollectionSpec): void {
  checkSpec(spec);
  noteSchemaChange();
  c.db
    .transaction(() => {
      createTable(c, collection);
      for (const index of spec.indexes ?? []) {
        const sql = indexSql(collection, index);
        const name = indexNameOf(collection, index.name);
        const existing = c.stmt(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).pluck().get(name);
        if (existing === (sql ?? undefined)) continue;
        if (existing !== undefined) c.db.exec(`DROP INDEX ${quoteIdent(name)}`);
        if (sql !== null) c.db.exec(sql);
      }
    })
    .immediate();
}

export function dropCollection(c: Conn, collection: string): void {
  noteSchemaChange();
  c.db.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
}

export function listCollections(c: Conn): string[] {
  const names = c
    .stmt(`SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ${TABLE_PREFIX.length}) = ?`)
    .pluck()
    .all(TABLE_PREFIX) as string[];
  return names.map((n) => n.slice(TABLE_PREFIX.length)).sort();
}
