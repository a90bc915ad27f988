/*
 * The value rules MongoDB applies to JSON values, shared by filters, sorts and updates: the type of a
 * value (its "kind"), the rank of that type in BSON's comparison order, string order and value equality.
 */

/** The JSON kinds BSON orders by; `other` is anything a JSON document cannot hold (Date, RegExp, …). */
export type Kind = 'null' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'other';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      if (Array.isArray(v)) return 'array';
      return isPlainObject(v) ? 'object' : 'other';
  }
}

const SORT_RANK: Record<Kind, number> = { null: 0, number: 1, string: 2, object: 3, array: 4, boolean: 5, other: 6 };

/** Rank of a kind in MongoDB's BSON comparison order. */
export function kindRank(kind: Kind): number {
  return SORT_RANK[kind];
}

/** Rank of a value's type in MongoDB's BSON comparison order (missing and null share rank 0). */
export function sortRank(v: unknown): number {
  return SORT_RANK[kindOf(v)];
}

/**
 * Code point order, which is the byte order of UTF-8 (MongoDB's simple collation, SQLite's BINARY).
 * Plain `<` compares UTF-16 units and puts U+E000..U+FFFF after supplementary characters.
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** MongoDB value equality: numbers by value, objects field by field in order, arrays element-wise. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      const k = ka[i]!;
      if (k !== kb[i] || !valuesEqual(a[k], b[k])) return false;
    }
    return true;
  }
  return (a === null || a === undefined) && (b === null || b === undefined);
}
