import { parseCidr } from './ip.address.ts';
import { describeJson, isPlainObject } from './json.shape.ts';
import { isJsonNumber } from './number.value.ts';
import { type JsonPath, PatternError } from './pattern.error.ts';
import type { AnythingButMatcher, Bound, Matcher, NumericMatcher, StringMatcher } from './pattern.types.ts';
import { parseWildcard } from './wildcard.parse.ts';

/** The matcher keys this platform accepts, as the spec's table names them. */
export const MATCHER_KEYS = [
  'prefix',
  'suffix',
  'anything-but',
  'numeric',
  'cidr',
  'exists',
  'equals-ignore-case',
  'wildcard',
] as const;
const STRING_KEYS = ['prefix', 'suffix', 'wildcard', 'equals-ignore-case'] as const;
type StringKey = (typeof STRING_KEYS)[number];

/** One element of a field's matcher array: a literal, or an object with exactly one matcher key. */
export function parseMatcher(json: unknown, path: JsonPath): Matcher {
  if (typeof json === 'string' || typeof json === 'boolean' || json === null) return { kind: 'equals', value: json };
  if (typeof json === 'number') {
    if (!isJsonNumber(json)) throw new PatternError(path, `${String(json)} is not a JSON number`);
    return { kind: 'equals', value: json };
  }
  if (!isPlainObject(json))
    throw new PatternError(
      path,
      `a matcher is a literal (string, number, true, false, null) or a matcher object, not ${describeJson(json)}`,
    );
  const keys = Object.keys(json);
  if (keys.length !== 1)
    throw new PatternError(
      path,
      `a matcher object has exactly one key, found ${keys.length === 0 ? 'none' : keys.map((k) => JSON.stringify(k)).join(', ')}`,
    );
  const key = keys[0] ?? '';
  const value = json[key];
  const at = [...path, key];
  switch (key) {
    case 'prefix':
    case 'suffix':
    case 'wildcard':
    case 'equals-ignore-case':
      return parseStringMatcher(key, value, at);
    case 'numeric':
      return parseNumeric(value, at);
    case 'cidr': {
      if (typeof value !== 'string')
        throw new PatternError(at, `cidr takes a string such as "10.0.0.0/24", not ${describeJson(value)}`);
      const block = parseCidr(value);
      if (typeof block === 'string') throw new PatternError(at, `bad CIDR: ${block}`);
      return { kind: 'cidr', value, block };
    }
    case 'exists':
      if (typeof value !== 'boolean')
        throw new PatternError(at, `exists takes true or false, not ${describeJson(value)}`);
      return { kind: 'exists', value };
    case 'anything-but':
      return parseAnythingBut(value, at);
    default:
      throw new PatternError(
        path,
        `unknown matcher ${JSON.stringify(key)} (expected one of ${MATCHER_KEYS.join(', ')})`,
      );
  }
}

function parseStringMatcher(key: StringKey, value: unknown, path: JsonPath): StringMatcher {
  if (typeof value !== 'string') throw new PatternError(path, `${key} takes a string, not ${describeJson(value)}`);
  switch (key) {
    case 'prefix':
    case 'suffix':
    case 'equals-ignore-case':
      return { kind: key, value };
    case 'wildcard': {
      const parts = parseWildcard(value);
      if (typeof parts === 'string') throw new PatternError(path, parts);
      return { kind: 'wildcard', value, parts };
    }
    default: {
      const never: never = key;
      return never;
    }
  }
}

const LOWER_OPS: Record<string, boolean> = { '>': false, '>=': true };
const UPPER_OPS: Record<string, boolean> = { '<': false, '<=': true };
const OPS = ['<', '<=', '=', '>', '>='];

function parseNumeric(value: unknown, path: JsonPath): NumericMatcher {
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 4))
    throw new PatternError(path, 'numeric takes one or two operator/number pairs, such as [">", 0, "<=", 5]');
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  for (let i = 0; i < value.length; i += 2) {
    const op: unknown = value[i];
    const n: unknown = value[i + 1];
    if (typeof op !== 'string' || !OPS.includes(op))
      throw new PatternError(
        [...path, i],
        `unknown numeric operator ${describeJson(op)} (expected one of ${OPS.join(' ')})`,
      );
    if (!isJsonNumber(n))
      throw new PatternError([...path, i + 1], `numeric compares with a JSON number, not ${describeJson(n)}`);
    if (op === '=') {
      if (value.length !== 2) throw new PatternError([...path, i], '"=" cannot be combined with another pair');
      return { kind: 'numeric', lower: { value: n, inclusive: true }, upper: { value: n, inclusive: true } };
    }
    const lowerInclusive = LOWER_OPS[op];
    const upperInclusive = UPPER_OPS[op];
    if (lowerInclusive !== undefined) {
      if (lower) throw new PatternError([...path, i], 'numeric has two lower bounds');
      lower = { value: n, inclusive: lowerInclusive };
    } else if (upperInclusive !== undefined) {
      if (upper) throw new PatternError([...path, i], 'numeric has two upper bounds');
      upper = { value: n, inclusive: upperInclusive };
    }
  }
  if (lower && upper && lower.value >= upper.value)
    throw new PatternError(
      path,
      `numeric range is empty: lower bound ${lower.value} is not below upper bound ${upper.value}`,
    );
  return { kind: 'numeric', ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
}

function parseAnythingBut(value: unknown, path: JsonPath): AnythingButMatcher {
  if (typeof value === 'string' || isJsonNumber(value))
    return { kind: 'anything-but', excluded: { kind: 'values', values: [value] } };
  if (Array.isArray(value)) {
    if (value.length === 0) throw new PatternError(path, 'anything-but needs at least one value');
    const values = value.map((v: unknown, i) => {
      if (typeof v === 'string' || isJsonNumber(v)) return v;
      throw new PatternError([...path, i], `anything-but lists strings and numbers only, not ${describeJson(v)}`);
    });
    return { kind: 'anything-but', excluded: { kind: 'values', values } };
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const key = keys[0] ?? '';
    if (keys.length !== 1 || !(STRING_KEYS as readonly string[]).includes(key))
      throw new PatternError(
        path,
        `anything-but takes one of ${STRING_KEYS.join(', ')} as an object, found ${keys.length === 0 ? 'no key' : keys.map((k) => JSON.stringify(k)).join(', ')}`,
      );
    const inner: unknown = value[key];
    const at = [...path, key];
    if (Array.isArray(inner)) {
      if (inner.length === 0) throw new PatternError(at, `anything-but ${key} needs at least one string`);
      return {
        kind: 'anything-but',
        excluded: {
          kind: 'strings',
          matchers: inner.map((s: unknown, i) => parseStringMatcher(key as StringKey, s, [...at, i])),
        },
      };
    }
    return {
      kind: 'anything-but',
      excluded: { kind: 'strings', matchers: [parseStringMatcher(key as StringKey, inner, at)] },
    };
  }
  throw new PatternError(
    path,
    `anything-but takes a string, a number, a non-empty list of them, or {prefix|suffix|wildcard|equals-ignore-case}, not ${describeJson(value)}`,
  );
}
