import { isPlainObject, normalizeFilter, parsePath } from '../core/query/index.ts';
import type { Filter, FindOptions, IndexSpec, Sort } from '../core/read-store.port.ts';

/*
 * SQL text of the embedded read store (pure functions). A collection is a table `coll_<name>` with
 * columns `id TEXT PRIMARY KEY, doc TEXT` (the whole document as JSON, `id` included).
 *
 * Filtering: conditions on the fields of the collection's SQLite expression indexes are emitted as plain
 * SQL on the same `json_extract(doc, '$.path')` expression, so SQLite can search the index. Such a
 * condition must only ever select a superset of the matching documents: it is emitted for string and
 * number operands only, because json_extract returns JSON true/false as the integers 1/0 and JSON null as
 * SQL NULL (booleans and nulls would need the type too). Number/text type bracketing (SQLite orders all
 * numbers before all text) keeps `$gt: 5` from scanning the strings. What the SQL does not express
 * exactly runs as the residual `mongo_match(doc, ?)`; string conditions on index paths are exact and leave
 * it, and a sort on such a path uses the plain expression, so the index delivers rows in order (a claim
 * of the first due item reads one index entry, not the whole collection). An index declared without
 * `multi` promises scalars at its paths; a document holding an array there is invisible to the narrowed
 * queries (not to the others).
 */

export const TABLE_PREFIX = 'coll_';
/** letters, digits, `_`, `.`, `-`; not starting with `.` or `-` (MongoDB rejects a leading dot) */
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertCollectionName(name: string): void {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name)) {
    throw new Error(`read store: invalid collection name ${JSON.stringify(name)} (letters, digits, _ . - allowed)`);
  }
}

export const quoteIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;
export const quoteText = (s: string) => `'${s.replaceAll("'", "''")}'`;
export const tableName = (collection: string) => TABLE_PREFIX + collection;
export const tableOf = (collection: string) => quoteIdent(tableName(collection));
/** index names are global in SQLite; `:` cannot occur in a collection name, so these cannot collide */
export const indexNameOf = (collection: string, index: string) => `ix:${collection}:${index}`;

/**
 * The SQLite JSON path addressing exactly what `lookupPath` addresses, or null when json_extract cannot:
 * a canonical numeric component (MongoDB: array position OR field name) or a `"` in a component (SQLite
 * JSON paths have no escape for it). Those paths fall back to the `mongo_get` function.
 */
export function jsonPath(path: string): string | null {
  let out = '$';
  for (const part of parsePath(path)) {
    if (ARRAY_INDEX.test(part) || part.includes('"')) return null;
    out += PLAIN_KEY.test(part) ? `.${part}` : `."${part}"`;
  }
  return out;
}

export function extractExpr(path: string): string | null {
  const p = jsonPath(path);
  return p === null ? null : `json_extract(doc, ${quoteText(p)})`;
}

/**
 * CREATE INDEX statement of an IndexSpec, or null when SQLite cannot index it usefully: `multi` paths
 * (json_extract sees the array as one text value) and paths without a JSON path. Such an index then
 * exists on MongoDB only (including its `unique` constraint).
 */
export function indexSql(collection: string, spec: IndexSpec): string | null {
  if (spec.multi) return null;
  const columns: string[] = [];
  for (const [path, dir] of Object.entries(spec.fields)) {
    const expr = extractExpr(path);
    if (expr === null) return null;
    columns.push(dir === -1 ? `${expr} DESC` : expr);
  }
  const unique = spec.unique ? 'UNIQUE ' : '';
  const name = quoteIdent(indexNameOf(collection, spec.name));
  return `CREATE ${unique}INDEX ${name} ON ${tableOf(collection)} (${columns.join(', ')})`;
}

const INDEXED_EXPR = /json_extract\(doc, '(?:[^']|'')*'\)/g;

/** The json_extract expressions found in a table's CREATE INDEX statements (as written by indexSql). */
export function indexedExpressions(indexStatements: ReadonlyArray<string | null>): Set<string> {
  const out = new Set<string>();
  // automatic indexes (the primary key's) have no statement
  for (const sql of indexStatements) for (const m of sql?.matchAll(INDEXED_EXPR) ?? []) out.add(m[0]);
  return out;
}

