// The string automaton (prefix, suffix, wildcard sharing one trie) answers what each matcher alone would.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { StringMatcher } from '../../../../domain/bridge/pattern/pattern.types.ts';
import { createStringAutomaton, tokensOf } from '../../../../domain/bridge/pattern/string.automaton.ts';
import { parseWildcard } from '../../../../domain/bridge/pattern/wildcard.parse.ts';

const test = suite('string automaton');
const text = fc.string({ unit: fc.constantFrom('a', 'b', '😀', 'é'), maxLength: 5 });
const wildcard = fc
  .array(fc.constantFrom('a', 'b', '😀', '*', '?'), { maxLength: 5 })
  .filter((ts) => !ts.some((t, i) => t === '*' && ts[i + 1] === '*'))
  .map((ts) => ts.join(''));
type Auto = Exclude<StringMatcher, { kind: 'equals-ignore-case' }>;
const matcher: fc.Arbitrary<Auto> = fc.oneof(
  text.map((value): Auto => ({ kind: 'prefix', value })),
  text.map((value): Auto => ({ kind: 'suffix', value })),
  wildcard.map((value): Auto => {
    const parts = parseWildcard(value);
    if (typeof parts === 'string') throw new Error(parts);
    return { kind: 'wildcard', value, parts };
  }),
);
const alone = (m: Auto, s: string): boolean => {
  const cps = Array.from(s);
  switch (m.kind) {
    case 'prefix':
      return s.startsWith(m.value);
    case 'suffix':
      return s.endsWith(m.value);
    case 'wildcard':
      return new RegExp(
        `^${Array.from(m.value, (c) => (c === '*' ? '.*' : c === '?' ? '.' : c)).join('')}$`,
        'su',
      ).test(cps.join(''));
  }
};

test('a shared automaton == each matcher on its own', () => {
  fc.assert(
    fc.property(fc.array(matcher, { maxLength: 20 }), fc.array(text, { maxLength: 8 }), (ms, inputs) => {
      const auto = createStringAutomaton<number>();
      ms.forEach((m, i) => {
        auto.add(tokensOf(m), i);
      });
      for (const s of inputs) {
        const got = new Set<number>();
        auto.run(s, (t) => got.add(t));
        const want = ms.flatMap((m, i) => (alone(m, s) ? [i] : []));
        assert.equal(
          [...got].sort((a, b) => a - b),
          want,
          `"${s}" against ${JSON.stringify(ms)}`,
        );
      }
    }),
    { seed: 5, numRuns: 500 },
  );
});

test('matchers added after a run still take effect', () => {
  const auto = createStringAutomaton<string>();
  auto.add(tokensOf({ kind: 'prefix', value: 'a' }), 'p');
  const hits: string[] = [];
  auto.run('ab', (t) => hits.push(t));
  auto.add(tokensOf({ kind: 'suffix', value: 'b' }), 's');
  auto.run('ab', (t) => hits.push(t));
  assert.equal(hits.sort(), ['p', 'p', 's']);
});

test.run();
