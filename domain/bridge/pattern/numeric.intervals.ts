import type { NumericMatcher } from './pattern.types.ts';

/**
 * The numeric ranges of one field, for stabbing queries: which ranges hold this number? The distinct bounds
 * cut the number line into elementary segments (each bound, and the open stretch between neighbours); a
 * segment tree stores every range on O(log n) nodes, and a query walks one root-to-leaf path. So a lookup
 * costs O(log n + hits) with n ranges, instead of testing every range.
 */
export type NumericIntervals<T> = { collect(x: number, hit: (target: T) => void): void };

export function buildNumericIntervals<T>(
  entries: ReadonlyArray<{ range: NumericMatcher; target: T }>,
): NumericIntervals<T> {
  const bounds = [
    ...new Set(
      entries
        .flatMap(({ range }) => [range.lower?.value, range.upper?.value])
        .filter((v): v is number => v !== undefined),
    ),
  ].sort((a, b) => a - b);
  const m = bounds.length;
  // segment 2k+1 is the point bounds[k]; segment 2k the open stretch below it; segment 2m the stretch above all.
  const segments = 2 * m + 1;
  const at = (v: number) => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((bounds[mid] ?? 0) < v) lo = mid + 1;
      else hi = mid;
    }
    return lo; // first k with bounds[k] >= v
  };
  const tree: Array<T[] | undefined> = [];

  const insert = (n: number, l: number, r: number, from: number, to: number, target: T): void => {
    if (to < l || r < from) return;
    if (from <= l && r <= to) {
      (tree[n] ??= []).push(target);
      return;
    }
    const mid = (l + r) >> 1;
    insert(2 * n, l, mid, from, to, target);
    insert(2 * n + 1, mid + 1, r, from, to, target);
  };

  for (const { range, target } of entries) {
    const from = range.lower ? 2 * at(range.lower.value) + (range.lower.inclusive ? 1 : 2) : 0;
    const to = range.upper ? 2 * at(range.upper.value) + (range.upper.inclusive ? 1 : 0) : segments - 1;
    if (from <= to) insert(1, 0, segments - 1, from, to, target);
  }

  return {
    collect(x, hit) {
      const k = at(x);
      const segment = k < m && bounds[k] === x ? 2 * k + 1 : 2 * k;
      let n = 1;
      let l = 0;
      let r = segments - 1;
      for (;;) {
        const here = tree[n];
        if (here) for (const t of here) hit(t);
        if (l === r) return;
        const mid = (l + r) >> 1;
        if (segment <= mid) {
          n = 2 * n;
          r = mid;
        } else {
          n = 2 * n + 1;
          l = mid + 1;
        }
      }
    },
  };
}
