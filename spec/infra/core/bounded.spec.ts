import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addBounded, setBounded } from '../../../infra/core/bounded.ts';

const test = suite('bounded caches');

test('a map keeps at most max entries, forgetting the oldest eighth at once past the bound, the newest always kept', () => {
  const map = new Map<string, number>();
  for (let i = 0; i < 16; i++) setBounded(map, `k${i}`, i, 16);
  assert.is(map.size, 16);
  setBounded(map, 'k16', 16, 16); // 17 entries: the three oldest go (17 - 16 + 2)
  assert.equal(
    [...map.keys()],
    Array.from({ length: 14 }, (_, i) => `k${i + 3}`),
  );
  for (let i = 17; i < 1_000; i++) {
    setBounded(map, `k${i}`, i, 16);
    assert.ok(map.size <= 16 && map.size >= 14, `size ${map.size}`);
    assert.is(map.get(`k${i}`), i);
  }
  // the surviving entries are the newest, in order
  const keys = [...map.keys()];
  assert.equal(
    keys,
    Array.from({ length: keys.length }, (_, i) => `k${1_000 - keys.length + i}`),
  );
});

test('re-inserting an entry (delete, then set) makes it the newest: the others are forgotten before it', () => {
  const map = new Map<string, number>();
  for (let i = 0; i < 8; i++) setBounded(map, `k${i}`, i, 8);
  map.delete('k0');
  setBounded(map, 'k0', 0, 8);
  setBounded(map, 'k8', 8, 8); // 9 entries: 9 - 8 + 1 = 2 oldest go: k1, k2
  assert.equal([...map.keys()], ['k3', 'k4', 'k5', 'k6', 'k7', 'k0', 'k8']);
});

test('a set is bounded the same way; a small bound still forgets one at a time', () => {
  const set = new Set<number>();
  for (let i = 0; i < 100; i++) addBounded(set, i, 3);
  assert.equal([...set], [97, 98, 99]);
  const big = new Set<number>();
  for (let i = 0; i < 50_000; i++) addBounded(big, i, 10_000);
  assert.ok(big.size <= 10_000 && big.size >= 8_750, `size ${big.size}`);
  assert.ok(big.has(49_999) && !big.has(0));
});

test.run();
