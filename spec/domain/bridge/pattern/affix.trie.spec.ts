// The prefix / suffix trie: one walk over the value answers every prefix (suffix) that matches, as code points.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAffixTrie } from '../../../../domain/bridge/pattern/affix.trie.ts';

const test = suite('affix trie');

const trieOf = (direction: 'prefix' | 'suffix', texts: readonly string[]) => {
  const trie = createAffixTrie<string>(direction);
  for (const t of texts) trie.add(t, t);
  return trie;
};
const hits = (trie: ReturnType<typeof trieOf>, s: string): string[] => {
  const out: string[] = [];
  trie.collect(s, (t) => out.push(t));
  return out;
};

// The definition, over code points (a lone surrogate is one code point), as the naive oracle reads it.
const cps = (s: string) => Array.from(s);
const startsWith = (s: string, p: string) => {
  const [a, b] = [cps(s), cps(p)];
  return b.length <= a.length && b.every((c, i) => a[i] === c);
};
const endsWith = (s: string, p: string) => startsWith(cps(s).reverse().join('\u0000'), cps(p).reverse().join('\u0000'));

test('overlapping prefixes "", "1", "12", "123": each that starts the value, shortest first', () => {
  const trie = trieOf('prefix', ['123', '', '12', '1']);
  assert.equal(hits(trie, '1234'), ['', '1', '12', '123']);
  assert.equal(hits(trie, '123'), ['', '1', '12', '123']);
  assert.equal(hits(trie, '12'), ['', '1', '12']);
  assert.equal(hits(trie, '13'), ['', '1']);
  assert.equal(hits(trie, '2123'), ['']);
  assert.equal(hits(trie, ''), ['']);
});

test('overlapping suffixes "", "3", "23", "123": each that ends the value, shortest first', () => {
  const trie = trieOf('suffix', ['123', '', '23', '3']);
  assert.equal(hits(trie, '0123'), ['', '3', '23', '123']);
  assert.equal(hits(trie, '23'), ['', '3', '23']);
  assert.equal(hits(trie, '1232'), ['']);
  assert.equal(hits(trie, ''), ['']);
});

test('a prefix (suffix) equal to the whole value matches it; one character longer does not', () => {
  const prefixes = trieOf('prefix', ['0123045', '01230456']);
  assert.equal(hits(prefixes, '0123045'), ['0123045']);
  assert.equal(hits(prefixes, '012304'), []);
  const suffixes = trieOf('suffix', ['report.csv', 'xreport.csv']);
  assert.equal(hits(suffixes, 'report.csv'), ['report.csv']);
});

test('no matcher: nothing, and no empty prefix unless one was added', () => {
  assert.equal(hits(trieOf('prefix', []), 'abc'), []);
  assert.equal(hits(trieOf('prefix', ['b']), 'abc'), []);
  assert.equal(hits(trieOf('suffix', ['b']), 'abc'), []);
});

test('code points: an emoji is one character, never half of one', () => {
  const prefixes = trieOf('prefix', ['😀', '\ud83d', 'x\ud83d', 'é']);
  assert.equal(hits(prefixes, '😀!'), ['😀']); // not the lone high surrogate that starts its pair
  assert.equal(hits(prefixes, '\ud83d'), ['\ud83d']); // a lone surrogate is a code point of its own
  assert.equal(hits(prefixes, '\ud83dx'), ['\ud83d']);
  assert.equal(hits(prefixes, 'x😀'), []);
  assert.equal(hits(prefixes, 'x\ud83d'), ['x\ud83d']);
  assert.equal(hits(prefixes, 'e\u0301'), []); // é precomposed is not e + combining acute
  const suffixes = trieOf('suffix', ['😀', '\ude00', '统治者']);
  assert.equal(hits(suffixes, 'a😀'), ['😀']); // not the lone low surrogate that ends its pair
  assert.equal(hits(suffixes, 'a\ude00'), ['\ude00']);
  assert.equal(hits(suffixes, '\ude00'), ['\ude00']);
  assert.equal(hits(suffixes, '事件统治者'), ['统治者']);
});

test('children over a wide range of code units (no dense table) and a narrow one (a dense table) both work', () => {
  const wide = ['a', '\u4e00', '😀', '\uffff', '\u0000'];
  const trie = trieOf('prefix', [...wide, '0', '5', '9']);
  for (const t of [...wide, '0', '5', '9']) assert.equal(hits(trie, `${t}z`), [t], JSON.stringify(t));
  assert.equal(hits(trie, '1'), []);
  assert.equal(hits(trie, '/'), []); // just below the digits' table
  assert.equal(hits(trie, ':'), []); // just above it
});

test('many matchers sharing a prefix: all of them, each once', () => {
  const trie = createAffixTrie<number>('prefix');
  for (let i = 0; i < 1_000; i++) trie.add('ab', i);
  trie.add('abc', 1_000);
  const got: number[] = [];
  trie.collect('abcd', (t) => got.push(t));
  assert.equal(
    got,
    Array.from({ length: 1_001 }, (_, i) => i),
  );
});

test('10,000 four-digit prefixes: a value finds exactly the ones it starts with', () => {
  const trie = createAffixTrie<number>('prefix');
  for (let i = 0; i < 10_000; i++) trie.add(String(i).padStart(4, '0'), i);
  for (const value of ['0000001', '0421017', '1999060', '9999']) {
    const got: number[] = [];
    trie.collect(value, (t) => got.push(t));
    assert.equal(got, [Number(value.slice(0, 4))], value);
  }
  const none: number[] = [];
  trie.collect('042', (t) => none.push(t));
  assert.equal(none, []);
});

test('matchers added after a walk still take effect', () => {
  const trie = trieOf('prefix', ['a']);
  assert.equal(hits(trie, 'abc'), ['a']);
  trie.add('abc', 'abc');
  trie.add('b', 'b');
  assert.equal(hits(trie, 'abc'), ['a', 'abc']);
  assert.equal(hits(trie, 'b'), ['b']);
});

const text = fc.string({ unit: fc.constantFrom('1', '2', 'a', 'é', '😀', '\ud83d', '\ude00'), maxLength: 5 });

test('a trie of many prefixes == startsWith over code points, for each', () => {
  fc.assert(
    fc.property(fc.array(text, { maxLength: 20 }), fc.array(text, { maxLength: 8 }), (texts, inputs) => {
      const trie = trieOf('prefix', texts);
      for (const s of inputs) {
        const got = hits(trie, s).sort();
        const want = texts.filter((p) => startsWith(s, p)).sort();
        assert.equal(got, want, `${JSON.stringify(s)} against ${JSON.stringify(texts)}`);
      }
    }),
    { seed: 8, numRuns: 1_000 },
  );
});

test('a trie of many suffixes == endsWith over code points, for each', () => {
  fc.assert(
    fc.property(fc.array(text, { maxLength: 20 }), fc.array(text, { maxLength: 8 }), (texts, inputs) => {
      const trie = trieOf('suffix', texts);
      for (const s of inputs) {
        const got = hits(trie, s).sort();
        const want = texts.filter((p) => endsWith(s, p)).sort();
        assert.equal(got, want, `${JSON.stringify(s)} against ${JSON.stringify(texts)}`);
      }
    }),
    { seed: 10, numRuns: 1_000 },
  );
});

test.run();
