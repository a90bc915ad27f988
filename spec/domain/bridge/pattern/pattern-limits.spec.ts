// The input limits of patterns (domain/core/input-limits.ts PATTERN_LIMITS), as parsePattern and
// test-pattern answer them: a PatternError (400) naming the path and the limit, never a stack overflow.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isPatternError, type PatternError } from '../../../../domain/bridge/pattern/pattern.error.ts';
import { testPattern } from '../../../../domain/bridge/pattern/pattern.match.ts';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';

const test = suite('pattern input limits');

/** a pattern whose matcher list sits `levels` objects deep: {"a":{"a":…{"x":["v"]}}} */
const nestedPattern = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { x: ['v'] };
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
};
/** the event that pattern matches */
const nestedEvent = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { x: 'v' };
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
};

const refusal = (json: unknown): PatternError => {
  try {
    parsePattern(json);
  } catch (e) {
    assert.ok(isPatternError(e), `not a PatternError: ${String(e)}`);
    return e;
  }
  return assert.unreachable('accepted') as never;
};

test('32 levels (the matcher array included) are accepted and match; one more is PATTERN.INVALID naming the limit', () => {
  // 31 objects and the matcher array: 32 levels
  assert.equal(testPattern(nestedPattern(31), nestedEvent(31)), { match: true });
  const e = refusal(nestedPattern(32));
  assert.is(e.code, 'PATTERN.INVALID');
  assert.is(e.status, 400);
  assert.is(e.path, `${'a.'.repeat(31)}x`);
  assert.match(e.reason, /nests deeper than 32 levels \(input limit for patterns: nesting depth 32\)/);
});

test('a pattern 100,000 levels deep is refused without a stack overflow, by parsePattern and test-pattern', () => {
  const deep = nestedPattern(100_000);
  assert.is(refusal(deep).code, 'PATTERN.INVALID');
  try {
    testPattern(deep, {});
    assert.unreachable('matched');
  } catch (e) {
    assert.ok(isPatternError(e), String(e));
  }
});

test('keys, array length and string length of a pattern are limited too', () => {
  const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, [i]]));
  assert.match(refusal(wide).reason, /1001 keys, more than 1000/);
  assert.match(refusal({ id: Array.from({ length: 10_001 }, (_, i) => i) }).reason, /array of 10001 elements/);
  const long = refusal({ id: [{ prefix: 'p'.repeat(4097) }] });
  assert.is(long.path, 'id[0].prefix');
  assert.match(long.reason, /string length 4096/);
  // just within: parsed
  assert.ok(parsePattern({ id: [{ prefix: 'p'.repeat(4096) }] }));
});

test.run();
