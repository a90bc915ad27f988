/**
 * Bounded caches: a Map or Set kept to at most `max` entries, the oldest (first inserted, or re-inserted
 * last: delete then set moves an entry to the end) forgotten first.
 *
 * Not one entry per insert through `keys().next()`: V8 keeps a deleted entry's slot until it rebuilds the
 * table, and iteration starts at the table's first slot, so at the bound every insert walked past all the
 * entries deleted since the last rebuild (measured: ~4 µs an insert at 10,000 entries, against ~0.2 µs
 * here). Past the bound the oldest eighth goes in one walk, which is then paid once per max/8 inserts; the
 * cache holds between 7/8 of `max` and `max` entries.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) forgetOldest(map, map.size - max + Math.floor(max / 8));
}

/** setBounded with `key` as the newest entry even when it was there (delete, then set: it moves to the end) */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  setBounded(map, key, value, max);
}

/** setBounded for a Set */
export function addBounded<T>(set: Set<T>, value: T, max: number): void {
  set.add(value);
  if (set.size > max) forgetOldest(set, set.size - max + Math.floor(max / 8));
}

function forgetOldest<K>(entries: Map<K, unknown> | Set<K>, count: number): void {
  let left = count;
  // deleting the entry the iteration stands on is allowed: it goes on with the next one
  for (const key of entries.keys()) {
    if (left-- <= 0) break;
    entries.delete(key);
  }
}
