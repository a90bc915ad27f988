import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { firstIllFormedText, isWellFormedText } from '../../../domain/core/well-formed.ts';

const test = suite('well-formed text (lone surrogates)');

test('a paired surrogate is text, a lone one at either end or alone is not', () => {
  assert.ok(isWellFormedText('plain'));
  assert.ok(isWellFormedText('\ud83d\ude00 paired'));
  assert.not.ok(isWellFormedText('\ud800'));
  assert.not.ok(isWellFormedText('\udc00 trail first'));
  assert.not.ok(isWellFormedText('\ud800\udc00\udfff\ud83d'));
});

test('the first string or key holding one, depth first in document order, by its path', () => {
  assert.is(firstIllFormedText({ a: 'x', b: [1, 'ok', { c: true }], d: null }), null);
  assert.equal(firstIllFormedText('\ud800'), []);
  assert.equal(firstIllFormedText({ a: 'x', b: [1, 'ok', { c: '\udfff' }], d: '\ud800' }), ['b', 2, 'c']);
  assert.equal(firstIllFormedText({ outer: { 'key\ud83d': 1 } }), ['outer', 'key\ud83d']);
  assert.equal(firstIllFormedText([[['\ud800']]]), [0, 0, 0]);
  assert.is(firstIllFormedText(42), null);
});

test('deep nesting is walked without recursion', () => {
  let v: unknown = '\ud800';
  for (let i = 0; i < 100_000; i++) v = [v];
  assert.is(firstIllFormedText(v)?.length, 100_000);
});

test.run();
