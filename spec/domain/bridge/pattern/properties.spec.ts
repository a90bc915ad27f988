// Property tests: the compiled matcher agrees with the naive oracle on random patterns and events, one rule at a
// time and many rules at once. Seeded (PATTERN_PROPERTY_SEED overrides) so that a failure reproduces.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchPattern } from '../../../../domain/bridge/pattern/pattern.match.ts';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { compileRules } from '../../../../domain/bridge/pattern/rules.compile.ts';
import { decode, event, eventFor, pattern, toJsonText } from './arbitraries.ts';
import { naiveMatch, naiveMatchAll } from './naive-oracle.ts';

const seed = Number(process.env.PATTERN_PROPERTY_SEED ?? 20261122);
const runs = Number(process.env.PATTERN_PROPERTY_RUNS ?? 400);
const options = { seed, numRuns: runs };

const test = suite('pattern properties: compiled matcher == naive oracle');
const seen: Record<'single' | 'guided' | 'bus', { matched: number; not: number }> = {
  single: { matched: 0, not: 0 },
  guided: { matched: 0, not: 0 },
  bus: { matched: 0, not: 0 },
};
const count = (k: keyof typeof seen, matched: boolean) => (matched ? seen[k].matched++ : seen[k].not++);

test('every generated pattern is valid', () => {
  fc.assert(
    fc.property(pattern, (p) => {
      parsePattern(decode(p));
    }),
    options,
  );
});

test('one rule, any event', () => {
  fc.assert(
    fc.property(pattern, event, (p, e) => {
      const parsed = parsePattern(decode(p));
      const ev = decode(e);
      const expected = naiveMatch(parsed, ev);
      count('single', expected);
      assert.is(matchPattern(parsed, ev), expected, `pattern ${toJsonText(p)} event ${toJsonText(e)}`);
    }),
    options,
  );
});

test('one rule, an event shaped by the pattern (arrays of objects, numbers in other notations)', () => {
  fc.assert(
    fc.property(
      pattern.chain((p) => fc.tuple(fc.constant(p), eventFor(p))),
      ([p, e]) => {
        const parsed = parsePattern(decode(p));
        const ev = decode(e);
        const expected = naiveMatch(parsed, ev);
        count('guided', expected);
        assert.is(matchPattern(parsed, ev), expected, `pattern ${toJsonText(p)} event ${toJsonText(e)}`);
      },
    ),
    { ...options, numRuns: runs * 2 },
  );
});

test('many rules at once: the compiled set is the set of rules the oracle matches', () => {
  const bus = fc
    .array(pattern, { minLength: 1, maxLength: 25 })
    .chain((ps) =>
      fc.tuple(
        fc.constant(ps),
        fc.array(fc.oneof(event, ...ps.slice(0, 5).map(eventFor)), { minLength: 1, maxLength: 4 }),
      ),
    );
  fc.assert(
    fc.property(bus, ([ps, events]) => {
      const rules = ps.map((p, i) => ({ id: `r${i}`, pattern: parsePattern(decode(p)) }));
      const compiled = compileRules(rules);
      for (const e of events) {
        const ev = decode(e);
        const expected = naiveMatchAll(rules, ev);
        count('bus', expected.length > 0);
        assert.equal(compiled.match(ev), expected, `patterns ${ps.map(toJsonText).join(' | ')} event ${toJsonText(e)}`);
      }
    }),
    { ...options, numRuns: Math.ceil(runs / 2) },
  );
});

test('wide arrays (more groups than a scan handles): compiled == oracle', () => {
  const item = fc.record(
    {
      a: fc.constantFrom('1', '0'),
      b: fc.constantFrom('2', '0', ['2', '9']),
      c: fc.constantFrom(1, 'x'),
      sub: fc.array(fc.record({ x: fc.constantFrom('7', '8'), y: fc.constantFrom(1, 2) }, { requiredKeys: ['x'] }), {
        maxLength: 12,
      }),
    },
    { requiredKeys: ['a'] },
  );
  const wide = fc.record({
    items: fc.array(fc.oneof(item, fc.array(item, { maxLength: 3 })), { minLength: 9, maxLength: 40 }),
  });
  const rules = [
    { items: { a: ['1'], b: ['2'] } },
    { items: { a: ['1'], c: [{ exists: false }] } },
    { items: { a: ['0'], b: ['2'], sub: { x: ['7'], y: [2] } } },
    { items: { sub: { x: ['8'], y: [{ exists: false }] } } },
    { items: { b: [{ exists: false }], sub: { x: ['7'] } } },
    { items: { c: [{ exists: false }] } },
  ].map((p, i) => ({ id: `w${i}`, pattern: parsePattern(p) }));
  const compiled = compileRules(rules);
  fc.assert(
    fc.property(wide, (e) => {
      assert.equal(compiled.match(e), naiveMatchAll(rules, e), JSON.stringify(e));
    }),
    options,
  );
});

test('rule order and duplicates do not change the answer', () => {
  fc.assert(
    fc.property(fc.array(pattern, { minLength: 1, maxLength: 8 }), event, (ps, e) => {
      const rules = ps.map((p, i) => ({ id: `r${i}`, pattern: parsePattern(decode(p)) }));
      const ev = decode(e);
      const forward = compileRules(rules).match(ev);
      const backward = compileRules([...rules].reverse().concat(rules)).match(ev);
      assert.equal([...backward].sort(), [...forward].sort());
    }),
    options,
  );
});

test.after(() => {
  const share = ({ matched, not }: { matched: number; not: number }) => `${matched} matched / ${not} not`;
  console.log(
    `properties (seed ${seed}): single ${share(seen.single)}; guided ${share(seen.guided)}; bus events ${share(seen.bus)}`,
  );
});
test.run();
