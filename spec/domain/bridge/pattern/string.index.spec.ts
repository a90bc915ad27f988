// The string index (prefix and suffix tries, wildcards that are a prefix or suffix routed to them, the other
// wildcards in the automaton) answers exactly what the general automaton alone answers.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStringAutomaton, tokensOf } from '../../../../domain/bridge/pattern/string.automaton.ts';
import { type AutomatonMatcher, affixOf, createStringIndex } from '../../../../domain/bridge/pattern/string.index.ts';
import { parseWildcard } from '../../../../domain/bridge/pattern/wildcard.parse.ts';

const test = suite('string index');

const wildcard = (value: string): AutomatonMatcher => {
  const parts = parseWildcard(value);
  if (typeof parts === 'string') throw new Error(parts);
  return { kind: 'wildcard', value, parts };
};
const partsOf = (value: string) => {
  const parts = parseWildcard(value);
  if (typeof parts === 'string') throw new Error(parts);
  return parts;
};

test('the wildcards that are a prefix or a suffix in disguise, and only those', () => {
  assert.equal(affixOf(partsOf('ab*')), { kind: 'prefix', text: 'ab' });
  assert.equal(affixOf(partsOf('*ab')), { kind: 'suffix', text: 'ab' });
  assert.equal(affixOf(partsOf('*')), { kind: 'prefix', text: '' });
  assert.equal(affixOf(partsOf('a\\*b*')), { kind: 'prefix', text: 'a*b' });
  for (const w of ['', 'ab', '*ab*', 'a*b', '?*', '*?', 'ab?', 'a?*']) assert.is(affixOf(partsOf(w)), undefined, w);
});

test('prefixes, suffixes and wildcards together, each target as often as the automaton gives it', () => {
  const index = createStringIndex<string>();
  const ms: Array<[AutomatonMatcher, string]> = [
    [{ kind: 'prefix', value: '12' }, 'p12'],
    [{ kind: 'suffix', value: '.csv' }, 's.csv'],
    [wildcard('1*'), 'w1*'],
    [wildcard('*v'), 'w*v'],
    [wildcard('1*.csv'), 'w1*.csv'],
    [wildcard('12?'), 'w12?'],
  ];
  for (const [m, t] of ms) index.add(m, t);
  const got: string[] = [];
  index.run('12.csv', (t) => got.push(t));
  assert.equal(got.sort(), ['p12', 's.csv', 'w*v', 'w1*', 'w1*.csv']);
  got.length = 0;
  index.run('123', (t) => got.push(t));
  assert.equal(got.sort(), ['p12', 'w1*', 'w12?']);
});

const text = fc.string({ unit: fc.constantFrom('a', 'b', '😀', '\ud83d', '\ude00'), maxLength: 4 });
const matcher: fc.Arbitrary<AutomatonMatcher> = fc.oneof(
  text.map((value): AutomatonMatcher => ({ kind: 'prefix', value })),
  text.map((value): AutomatonMatcher => ({ kind: 'suffix', value })),
  fc
    .array(fc.constantFrom('a', 'b', '😀', '\ud83d', '\ude00', '*', '?'), { maxLength: 4 })
    .filter((ts) => !ts.some((t, i) => t === '*' && ts[i + 1] === '*'))
    .map((ts) => wildcard(ts.join(''))),
);

test('the string index == the general automaton over the same matchers (lone surrogates included)', () => {
  fc.assert(
    fc.property(fc.array(matcher, { maxLength: 20 }), fc.array(text, { maxLength: 8 }), (ms, inputs) => {
      const index = createStringIndex<number>();
      const automaton = createStringAutomaton<number>();
      ms.forEach((m, i) => {
        index.add(m, i);
        automaton.add(tokensOf(m), i);
      });
      for (const s of inputs) {
        const got = new Set<number>();
        const want = new Set<number>();
        index.run(s, (t) => got.add(t));
        automaton.run(s, (t) => want.add(t));
        assert.equal(
          [...got].sort((a, b) => a - b),
          [...want].sort((a, b) => a - b),
          `${JSON.stringify(s)} against ${JSON.stringify(ms)}`,
        );
      }
    }),
    { seed: 11, numRuns: 1_000 },
  );
});

test.run();
