import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  checkTemplate,
  parseVariableMap,
  renderTemplate,
  templateReferences,
} from '../../../../domain/bridge/conversion/index.ts';
import { event } from './fixtures.ts';

const render = (variables: Record<string, unknown>, template: string) => renderTemplate(event, variables, template);

// ---- the spec's four styles ----

test('simple string: values inserted raw, numbers and booleans as text', () => {
  const r = render(
    { job: '$.data.job', n: '$.data.attempts', f: '$.data.failed', r: '$.data.ratio' },
    'Job ${job} failed ${n} times (${f}, ${r})',
  );
  assert.equal(r, {
    ok: true,
    text: 'Job nightly-settlement failed 3 times (true, 0.25)',
    payload: 'Job nightly-settlement failed 3 times (true, 0.25)',
    missing: [],
  });
});

test('simple string: objects and arrays as compact JSON, null as null, quotes raw', () => {
  const r = render(
    { d: '$.data.detail', t: '$.data.tags', o: '$.data.owner', q: '$.data.quote' },
    '${d}|${t}|${o}|${q}',
  );
  assert.ok(r.ok);
  if (r.ok) assert.is(r.payload, '{"step":"load","codes":[1,2]}|["a","b"]|null|say "hi" \\ bye');
});

test('simple JSON: variables inside string literals', () => {
  const r = render({ job: '$.data.job', id: '$.id' }, '{"job": "${job}", "eventId": "${id}"}');
  assert.equal(r.ok && r.payload, { job: 'nightly-settlement', eventId: 'evt-1' });
});

test('simple JSON: quotes and backslashes in a value are escaped inside string literals (no injection)', () => {
  const r = render({ q: '$.data.quote' }, '{"text": "${q}"}');
  assert.equal(r.ok && r.payload, { text: 'say "hi" \\ bye' });
  const evil = renderTemplate(
    { data: { name: 'x", "admin": true, "y": "' } },
    { n: '$.data.name' },
    '{"name": "${n}"}',
  );
  assert.equal(evil.ok && evil.payload, { name: 'x", "admin": true, "y": "' });
});

test('JSON with mixed variables and constants, arrays and literals', () => {
  const r = render(
    { job: '$.data.job', n: '$.data.attempts', level: 'HIGH', count: 7, flag: false, list: [1, 'x'] },
    '{"job": "${job}", "attempts": ${n}, "level": "${level}", "count": ${count}, "flag": ${flag}, "list": ${list}, "fixed": [1, 2, "three"], "ok": true, "none": null}',
  );
  assert.equal(r.ok && r.payload, {
    job: 'nightly-settlement',
    attempts: 3,
    level: 'HIGH',
    count: 7,
    flag: false,
    list: [1, 'x'],
    fixed: [1, 2, 'three'],
    ok: true,
    none: null,
  });
});

test('nested JSON: an object or array variable inserted unquoted', () => {
  const r = render(
    { d: '$.data.detail', t: '$.data.tags', items: '$.data.items', o: '$.data.owner' },
    '{"detail": ${d}, "tags": ${t}, "items": ${items}, "owner": ${o}}',
  );
  assert.equal(r.ok && r.payload, {
    detail: { step: 'load', codes: [1, 2] },
    tags: ['a', 'b'],
    items: [{ id: 1 }, { id: 2 }],
    owner: null,
  });
  const arr = render({ t: '$.data.tags' }, ' [${t}, "x"]');
  assert.equal(arr.ok && arr.payload, [['a', 'b'], 'x']);
});

test('nested JSON: an object inside a string literal becomes its escaped JSON text', () => {
  const r = render({ d: '$.data.detail' }, '{"detail": "${d}"}');
  assert.equal(r.ok && r.payload, { detail: '{"step":"load","codes":[1,2]}' });
});

test('several matches of one path insert as an array', () => {
  const r = render({ ids: '$.data.items[*].id' }, '{"ids": ${ids}}');
  assert.equal(r.ok && r.payload, { ids: [1, 2] });
});

// ---- missing values ----

test('a missing path leaves the variable empty and lists it', () => {
  const r = render({ a: '$.data.nothing', job: '$.data.job' }, 'job=${job} a=[${a}] again=${a}');
  assert.equal(r, {
    ok: true,
    text: 'job=nightly-settlement a=[] again=',
    payload: 'job=nightly-settlement a=[] again=',
    missing: ['a'],
  });
  const inString = render({ a: '$.data.nothing' }, '{"a": "${a}"}');
  assert.equal(inString, { ok: true, text: '{"a": ""}', payload: { a: '' }, missing: ['a'] });
});