type Where = {
  conds: string[];
  params: unknown[];
  /** top-level filter keys the SQL expresses exactly: the residual need not check them again */
  exact: Set<string>;
  /** paths whose rows are all TEXT once the SQL applies: they sort by the plain (indexed) expression */
  text: Set<string>;
};

const narrowable = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

const SQL_COMPARISON: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/**
 * Emits the SQL for one field's condition; answers whether that SQL is EXACT. It is when every operator
 * was a string comparison, equality or `$in` of strings: on a declared-scalar (non-multi) index path the
 * JSON string and only it compares so in SQL. Numbers are never exact (json_extract gives JSON true/false
 * as 1/0, so `= 1` also selects `true`).
 */
function narrowCondition(expr: string, condition: unknown, out: Where): boolean {
  if (narrowable(condition)) {
    out.conds.push(`${expr} = ?`);
    out.params.push(condition);
    return typeof condition === 'string';
  }
  if (!isPlainObject(condition)) return false;
  let exact = Object.keys(condition).length > 0;
  for (const [op, v] of Object.entries(condition)) {
    if (op === '$eq' && narrowable(v)) {
      out.conds.push(`${expr} = ?`);
      out.params.push(v);
      exact &&= typeof v === 'string';
    } else if (op === '$in' && Array.isArray(v) && v.length > 0 && v.every(narrowable)) {
      out.conds.push(`${expr} IN (${v.map(() => '?').join(', ')})`);
      out.params.push(...v);
      exact &&= v.every((x) => typeof x === 'string');
    } else if (SQL_COMPARISON[op] !== undefined && narrowable(v)) {
      const upward = op === '$gt' || op === '$gte';
      // numbers sort before all text: bound the open side so only the operand's type is scanned
      const bracket = typeof v === 'number' ? (upward ? ` AND ${expr} < ''` : '') : upward ? '' : ` AND ${expr} >= ''`;
      out.conds.push(`${expr} ${SQL_COMPARISON[op]} ?${bracket}`);
      out.params.push(v);
      exact &&= typeof v === 'string';
    } else exact = false;
  }
  return exact;
}

function collectNarrowing(filter: Filter, indexed: ReadonlySet<string>, out: Where, top: boolean): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') {
      for (const sub of value as Filter[]) collectNarrowing(sub, indexed, out, false);
    } else if (key === 'id') {
      // the primary key column: always indexed, always holds the document's id
      if (narrowCondition('id', value, out) && top) out.exact.add(key);
    } else if (!key.startsWith('$')) {
      const expr = extractExpr(key);
      if (expr === null || !indexed.has(expr)) continue;
      if (narrowCondition(expr, value, out)) {
        out.text.add(key);
        if (top) out.exact.add(key);
      }
    }
  }
}

function narrowing(filter: Filter, indexed: ReadonlySet<string>): Where {
  const out: Where = { conds: [], params: [], exact: new Set(), text: new Set() };
  collectNarrowing(filter, indexed, out, true);
  return out;
}

/**
 * ` WHERE …` (or '') for a validated filter: index narrowing, then the exact residual (`mongo_match`, a
 * JSON.parse per row) for what the SQL does not express exactly; none when it expresses all of it.
 */
export function whereClause(
  filter: Filter,
  indexed: ReadonlySet<string>,
  where = narrowing(filter, indexed),
): { sql: string; params: unknown[] } {
  const conds = [...where.conds];
  const params = [...where.params];
  const residual = Object.fromEntries(Object.entries(filter).filter(([k]) => !where.exact.has(k)));
  if (Object.keys(residual).length > 0) {
    conds.push('mongo_match(doc, ?)');
    params.push(JSON.stringify(normalizeFilter(residual)));
  }
  return { sql: conds.length > 0 ? ` WHERE ${conds.join(' AND ')}` : '', params };
}

/** sortRank of a json_type: null/missing 0, numbers 1, text 2, objects 3, arrays 4, booleans 5 */
const rankOf = (type: string) =>
  `CASE ${type} WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 ` +
  `WHEN 'array' THEN 4 WHEN 'true' THEN 5 WHEN 'false' THEN 5 ELSE 0 END`;

