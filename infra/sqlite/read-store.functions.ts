import type Database from 'better-sqlite3';
import { setBounded } from '../core/bounded.ts';
import { compileFilter, isPlainObject, type Matcher, parsePath } from '../core/query/index.ts';
import type { Filter } from '../core/read-store.port.ts';
import { sortKey } from './read-store.sort-key.ts';

/*
 * SQL functions of the embedded read store. All are deterministic (pure functions of their arguments),
 * which lets SQLite evaluate them freely; none is used in a schema object, so the file stays readable by
 * any SQLite tool.
 *   mongo_match(doc, filterJson)  1 when the document matches the filter (the exact residual of a query)
 *   mongo_get(doc, path)          JSON text of the value at a dotted path, without fan-out: a numeric
 *                                 component indexes an array or names an object field; NULL when missing
 *   mongo_sort_key(json)          sortKey of a JSON text (NULL: null)
 */

/** compiled filters by their JSON text; a query passes the same text for every row */
const MAX_CACHED_FILTERS = 256;

export function lookupPath(doc: unknown, parts: readonly string[]): unknown {
  let cur = doc;
  for (const part of parts) {
    if (Array.isArray(cur)) cur = /^(0|[1-9][0-9]*)$/.test(part) ? cur[Number(part)] : undefined;
    else if (isPlainObject(cur) && Object.hasOwn(cur, part)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

export function registerReadStoreFunctions(db: Database.Database): void {
  const matchers = new Map<string, Matcher>();
  const matcherFor = (filterJson: string): Matcher => {
    let m = matchers.get(filterJson);
    if (!m) {
      m = compileFilter(JSON.parse(filterJson) as Filter);
      setBounded(matchers, filterJson, m, MAX_CACHED_FILTERS);
    }
    return m;
  };
  db.function('mongo_match', { deterministic: true }, (doc: unknown, filterJson: unknown) =>
    typeof doc === 'string' && matcherFor(String(filterJson))(JSON.parse(doc)) ? 1 : 0,
  );
  db.function('mongo_get', { deterministic: true }, (doc: unknown, path: unknown) => {
    if (typeof doc !== 'string') return null;
    const value = lookupPath(JSON.parse(doc), parsePath(String(path)));
    return value === undefined ? null : JSON.stringify(value);
  });
  db.function('mongo_sort_key', { deterministic: true }, (json: unknown) =>
    sortKey(typeof json === 'string' ? JSON.parse(json) : null),
  );
}