test('a reference to a variable the map does not define is missing too', () => {
  const r = render({}, 'x${nope}y');
  assert.equal(r, { ok: true, text: 'xy', payload: 'xy', missing: ['nope'] });
});

test('a missing unquoted variable in a JSON template is an error naming it, not a crash', () => {
  const r = render({ a: '$.data.nothing' }, '{"a": ${a}}');
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.match(r.error, /not valid JSON/);
    assert.match(r.error, /without a value: a/);
  }
});

test('a JSON-shaped template whose output does not parse is an error result', () => {
  const r = render({ job: '$.data.job' }, '{"job": ${job}}'); // a string inserted raw, unquoted
  assert.is(r.ok, false);
  const broken = render({}, '{"a": 1');
  assert.is(broken.ok, false);
  if (!broken.ok) assert.match(broken.error, /^template output is not valid JSON/);
});

test('a bad JSONPath in the map is an error result', () => {
  const r = render({ a: '$.data[?(@.x)]' }, '${a}');
  assert.is(r.ok, false);
  if (!r.ok) assert.match(r.error, /variable a/);
});

// ---- escapes and constants ----

test('$${ writes a literal ${; $$ at the start of a map value makes a constant starting with $', () => {
  const r = render({ price: '$$5', job: '$.data.job' }, 'literal $${job}, price ${price}, job ${job}');
  assert.equal(r.ok && r.payload, 'literal ${job}, price $5, job nightly-settlement');
  const unterminated = render({}, 'a ${b c} ${ d } ${');
  assert.equal(unterminated.ok && unterminated.payload, 'a ${b c} ${ d } ${');
});

test('templateReferences and parseVariableMap', () => {
  assert.equal(templateReferences('${a} ${b.c} $${d} ${a}'), ['a', 'b.c']);
  assert.equal(parseVariableMap('{"a":"$.data.x","b":1}'), { variables: { a: '$.data.x', b: 1 } });
  assert.ok('error' in parseVariableMap('[1]'));
  assert.ok('error' in parseVariableMap('{nope'));
  assert.equal(parseVariableMap(''), { variables: {} });
});

test('checkTemplate: undefined references, bad names and paths, JSON that can never render', () => {
  assert.equal(checkTemplate({ a: '$.data.a' }, '{"a": "${a}", "n": ${a}}'), []);
  assert.match(checkTemplate({}, '${x}')[0]!.message, /not in the map: x/);
  assert.is(checkTemplate({ '1bad': 'c' }, 'x')[0]!.key, '1bad');
  assert.is(checkTemplate({ a: '$.x[?(@)]' }, '${a}')[0]!.key, 'a');
  assert.match(checkTemplate({ a: '$.data.a' }, '{"a": ${a}')[0]!.message, /does not render to JSON/);
  // a constant string inserted unquoted can never be JSON
  assert.match(checkTemplate({ a: 'word' }, '{"a": ${a}}')[0]!.message, /does not render to JSON/);
  assert.equal(checkTemplate({ a: 5 }, '{"a": ${a}}'), []);
  assert.match(checkTemplate([], 'x')[0]!.message, /must be an object/);
  assert.match(checkTemplate({}, 5)[0]!.message, /must be a string/);
});

test('property: any JSON value inside a string literal round-trips as its text; no event data can add a field', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const r = renderTemplate({ data: { v: value } }, { v: '$.data.v' }, '{"text": "${v}", "fixed": 1}');
      if (!r.ok) return false;
      const expected = typeof value === 'string' ? value : JSON.stringify(value);
      return JSON.stringify(r.payload) === JSON.stringify({ text: expected, fixed: 1 });
    }),
    { numRuns: 300 },
  );
});

test('property: an object or array inserted unquoted parses back to itself', () => {
  fc.assert(
    fc.property(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())), (value) => {
      const r = renderTemplate({ data: { v: value } }, { v: '$.data.v' }, '{"nested": ${v}}');
      return r.ok && JSON.stringify(r.payload) === JSON.stringify({ nested: JSON.parse(JSON.stringify(value)) });
    }),
    { numRuns: 300 },
  );
});

test.run();
