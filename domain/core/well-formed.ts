import type { LimitPath } from './input-limits.ts';

/**
 * Text the platform takes in must be well-formed Unicode. A JSON string may hold a lone surrogate
 * (`"\ud800"`): it has no UTF-8, so whatever turns it into bytes either fails (encodeURIComponent, the
 * derived UUID v5 of an id, which answered 500) or writes U+FFFD (SQLite, hashes), making two different
 * values one key. Refused at the door instead (http/core/well-formed.ts), naming the field.
 */

// with the `u` flag a paired surrogate is one astral code point: only a lone one is a Cs code point
const LONE_SURROGATE = /\p{Cs}/u;

export const isWellFormedText = (s: string): boolean => !LONE_SURROGATE.test(s);

/**
 * The path of the first string value or object key (depth first, in document order) holding a lone
 * surrogate, or null. A key's path ends with the key. Iterative, like checkJsonLimits (one stack entry per
 * level, the path built only for a find): it runs on bodies the input limits have bounded, but any value
 * is walked in bounded stack space.
 */
export function firstIllFormedText(value: unknown): LimitPath | null {
  if (typeof value === 'string') return isWellFormedText(value) ? null : [];
  if (typeof value !== 'object' || value === null) return null;
  const containers: object[] = [value];
  const keyLists: Array<string[] | null> = [Array.isArray(value) ? null : Object.keys(value)];
  const nexts: number[] = [0];
  const pathTo = (): LimitPath => nexts.map((n, d) => keyLists[d]?.[n - 1] ?? n - 1);
  while (containers.length > 0) {
    const top = containers.length - 1;
    const keys = keyLists[top]!;
    const size = keys === null ? (containers[top] as unknown[]).length : keys.length;
    if (nexts[top]! >= size) {
      containers.pop();
      keyLists.pop();
      nexts.pop();
      continue;
    }
    const i = nexts[top]!++;
    if (keys !== null && !isWellFormedText(keys[i]!)) return pathTo();
    const child =
      keys === null ? (containers[top] as unknown[])[i] : (containers[top] as Record<string, unknown>)[keys[i]!];
    if (typeof child === 'string') {
      if (!isWellFormedText(child)) return pathTo();
    } else if (typeof child === 'object' && child !== null) {
      containers.push(child);
      keyLists.push(Array.isArray(child) ? null : Object.keys(child));
      nexts.push(0);
    }
  }
  return null;
}