/**
 * ` ORDER BY …` in compareForSort's order (MongoDB's BSON order for scalars), `id` last for a stable,
 * total order that paging can rely on. Scalars sort natively (type rank, then json_extract: numbers by
 * value, text by BINARY = code point order, booleans as 0/1); objects and arrays by mongo_sort_key.
 */
export function orderByClause(sort: Sort | undefined, text: ReadonlySet<string> = new Set()): string {
  const terms: string[] = [];
  for (const [path, dir] of Object.entries(sort ?? {})) {
    if (dir !== 1 && dir !== -1) throw new Error(`read store sort: direction of ${path} must be 1 or -1`);
    const d = dir === 1 ? 'ASC' : 'DESC';
    if (path === 'id') {
      terms.push(`id ${d}`);
      return ` ORDER BY ${terms.join(', ')}`; // ids are unique: later keys cannot matter
    }
    const p = jsonPath(path);
    if (p === null) {
      terms.push(`mongo_sort_key(mongo_get(doc, ${quoteText(path)})) ${d}`);
      continue;
    }
    const type = `json_type(doc, ${quoteText(p)})`;
    const value = `json_extract(doc, ${quoteText(p)})`;
    if (text.has(path)) {
      // every row holds text there (the WHERE says so): the plain expression, which an index can deliver in order
      terms.push(`${value} ${d}`);
      continue;
    }
    terms.push(
      `${rankOf(type)} ${d}`,
      `CASE WHEN ${type} IN ('object', 'array') THEN mongo_sort_key(${value}) ELSE ${value} END ${d}`,
    );
  }
  terms.push('id ASC');
  return ` ORDER BY ${terms.join(', ')}`;
}

function checkPaging(options: FindOptions): { skip: number; limit: number } {
  const { skip = 0, limit = 0 } = options;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new Error('read store: skip must be a non-negative integer');
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error('read store: limit must be a non-negative integer');
  return { skip, limit };
}

/** SELECT of `columns` for a validated filter, sorted and paged (limit 0 = no limit, as in MongoDB). */
export function selectSql(
  collection: string,
  columns: string,
  filter: Filter,
  indexed: ReadonlySet<string>,
  options: FindOptions = {},
): { sql: string; params: unknown[] } {
  const { skip, limit } = checkPaging(options);
  const narrowed = narrowing(filter, indexed);
  const where = whereClause(filter, indexed, narrowed);
  let sql = `SELECT ${columns} FROM ${tableOf(collection)}${where.sql}${orderByClause(options.sort, narrowed.text)}`;
  const params = [...where.params];
  if (limit > 0 || skip > 0) {
    sql += ' LIMIT ? OFFSET ?';
    params.push(limit > 0 ? limit : -1, skip);
  }
  return { sql, params };
}

/**
 * Counts per value of `field`: rows of (t, k, c) where t is the json_type ('json' when k is the JSON text
 * from mongo_get) and k the json_extract value; `groupKey` turns them back into JSON values.
 */
export function groupSql(
  collection: string,
  field: string,
  filter: Filter,
  indexed: ReadonlySet<string>,
): { sql: string; params: unknown[] } {
  const where = whereClause(filter, indexed);
  const p = jsonPath(field);
  const columns =
    p === null
      ? `'json' AS t, mongo_get(doc, ${quoteText(field)}) AS k`
      : `json_type(doc, ${quoteText(p)}) AS t, json_extract(doc, ${quoteText(p)}) AS k`;
  return {
    sql: `SELECT ${columns}, count(*) AS c FROM ${tableOf(collection)}${where.sql} GROUP BY t, k`,
    params: where.params,
  };
}

export function groupKey(t: string | null, k: unknown): unknown {
  switch (t) {
    case null:
    case 'null':
      return null;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'integer':
    case 'real':
      return Number(k);
    case 'text':
      return k;
    default: // 'array', 'object', 'json': JSON text
      return k === null ? null : JSON.parse(String(k));
  }
}
