// Many prefix / suffix rules on one field, through the compiled bus (one trie walk per value): the ids the
// naive oracle gives, in rule order, whatever the number of rules and however their prefixes overlap.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { compileRules } from '../../../../domain/bridge/pattern/rules.compile.ts';
import { naiveMatch } from './naive-oracle.ts';

const test = suite('compiled rules: many prefix and suffix rules');
const rule = (id: string, pattern: unknown) => ({ id, pattern: parsePattern(pattern) });
type Rule = ReturnType<typeof rule>;

const agreesWithOracle = (rules: Rule[], events: unknown[]) => {
  const bus = compileRules(rules);
  for (const e of events) {
    const want = [...new Set(rules.filter((r) => naiveMatch(r.pattern, e)).map((r) => r.id))];
    assert.equal(bus.match(e), want, JSON.stringify(e));
  }
  return bus;
};

test('overlapping prefixes "", "1", "12", "123" and a prefix equal to the whole value', () => {
  const bus = agreesWithOracle(
    ['', '1', '12', '123', '1234'].map((p) => rule(`p${p}`, { v: [{ prefix: p }] })),
    ['1234', '123', '12', '1', '', '2', '12345', 1234, ['9', '12']].map((v) => ({ v })),
  );
  assert.equal(bus.match({ v: '1234' }), ['p', 'p1', 'p12', 'p123', 'p1234']);
  assert.equal(bus.match({ v: '13' }), ['p', 'p1']);
  assert.equal(bus.match({ v: 1234 }), []); // prefixes match strings only
});

test('10,000 four-digit prefix rules: about one per value, in rule order', () => {
  const rules = Array.from({ length: 10_000 }, (_, i) =>
    rule(`r${i}`, { properties: { MAPBLKLOT: [{ prefix: String(9_999 - i).padStart(4, '0') }] } }),
  );
  const bus = compileRules(rules);
  assert.equal(bus.match({ properties: { MAPBLKLOT: '0421017' } }), ['r9578']);
  assert.equal(bus.match({ properties: { MAPBLKLOT: ['0001001', '9999001'] } }), ['r0', 'r9998']);
  assert.equal(bus.match({ properties: { MAPBLKLOT: '042' } }), []);
  agreesWithOracle(
    rules.slice(0, 500),
    ['0421017', '9999', '9500123', '95', ''].map((v) => ({ properties: { MAPBLKLOT: v } })),
  );
});

test('many rules sharing one prefix all answer, and rules sharing nothing else stay apart', () => {
  const rules = [
    ...Array.from({ length: 300 }, (_, i) => rule(`same${i}`, { a: [{ prefix: 'ab' }], n: [i] })),
    rule('short', { a: [{ prefix: 'a' }] }),
    rule('suffix', { a: [{ suffix: 'bc' }] }),
    rule('both', { a: [{ prefix: 'ab' }, { suffix: 'zz' }] }),
  ];
  agreesWithOracle(rules, [
    { a: 'abc', n: 7 },
    { a: 'abc' },
    { a: 'azz' },
    { a: 'xbc', n: 299 },
    { a: ['ab', 'b'], n: [1, 2] },
  ]);
  const bus = compileRules(rules);
  assert.equal(bus.match({ a: 'abc', n: 7 }), ['same7', 'short', 'suffix', 'both']);
});

test('Unicode: code points, not halves of a surrogate pair', () => {
  agreesWithOracle(
    [
      rule('emoji', { s: [{ prefix: '😀' }] }),
      rule('high', { s: [{ prefix: '\ud83d' }] }),
      rule('low', { s: [{ suffix: '\ude00' }] }),
      rule('cjk', { s: [{ suffix: '统治者' }] }),
    ],
    ['😀!', '\ud83d', '\ud83dx', 'a\ude00', 'a😀', '事件统治者', '😀统治者'].map((s) => ({ s })),
  );
});

test('wildcards that are a prefix or a suffix, and anything-but over prefixes and suffixes', () => {
  agreesWithOracle(
    [
      rule('w-prefix', { s: [{ wildcard: '12*' }] }),
      rule('w-suffix', { s: [{ wildcard: '*.csv' }] }),
      rule('w-all', { s: [{ wildcard: '*' }] }),
      rule('w-other', { s: [{ wildcard: '1*v' }] }),
      rule('but-prefix', { s: [{ 'anything-but': { prefix: '12' } }] }),
      rule('but-suffix', { s: [{ 'anything-but': { suffix: ['.csv', '~'] } }] }),
    ],
    ['12.csv', '123', 'a~', '', 'x.csv', 12, null].map((s) => ({ s })),
  );
});

test('ids shared by rules that end in different states, or in the same one: each id once, at its first rule', () => {
  const rules = [
    rule('a', { v: [{ prefix: '1' }] }),
    rule('b', { v: [{ prefix: '12' }] }),
    rule('a', { v: [{ prefix: '123' }] }),
    rule('c', { v: [{ prefix: '9' }] }),
    rule('c', { v: [{ prefix: '9' }] }),
  ];
  const bus = agreesWithOracle(
    rules,
    ['1234', '123', '9', '91', ['1', '12', '123'], ['9', '99']].map((v) => ({ v })),
  );
  assert.equal(bus.match({ v: '1234' }), ['a', 'b']);
  assert.equal(bus.match({ v: '123' }), ['a', 'b']);
  assert.equal(bus.match({ v: ['9', '99'] }), ['c']);
});

test('many answers in one event (marks swept in rule order), then few again: nothing carries over between events', () => {
  const rules = Array.from({ length: 20 }, (_, i) =>
    rule(`r${i}`, { v: [{ prefix: '0123456789abcdefghij'.slice(0, 19 - i) }] }),
  );
  const bus = agreesWithOracle(
    rules,
    ['0123456789abcdefghij', '0', '012', 'x', '0123456789abcdefghij'].map((v) => ({ v })),
  );
  assert.equal(
    bus.match({ v: '0123456789abcdefghij' }),
    rules.map((r) => r.id),
  );
  assert.equal(bus.match({ v: '01' }), ['r17', 'r18', 'r19']);
  assert.equal(bus.match({ v: '0123456789abcdefghij' }).length, 20);
});

test.run();
