import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  checkJsonLimits,
  describeViolation,
  dottedPath,
  EVENT_DATA_LIMITS,
  type JsonLimits,
  PATTERN_LIMITS,
  REQUEST_BODY_LIMITS,
  SCHEMA_DOCUMENT_LIMITS,
} from '../../../domain/core/input-limits.ts';

const test = suite('input limits (iterative JSON measure)');

const small: JsonLimits = {
  maxDepth: 3,
  maxKeys: 3,
  maxTotalKeys: 5,
  maxArrayLength: 4,
  maxStringLength: 5,
  maxKeyLength: 4,
};

/** `{"a":{"a":…1…}}` nested `n` objects deep, built without recursion */
const nestedObjects = (n: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const nestedArrays = (n: number): unknown => {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
};

test('depth: {} and [] are one level, scalars add none; the limit itself fits, one more does not', () => {
  assert.is(checkJsonLimits(1, small), null);
  assert.is(checkJsonLimits(null, small), null);
  assert.is(checkJsonLimits({}, small), null);
  assert.is(checkJsonLimits(nestedObjects(3), small), null);
  assert.is(checkJsonLimits(nestedArrays(3), small), null);
  const past = checkJsonLimits(nestedObjects(4), small);
  assert.equal(past, { limit: 'depth', max: 3, path: ['a', 'a', 'a'], message: 'nests deeper than 3 levels' });
  const arrays = checkJsonLimits(nestedArrays(4), small);
  assert.equal(arrays?.path, [0, 0, 0]);
  assert.is(arrays?.limit, 'depth');
  // mixed: the object, x's array, the object in it are 3 levels; y's array is the 4th
  assert.equal(checkJsonLimits({ x: [1, { y: [[]] }] }, small)?.path, ['x', 1, 'y']);
});

test('the first violation in document order, with the path of its container', () => {
  const v = { ok: { fine: 1 }, list: [1, 2, { deep: { deeper: { deepest: {} } } }], late: 'x'.repeat(10) };
  const found = checkJsonLimits(v, small);
  assert.is(found?.limit, 'depth');
  assert.equal(found?.path, ['list', 2, 'deep']); // the root, list, list[2] are 3 levels; deep's value the 4th
  // after the deep branch is fixed, the later long string is reported
  const fixed = { ...v, list: [1, 2] };
  assert.equal(checkJsonLimits(fixed, small), {
    limit: 'stringLength',
    max: 5,
    path: ['late'],
    message: 'is a string of 10 characters, more than 5',
  });
});

test('keys per object, keys in total, array length, string length, key length', () => {
  assert.equal(checkJsonLimits({ a: 1, b: 2, c: 3, d: 4 }, small)?.limit, 'keys');
  assert.is(checkJsonLimits({ a: 1, b: 2, c: 3 }, small), null);
  const total = checkJsonLimits({ a: { x: 1, y: 2 }, b: { z: 1, w: 2 } }, small);
  assert.equal([total?.limit, total?.path], ['totalKeys', ['b']]);
  assert.is(checkJsonLimits({ a: { x: 1, y: 2 }, b: 1 }, small), null);
  assert.equal(checkJsonLimits({ list: [1, 2, 3, 4, 5] }, small), {
    limit: 'arrayLength',
    max: 4,
    path: ['list'],
    message: 'is an array of 5 elements, more than 4',
  });
  assert.is(checkJsonLimits([1, 2, 3, 4], small), null);
  assert.equal(checkJsonLimits(['12345', ['123456']], small)?.path, [1, 0]);
  assert.equal(checkJsonLimits({ abcde: 1 }, small), {
    limit: 'keyLength',
    max: 4,
    path: ['abcde'],
    message: 'has a key of 5 characters, more than 4',
  });
  assert.is(checkJsonLimits({ abcd: 'abcde' }, small), null);
});

test('a 100,000-deep value (objects or arrays) is refused without overflowing the stack', () => {
  for (const deep of [
    nestedObjects(100_000),
    nestedArrays(100_000),
    JSON.parse(`${'{"k":['.repeat(50_000)}1${']}'.repeat(50_000)}`) as unknown,
  ]) {
    const found = checkJsonLimits(deep, REQUEST_BODY_LIMITS);
    assert.is(found?.limit, 'depth');
    assert.is(found?.path.length, REQUEST_BODY_LIMITS.maxDepth);
  }
  // and a cycle (not JSON, but code can build one) ends at the depth limit instead of looping
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.is(checkJsonLimits(cyclic, EVENT_DATA_LIMITS)?.limit, 'depth');
});

test('a large flat value within the limits is measured whole', () => {
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, [i, { v: 'x' }]]));
  assert.is(checkJsonLimits(wide, REQUEST_BODY_LIMITS), null);
  assert.is(checkJsonLimits(wide, PATTERN_LIMITS)?.limit, 'keys');
});

test('the sets: 32 levels for event data, patterns and schema documents; 64 for any body', () => {
  for (const limits of [EVENT_DATA_LIMITS, PATTERN_LIMITS, SCHEMA_DOCUMENT_LIMITS]) {
    assert.is(checkJsonLimits(nestedObjects(32), limits), null);
    assert.is(checkJsonLimits(nestedObjects(33), limits)?.limit, 'depth');
  }
  assert.is(checkJsonLimits(nestedObjects(64), REQUEST_BODY_LIMITS), null);
  assert.is(checkJsonLimits(nestedObjects(65), REQUEST_BODY_LIMITS)?.limit, 'depth');
});

test('paths and messages: dotted from a root, long paths shortened around an ellipsis', () => {
  assert.is(dottedPath(['a', 0, 'b'], 'data'), 'data.a.0.b');
  assert.is(dottedPath([]), '');
  const long = dottedPath(
    Array.from({ length: 64 }, () => 'k'.repeat(20)),
    'body',
  );
  assert.ok(long.length <= 300, `${long.length} characters`);
  assert.match(long, /^body\.kkk.*….*kkk$/);
  const v = checkJsonLimits({ a: { a: { a: { a: 1 } } } }, small)!;
  assert.is(describeViolation(v, 'data'), 'data.a.a.a nests deeper than 3 levels (limit: nesting depth 3)');
  assert.is(
    describeViolation(checkJsonLimits('123456', small)!),
    'the value is a string of 6 characters, more than 5 (limit: string length 5)',
  );
});

test.run();
