import type { Document } from 'mongodb';
import { isPlainObject, normalizeFilter, validateFilter, validateUpdate } from '../core/query/index.ts';
import type { Doc, Filter, FindOptions, Sort, Update } from '../core/read-store.port.ts';

/*
 * Port ⇄ MongoDB documents. The port's `id` is MongoDB's `_id` (in documents, filters, sorts, index
 * keys). Filters and updates go through the same validation as the embedded adapter's, so both reject
 * the same inputs, and RegExp values are sent as `{$regex, $options}` strings (the BSON encoder would map
 * the JavaScript `g` flag to PCRE `s`).
 */

/** Same rule as the embedded adapter: letters, digits, `_ . -`, not starting with `.` or `-`. */
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function assertCollectionName(name: string): void {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    throw new Error(`read store: invalid collection name ${JSON.stringify(name)} (letters, digits, _ . - allowed)`);
  }
}

/** `id` → `_id`, `id.x` → `_id.x` */
export const toMongoPath = (path: string) => (path === 'id' || path.startsWith('id.') ? `_${path}` : path);

function renameIds(filter: Filter): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    out[key === '$and' || key === '$or' ? key : toMongoPath(key)] =
      key === '$and' || key === '$or' ? (value as Filter[]).map(renameIds) : value;
  }
  return out;
}

export function toMongoFilter(filter: Filter): Document {
  validateFilter(filter);
  return renameIds(normalizeFilter(filter));
}

/** An update document; an empty update becomes `{$set: {}}`, which MongoDB 5.0+ accepts as a no-op. */
export function toMongoUpdate(update: Update): Document {
  validateUpdate(update);
  const out: Document = {};
  if (update.$set && Object.keys(update.$set).length > 0) out.$set = update.$set;
  if (update.$unset && update.$unset.length > 0) out.$unset = Object.fromEntries(update.$unset.map((p) => [p, '']));
  if (update.$inc && Object.keys(update.$inc).length > 0) out.$inc = update.$inc;
  return Object.keys(out).length > 0 ? out : { $set: {} };
}

/** The sort with `_id` as the final tie-breaker, for a total order that paging can rely on. */
export function toMongoSort(sort: Sort | undefined): Record<string, 1 | -1> {
  const out: Record<string, 1 | -1> = {};
  for (const [path, dir] of Object.entries(sort ?? {})) {
    if (dir !== 1 && dir !== -1) throw new Error(`read store sort: direction of ${path} must be 1 or -1`);
    out[toMongoPath(path)] = dir;
  }
  if (!('_id' in out)) out._id = 1;
  return out;
}

export function checkPaging(options: FindOptions): { skip: number; limit: number } {
  const { skip = 0, limit = 0 } = options;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new Error('read store: skip must be a non-negative integer');
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error('read store: limit must be a non-negative integer');
  return { skip, limit };
}

export type Stored = Document & { _id: string };

export function toMongoDoc(doc: Doc): Stored {
  if (!isPlainObject(doc) || typeof doc.id !== 'string') throw new Error('read store: a document needs a string id');
  const { id, ...fields } = doc;
  if ('_id' in fields) throw new Error('read store: the field _id is reserved (a document is identified by id)');
  return { _id: id, ...fields };
}

export function fromMongoDoc<T extends Doc>(stored: Document): T {
  const { _id, ...fields } = stored;
  return { id: String(_id), ...fields } as T;
}

export function toMongoIndexKeys(fields: Sort): Record<string, 1 | -1> {
  return Object.fromEntries(Object.entries(fields).map(([path, dir]) => [toMongoPath(path), dir]));
}
