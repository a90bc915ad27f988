import { leafKey } from './leaf.key.ts';
import { canonicalNumber } from './number.value.ts';
import type { Matcher, Pattern, PatternObject } from './pattern.types.ts';

/** One field of a pattern, flattened: the key names from the root and the field's matchers (OR). */
export type Step = { readonly path: readonly string[]; readonly matchers: readonly Matcher[] };

const comparePaths = (a: readonly string[], b: readonly string[]): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
};

/**
 * The pattern's fields in path order. A canonical order lets rules that test the same fields in a different
 * key order share the automaton's states; the order does not change what matches.
 */
export function stepsOf(pattern: Pattern): Step[] {
  const steps: Step[] = [];
  const walk = (obj: PatternObject, prefix: readonly string[]) => {
    for (const [key, value] of obj.fields) {
      const path = [...prefix, key];
      if (value.kind === 'matchers') steps.push({ path, matchers: value.matchers });
      else walk(value, path);
    }
  };
  walk(pattern, []);
  return steps.sort((a, b) => comparePaths(a.path, b.path));
}

/** A text equal for matchers that match the same values (used to share automaton states between rules). */
export function matcherKey(m: Matcher): string {
  switch (m.kind) {
    case 'equals':
      return `=${leafKey(m.value)}`;
    case 'prefix':
    case 'suffix':
    case 'wildcard':
    case 'equals-ignore-case':
      return `${m.kind}:${m.value}`;
    case 'numeric':
      return `numeric:${m.lower ? `${m.lower.inclusive ? '>=' : '>'}${canonicalNumber(m.lower.value)}` : ''},${m.upper ? `${m.upper.inclusive ? '<=' : '<'}${canonicalNumber(m.upper.value)}` : ''}`;
    case 'cidr':
      return `cidr:${m.block.address.join(':')}/${m.block.prefixLength}`;
    case 'exists':
      return `exists:${m.value}`;
    case 'anything-but': {
      const ex = m.excluded;
      switch (ex.kind) {
        case 'values':
          return `but:${JSON.stringify([...new Set(ex.values.map(leafKey))].sort())}`;
        case 'strings':
          return `but:${JSON.stringify([...new Set(ex.matchers.map(matcherKey))].sort())}`;
        default: {
          const never: never = ex;
          return never;
        }
      }
    }
    default: {
      const never: never = m;
      return never;
    }
  }
}

export const matchersKey = (matchers: readonly Matcher[]): string =>
  JSON.stringify([...new Set(matchers.map(matcherKey))].sort());
