import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomToken } from '../../../commands/core/random-token.ts';

const test = suite('randomToken');

test('gives the asked number of random bytes as base64url, each token different, across refills of its pool', () => {
  const seen = new Set<string>();
  // 2,000 tokens of 16 bytes: eight refills of the 4 KiB pool
  for (let i = 0; i < 2_000; i++) {
    const token = randomToken(16);
    assert.match(token, /^[A-Za-z0-9_-]{22}$/);
    assert.is(Buffer.from(token, 'base64url').length, 16);
    seen.add(token);
  }
  assert.is(seen.size, 2_000);
  for (const bytes of [1, 12, 32, 255, 256]) assert.is(Buffer.from(randomToken(bytes), 'base64url').length, bytes);
});

test('the bytes look uniform: every value of a byte shows up over 64 KiB of tokens', () => {
  const counts = new Array<number>(256).fill(0);
  for (let i = 0; i < 256; i++) for (const b of Buffer.from(randomToken(256), 'base64url')) counts[b]! += 1;
  // 65,536 bytes, 256 on average per value: a stuck or zeroed byte would skew this far (a pool handed out twice
  // is the first test's duplicates)
  assert.ok(
    Math.min(...counts) > 150 && Math.max(...counts) < 380,
    `counts between ${Math.min(...counts)} and ${Math.max(...counts)}`,
  );
});

test('refuses a size it cannot give from its pool', () => {
  for (const bytes of [0, -1, 257, 1.5, Number.NaN]) assert.throws(() => randomToken(bytes), /randomToken/);
});

test.run();
