/**
 * The naive evaluator: the pattern semantics written as a plain recursion over the pattern and the event,
 * independently of the compiled automaton (no flattening, no indexes, no array ids). It is the oracle of the
 * property tests and the baseline of the matcher benchmark.
 *
 * The array rule in recursive form. Each sub-pattern can be satisfied in two ways:
 *   pos: every field holds and at least one holds by a present leaf (so it pins array elements);
 *   neg: every field holds by absence (exists:false).
 * At an array the sub-pattern meets, pos needs ONE element to satisfy it (all its fields from that element),
 * neg needs EVERY element to (an array no matched field pins is seen whole). An empty array is an absent value.
 * A leaf field is pos when one of its leaves (arrays looked through) matches a positive matcher, neg when it
 * has exists:false and no leaf at all. The event matches when the pattern is pos or neg at the root.
 */
import { blockContains, parseIpAddress } from '../../../../domain/bridge/pattern/ip.address.ts';
import type {
  Leaf,
  Matcher,
  Pattern,
  PatternObject,
  StringMatcher,
} from '../../../../domain/bridge/pattern/pattern.types.ts';

type Verdict = { readonly pos: boolean; readonly neg: boolean };
const ABSENT = Symbol('absent');

const isLeaf = (v: unknown): v is Leaf =>
  typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Elements of an array with nested arrays opened ([[a], b] -> a, b). */
const elements = (arr: unknown[]): unknown[] => arr.flatMap((e) => (Array.isArray(e) ? elements(e) : [e]));

/** The leaves a field holds: itself, or the leaves of its (nested) array; objects hold none. */
const leaves = (v: unknown): Leaf[] => (isLeaf(v) ? [v] : Array.isArray(v) ? elements(v).filter(isLeaf) : []);

const codePoints = (s: string) => Array.from(s);
const startsWith = (s: string[], p: string[]) => p.length <= s.length && p.every((c, i) => s[i] === c);
const fold = (s: string) => s.toUpperCase().toLowerCase();

function wildcardRegExp(source: string): RegExp {
  let re = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\\') re += escapeRe(source[++i] ?? '');
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`, 'su');
}
const escapeRe = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

function stringMatches(m: StringMatcher, s: string): boolean {
  switch (m.kind) {
    case 'prefix':
      return startsWith(codePoints(s), codePoints(m.value));
    case 'suffix':
      return startsWith(codePoints(s).reverse(), codePoints(m.value).reverse());
    case 'equals-ignore-case':
      return fold(s) === fold(m.value);
    case 'wildcard':
      return wildcardRegExp(m.value).test(s);
  }
}

function leafMatches(m: Matcher, v: Leaf): boolean {
  switch (m.kind) {
    case 'equals':
      return typeof v === typeof m.value && v === m.value;
    case 'prefix':
    case 'suffix':
    case 'equals-ignore-case':
    case 'wildcard':
      return typeof v === 'string' && stringMatches(m, v);
    case 'numeric':
      if (typeof v !== 'number') return false;
      if (m.lower && (m.lower.inclusive ? v < m.lower.value : v <= m.lower.value)) return false;
      if (m.upper && (m.upper.inclusive ? v > m.upper.value : v >= m.upper.value)) return false;
      return true;
    case 'cidr': {
      const address = typeof v === 'string' ? parseIpAddress(v) : undefined;
      return address !== undefined && blockContains(m.block, address);
    }
    case 'exists':
      return m.value;
    case 'anything-but':
      if (m.excluded.kind === 'values') return !m.excluded.values.some((x) => typeof x === typeof v && x === v);
      return !(typeof v === 'string' && m.excluded.matchers.some((inner) => stringMatches(inner, v)));
  }
}

function field(matchers: readonly Matcher[], v: unknown): Verdict {
  const held = leaves(v);
  return {
    pos: held.some((leaf) => matchers.some((m) => !(m.kind === 'exists' && !m.value) && leafMatches(m, leaf))),
    neg: held.length === 0 && matchers.some((m) => m.kind === 'exists' && !m.value),
  };
}

function object(p: PatternObject, v: unknown): Verdict {
  if (Array.isArray(v)) {
    const es = elements(v);
    if (es.length === 0) return object(p, ABSENT);
    const each = es.map((e) => object(p, e));
    return { pos: each.some((r) => r.pos), neg: each.every((r) => r.neg) };
  }
  let all = true;
  let somePos = false;
  let allNeg = true;
  for (const [key, sub] of p.fields) {
    const child = isObject(v) && Object.hasOwn(v, key) ? v[key] : ABSENT;
    const r = sub.kind === 'matchers' ? field(sub.matchers, child) : object(sub, child);
    all &&= r.pos || r.neg;
    somePos ||= r.pos;
    allNeg &&= r.neg;
  }
  return { pos: all && somePos, neg: allNeg };
}

export function naiveMatch(pattern: Pattern, event: unknown): boolean {
  const r = object(pattern, event);
  return r.pos || r.neg;
}

/** Every rule tried in turn: what a bus without the compiled matcher would do. */
export const naiveMatchAll = (rules: ReadonlyArray<{ id: string; pattern: Pattern }>, event: unknown): string[] => [
  ...new Set(rules.filter((r) => naiveMatch(r.pattern, event)).map((r) => r.id)),
];
