// The compiled bus: ids in rule order, each once; shared states; only the used paths are walked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { compileRules } from '../../../../domain/bridge/pattern/rules.compile.ts';
import { naiveMatchAll } from './naive-oracle.ts';

const test = suite('compiled rules');
const rule = (id: string, pattern: unknown) => ({ id, pattern: parsePattern(pattern) });

test('answers the ids of the matching rules in rule order, each id once (at the place of its first rule)', () => {
  const bus = compileRules([
    rule('z', { type: ['A'] }),
    rule('a', { type: [{ prefix: 'A' }] }),
    rule('m', { type: ['B'] }),
    rule('z', { type: [{ exists: true }] }),
  ]);
  assert.equal(bus.match({ type: 'A' }), ['z', 'a']);
  assert.equal(bus.match({ type: 'B' }), ['z', 'm']);
  assert.equal(bus.match({}), []);
});

test('no rules: nothing matches', () => {
  assert.equal(compileRules([]).match({ a: 1 }), []);
});

test('rules that test the same fields share states; key order does not matter', () => {
  const bus = compileRules([
    rule('1', { source: ['s'], type: ['A'] }),
    rule('2', { type: ['A'], source: ['s'] }),
    rule('3', { source: ['s'], type: ['B'] }),
  ]);
  assert.is(bus.size.states, 4); // root, source=s, then type=A and type=B
  assert.equal(bus.match({ source: 's', type: 'A' }), ['1', '2']);
});

test('OR lists are not merged into other rules: a shared first field never widens a rule', () => {
  const bus = compileRules([rule('narrow', { a: ['x'], b: ['1'] }), rule('wide', { a: ['x', 'y'], b: ['1'] })]);
  assert.equal(bus.match({ a: 'y', b: '1' }), ['wide']);
  assert.equal(bus.match({ a: 'x', b: '1' }), ['narrow', 'wide']);
});

test('rules over many keys of one object (past the few the walk probes one by one): same answers as the oracle', () => {
  // a dozen keys at the top and under detail, so the event's own keys are listed; arrays keep their elements apart
  const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
  const rules = [
    ...keys.map((k, i) => rule(`top-${k}`, { [k]: [i] })),
    ...keys.map((k) => rule(`detail-${k}`, { detail: { [k]: [{ prefix: 'x' }], other: [{ exists: false }] } })),
    rule('same-element', { items: Object.fromEntries(keys.map((k) => [k, ['y']])) }),
  ];
  const bus = compileRules(rules);
  const items = (n: number) => [
    Object.fromEntries(keys.map((k, i) => [k, i < n ? 'y' : 'n'])),
    Object.fromEntries(keys.map((k) => [k, 'y']).slice(n)),
  ];
  const events: unknown[] = [
    { k3: 3, k11: 11, k5: 4, unused: 1 },
    { detail: { k0: 'xa', k7: 'b', k9: ['z', 'x'], extra: 'x' } },
    { detail: { k0: 'xa', other: 1 } },
    { detail: [{ k1: 'x' }, { k2: 'x', other: 1 }] },
    { items: items(12) },
    { items: items(6) },
    JSON.parse('{"__proto__":["x"],"k4":4,"hasOwnProperty":1,"detail":{"constructor":"x","k10":"x"}}'),
  ];
  for (const e of events) assert.equal(bus.match(e), naiveMatchAll(rules, e), `event ${JSON.stringify(e)}`);
  assert.equal(bus.match(events[0]), ['top-k3', 'top-k11']);
  assert.equal(bus.match(events[1]), ['detail-k0', 'detail-k9']);
  assert.equal(bus.match(events[2]), []);
  assert.equal(bus.match(events[3]), ['detail-k1']);
  assert.equal(bus.match(events[4]), ['same-element']);
  assert.equal(bus.match(events[5]), [], 'the keys come from two elements');
  assert.equal(bus.match(events[6]), ['top-k4', 'detail-k10']);
});

test('10,000 exact rules on one field: one path, one state per value', () => {
  const rules = Array.from({ length: 10_000 }, (_, i) => rule(`r${i}`, { detail: { id: [`v${i}`] } }));
  const bus = compileRules(rules);
  assert.equal(bus.size, { rules: 10_000, states: 10_001, paths: 1 });
  assert.equal(bus.match({ detail: { id: 'v4242' } }), ['r4242']);
  assert.equal(bus.match({ detail: { id: ['v1', 'v2'] } }), ['r1', 'r2']);
});

test('large parts of the event no rule looks at are not walked', () => {
  const bus = compileRules([rule('r', { a: { b: ['x'] } })]);
  const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, { deep: [1, 2, { x: 'y' }] }]));
  assert.equal(bus.match({ ...wide, a: { b: 'x' } }), ['r']);
});

test('one event against many array elements does not explode', () => {
  const bus = compileRules([rule('r', { items: { a: ['1'], b: ['2'], c: ['3'], d: [{ exists: false }] } })]);
  const items = Array.from({ length: 5_000 }, (_, i) => ({
    a: '1',
    b: '2',
    c: i === 4_999 ? '3' : '0',
    d: i === 4_999 ? undefined : 1,
  }));
  assert.equal(bus.match({ items }), ['r']);
});

test.run();
