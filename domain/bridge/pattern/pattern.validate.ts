import { checkJsonLimits, LIMIT_LABELS, PATTERN_LIMITS } from '../../core/input-limits.ts';
import { describeJson, isPlainObject } from './json.shape.ts';
import { parseMatcher } from './matcher.validate.ts';
import { type JsonPath, PatternError } from './pattern.error.ts';
import type { Pattern, PatternObject, PatternValue } from './pattern.types.ts';

/**
 * Validates a pattern as written by a client (decoded JSON) and returns its AST, or throws a PatternError
 * (400) naming the first offending element. A pattern is a non-empty object; each field is a non-empty array
 * of matchers or a non-empty nested object mirroring the event's nesting.
 *
 * The input limits for patterns (PATTERN_LIMITS, domain/core/input-limits.ts: 32 levels deep, …) are
 * checked first, by an iterative walk: parseObject/parseValue below recurse once per level, and so does
 * every later walk of the parsed pattern (pattern.steps.ts), which this check keeps shallow.
 */
export function parsePattern(json: unknown): Pattern {
  if (!isPlainObject(json)) throw new PatternError([], `a pattern is a JSON object, not ${describeJson(json)}`);
  const excess = checkJsonLimits(json, PATTERN_LIMITS);
  if (excess !== null)
    throw new PatternError(
      excess.path,
      `${excess.message} (input limit for patterns: ${LIMIT_LABELS[excess.limit]} ${excess.max})`,
    );
  return parseObject(json, []);
}

function parseObject(json: Record<string, unknown>, path: JsonPath): PatternObject {
  const keys = Object.keys(json);
  if (keys.length === 0)
    throw new PatternError(
      path,
      path.length === 0 ? 'a pattern needs at least one field' : 'a nested pattern object needs at least one field',
    );
  return { kind: 'object', fields: keys.map((key) => [key, parseValue(json[key], [...path, key])] as const) };
}

function parseValue(json: unknown, path: JsonPath): PatternValue {
  if (Array.isArray(json)) {
    if (json.length === 0)
      throw new PatternError(path, 'a matcher array needs at least one matcher (an empty array would never match)');
    return { kind: 'matchers', matchers: json.map((m: unknown, i) => parseMatcher(m, [...path, i])) };
  }
  if (isPlainObject(json)) return parseObject(json, path);
  throw new PatternError(
    path,
    `a field's value is an array of matchers or a nested pattern object, not ${describeJson(json)}`,
  );
}
