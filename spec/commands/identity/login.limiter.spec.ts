import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLoginLimiter, LOGIN_FAILURES_COLLECTION } from '../../../commands/identity/login.limiter.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'limiter-'));
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const limiter = createLoginLimiter({ readStore, clock, maxFailures: 3 });
test.after(async () => {
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const keys = (username: string, ip = '10.0.0.1') => ({ user: { tenant: 'acme', directory: 'default', username }, ip });

test('a user name is blocked after maxFailures in the window, whether or not the user exists', async () => {
  for (let i = 0; i < 3; i++) {
    assert.equal(await limiter.check(keys('ann')), { allowed: true });
    await limiter.recordFailure(keys('ann'));
  }
  const verdict = await limiter.check(keys('ann', '10.9.9.9'));
  assert.is(verdict.allowed, false, 'per user, from any address');
  assert.is(verdict.allowed === false && verdict.retryAfterSeconds, 900);
  // the key is the name as typed, normalised: case and surrounding spaces do not escape the limit
  assert.is((await limiter.check(keys(' ANN '))).allowed, false);
  assert.is(
    (await limiter.check({ user: { tenant: 'other', directory: 'default', username: 'ann' }, ip: '10.9.9.9' })).allowed,
    true,
  );
});

test('the window slides: old failures leave it', async () => {
  clock.advance(15 * 60 * 1000 + 1);
  assert.equal(await limiter.check(keys('ann', '10.9.9.9')), { allowed: true });
});

test('per address: 4x the per-user limit across user names', async () => {
  const ip = '192.0.2.7';
  for (let i = 0; i < 12; i++) await limiter.recordFailure(keys(`name-${i}`, ip));
  assert.is((await limiter.check(keys('fresh-name', ip))).allowed, false);
  assert.is((await limiter.check(keys('fresh-name', '192.0.2.8'))).allowed, true);
});

test('a success clears the user count, not the address count', async () => {
  await limiter.recordFailure(keys('bob', '198.51.100.1'));
  await limiter.recordFailure(keys('bob', '198.51.100.1'));
  await limiter.recordSuccess(keys('bob', '198.51.100.1'));
  await limiter.recordFailure(keys('bob', '198.51.100.1'));
  await limiter.recordFailure(keys('bob', '198.51.100.1'));
  assert.equal(await limiter.check(keys('bob', '198.51.100.2')), { allowed: true });
});

test('concurrent failures from two processes (two store instances) are all counted (compare-and-set)', async () => {
  const other = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const limiter2 = createLoginLimiter({ readStore: other, clock, maxFailures: 50 });
  const big = createLoginLimiter({ readStore, clock, maxFailures: 50 });
  await big.recordFailure(keys('carol', '203.0.113.5')); // the documents exist before the race
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 ? big : limiter2).recordFailure(keys('carol', '203.0.113.5'))),
  );
  const docs = await readStore.collection(LOGIN_FAILURES_COLLECTION).find({});
  const counts = docs.map((d) => (d.failures as number[]).length).sort((a, b) => b - a);
  assert.ok(counts.includes(21), `expected one key with 21 failures, got ${counts.join(',')}`);
  await other.close();
});

test('no user name or address is stored in clear', async () => {
  const docs = await readStore.collection(LOGIN_FAILURES_COLLECTION).find({});
  assert.not.match(JSON.stringify(docs), /ann|bob|carol|10\.0\.0\.1/);
});

test.run();
