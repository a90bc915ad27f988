import { isPlainObject } from './bson-order.ts';

/*
 * Field paths (`a.b.c`) and MongoDB's "element path" iteration: resolving a path yields a list of
 * candidate values, one per branch, with MISSING for a branch where the path ends early.
 *   - a component applied to an array fans out over the elements that are documents (nested arrays and
 *     scalars are skipped, as in MongoDB);
 *   - a numeric component applied to an array also selects that element (`a.1`); the other elements that
 *     are documents are still searched for a field named "1".
 */

/** The value of a branch where the path ends early (distinct from a stored null). */
export const MISSING: unique symbol = Symbol('missing');

/** A value the path reached, or MISSING. */
export type Candidate = unknown;

/** A canonical array offset ("0", "7", not "07"): the only components MongoDB treats as positions. */
export function arrayIndex(component: string): number {
  return /^(0|[1-9][0-9]*)$/.test(component) ? Number(component) : -1;
}

/**
 * Splits a dotted path and rejects what MongoDB does not accept as a query path: empty components
 * (`a..b`, trailing dot) and `$`-prefixed components (positional operators are not in the subset).
 */
export function parsePath(path: string): string[] {
  if (typeof path !== 'string' || path === '') throw new Error('read store: a field path must be a non-empty string');
  const parts = path.split('.');
  for (const p of parts) {
    if (p === '') throw new Error(`read store: invalid field path "${path}" (empty component)`);
    if (p.startsWith('$')) throw new Error(`read store: invalid field path "${path}" ($-prefixed component)`);
  }
  return parts;
}

/** Appends to `out` the candidates of `parts` (from component `i` on) in `value`. */
export function resolvePath(value: unknown, parts: readonly string[], i: number, out: Candidate[]): void {
  if (i === parts.length) {
    out.push(value === undefined ? MISSING : value);
    return;
  }
  const key = parts[i]!;
  if (Array.isArray(value)) {
    const index = arrayIndex(key);
    for (let j = 0; j < value.length; j++) {
      const el: unknown = value[j];
      if (j === index) resolvePath(el, parts, i + 1, out);
      else if (isPlainObject(el)) resolvePath(el, parts, i, out);
    }
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, key)) resolvePath(value[key], parts, i + 1, out);
  else out.push(MISSING);
}
