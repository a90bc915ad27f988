import { foldCase } from './case-fold.ts';
import { parseIpAddress } from './ip.address.ts';
import { createIpTrie } from './ip.trie.ts';
import { leafKey } from './leaf.key.ts';
import { buildNumericIntervals } from './numeric.intervals.ts';
import type { Leaf, Matcher, NumericMatcher } from './pattern.types.ts';
import { createStringIndex } from './string.index.ts';

/**
 * Every positive matcher (all but exists:false) that one automaton state applies to one field path, indexed
 * by kind so that a value finds its matchers without trying them one by one: equal values in a Map, prefixes
 * and suffixes in a trie each walked once over the value, the other wildcards in one string automaton
 * (string.index.ts), equals-ignore-case in a Map of folded strings, numeric ranges in a segment tree, cidr
 * blocks in a bit trie. anything-but is the one kind whose hits are "all but a few": the index finds the
 * excluded ones and reports the rest, so its cost follows its (large) result.
 */
export type ValueIndex<T> = { collect(value: Leaf, hit: (target: T) => void): void };

export function buildValueIndex<T>(
  entries: ReadonlyArray<{ readonly matcher: Matcher; readonly target: T }>,
): ValueIndex<T> {
  const equal = new Map<string, T[]>();
  const ignoringCase = new Map<string, T[]>();
  const strings = createStringIndex<T>();
  let anyStrings = false;
  const ranges: Array<{ range: NumericMatcher; target: T }> = [];
  const blocks = createIpTrie<T>();
  let anyBlocks = false;
  const present: T[] = [];
  // anything-but: entry i reports butTargets[i] unless the value is one it excludes
  const butTargets: T[] = [];
  const butByValue = new Map<string, number[]>();
  const butStrings = createStringIndex<number>();
  const butIgnoringCase = new Map<string, number[]>();

  const push = <K, V>(map: Map<K, V[]>, key: K, v: V) => {
    const list = map.get(key);
    if (list) list.push(v);
    else map.set(key, [v]);
  };

  for (const { matcher: m, target } of entries) {
    switch (m.kind) {
      case 'equals':
        push(equal, leafKey(m.value), target);
        break;
      case 'prefix':
      case 'suffix':
      case 'wildcard':
        strings.add(m, target);
        anyStrings = true;
        break;
      case 'equals-ignore-case':
        push(ignoringCase, foldCase(m.value), target);
        break;
      case 'numeric':
        ranges.push({ range: m, target });
        break;
      case 'cidr':
        blocks.add(m.block, target);
        anyBlocks = true;
        break;
      case 'exists':
        // exists:false is not a value test: the automaton takes it as an absence transition
        if (m.value) present.push(target);
        break;
      case 'anything-but': {
        const entry = butTargets.push(target) - 1;
        const ex = m.excluded;
        switch (ex.kind) {
          case 'values':
            for (const v of ex.values) push(butByValue, leafKey(v), entry);
            break;
          case 'strings':
            for (const inner of ex.matchers) {
              if (inner.kind === 'equals-ignore-case') push(butIgnoringCase, foldCase(inner.value), entry);
              else butStrings.add(inner, entry);
            }
            break;
          default: {
            const never: never = ex;
            return never;
          }
        }
        break;
      }
      default: {
        const never: never = m;
        return never;
      }
    }
  }

  const numeric = ranges.length > 0 ? buildNumericIntervals(ranges) : undefined;
  const excludedAt = new Float64Array(butTargets.length);
  let generation = 0;
  const exclude = (entry: number) => {
    excludedAt[entry] = generation;
  };

  return {
    collect(value, hit) {
      for (const t of present) hit(t);
      // a leaf's key costs a string (a number's canonical text): only made when some matcher looks it up
      const key = equal.size > 0 || butByValue.size > 0 ? leafKey(value) : '';
      if (equal.size > 0) {
        const same = equal.get(key);
        if (same) for (const t of same) hit(t);
      }
      if (typeof value === 'string') {
        if (anyStrings) strings.run(value, hit);
        if (ignoringCase.size > 0) {
          const folded = ignoringCase.get(foldCase(value));
          if (folded) for (const t of folded) hit(t);
        }
        if (anyBlocks) {
          const address = parseIpAddress(value);
          if (address) blocks.collect(address, hit);
        }
      } else if (typeof value === 'number' && numeric) numeric.collect(value, hit);
      if (butTargets.length > 0) {
        generation++;
        if (butByValue.size > 0) butByValue.get(key)?.forEach(exclude);
        if (typeof value === 'string') {
          butStrings.run(value, exclude);
          if (butIgnoringCase.size > 0) butIgnoringCase.get(foldCase(value))?.forEach(exclude);
        }
        for (let i = 0; i < butTargets.length; i++) if (excludedAt[i] !== generation) hit(butTargets[i] as T);
      }
    },
  };
}
