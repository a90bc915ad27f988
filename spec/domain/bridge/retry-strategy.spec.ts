import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BACKOFF_MAX_RETRIES,
  EXPONENTIAL_CAP_MS,
  EXPONENTIAL_MAX_RETRIES,
  EXPONENTIAL_TOTAL_MS,
  nextAttemptAt,
  retryDelayMs,
} from '../../../domain/bridge/retry-strategy.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';

const test = suite('retry strategies (spec Limits)');
const T0 = '2026-01-01T00:00:00.000Z';

/** Runs a round where every attempt fails `failAfterMs` after it starts; answers the due times of the retries. */
function round(strategy: 'BACKOFF_RETRY' | 'EXPONENTIAL_DECAY_RETRY', randoms: () => number, failAfterMs = 0) {
  const clock = manualClock(T0);
  const first = clock.now().toISOString();
  const due: string[] = [];
  for (let attempts = 1; attempts < 1000; attempts++) {
    clock.advance(failAfterMs);
    const next = nextAttemptAt(strategy, attempts, first, clock.now().toISOString(), randoms());
    if (next === null) break;
    due.push(next);
    clock.set(next);
  }
  return due;
}

const gaps = (times: string[], from = T0) =>
  times.map((t, i) => Date.parse(t) - Date.parse(i === 0 ? from : times[i - 1]!));

test('BACKOFF_RETRY: at most 3 retries, each after 10 s + random × 10 s (the random number comes in)', () => {
  const randoms = [0, 0.5, 0.9999999, 0.25];
  let i = 0;
  const due = round('BACKOFF_RETRY', () => randoms[i++]!);
  assert.is(due.length, BACKOFF_MAX_RETRIES);
  assert.equal(gaps(due), [10_000, 15_000, 19_999]);
  assert.equal(due, ['2026-01-01T00:00:10.000Z', '2026-01-01T00:00:25.000Z', '2026-01-01T00:00:44.999Z']);
  assert.is(i, 4, 'the 4th failure asked once more and got null');
});

test('BACKOFF_RETRY: every interval lies in [10 s, 20 s) whatever the random number', () => {
  for (const r of [0, 1e-9, 0.1, 0.5, 0.999, 0.999999999999, 1, -0.5, Number.NaN]) {
    const ms = retryDelayMs('BACKOFF_RETRY', 1, r);
    assert.ok(ms >= 10_000 && ms < 20_000, `${r} → ${ms}`);
  }
  assert.is(nextAttemptAt('BACKOFF_RETRY', 3, T0, T0, 0), '2026-01-01T00:00:10.000Z', 'the third retry');
  assert.is(nextAttemptAt('BACKOFF_RETRY', 4, T0, T0, 0), null, 'no fourth retry');
});

test('EXPONENTIAL_DECAY_RETRY: 1, 2, 4 … 256 s, then 512 s each, 176 retries, all within one day', () => {
  const due = round('EXPONENTIAL_DECAY_RETRY', () => 0.7);
  assert.is(due.length, EXPONENTIAL_MAX_RETRIES);
  const g = gaps(due);
  assert.equal(g.slice(0, 11), [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 512_000]);
  assert.ok(
    g.every((x) => x <= EXPONENTIAL_CAP_MS),
    'capped at 512 s',
  );
  assert.is(g.filter((x) => x === EXPONENTIAL_CAP_MS).length, 167);
  const total = Date.parse(due[due.length - 1]!) - Date.parse(T0);
  assert.is(total, 511_000 + 167 * 512_000);
  assert.ok(total <= EXPONENTIAL_TOTAL_MS);
  assert.is(nextAttemptAt('EXPONENTIAL_DECAY_RETRY', 177, T0, due[due.length - 1]!, 0), null, 'no 177th retry');
});

test('EXPONENTIAL_DECAY_RETRY: slow failures reach the one-day limit before 176 retries', () => {
  // every attempt times out after 5 s: the day runs out first
  const due = round('EXPONENTIAL_DECAY_RETRY', () => 0, 5000);
  assert.ok(due.length < EXPONENTIAL_MAX_RETRIES, `${due.length} retries`);
  const last = Date.parse(due[due.length - 1]!);
  assert.ok(last <= Date.parse(T0) + EXPONENTIAL_TOTAL_MS, 'the last retry is inside the day');
  // the one that was refused would have passed it
  assert.ok(last + 5000 + EXPONENTIAL_CAP_MS > Date.parse(T0) + EXPONENTIAL_TOTAL_MS);
  // 9 retries of 1…256 s (556 s with the 5 s calls), then 517 s each: 556 + 166 × 517 ≤ 86,400 < 556 + 167 × 517
  assert.is(due.length, 175);
});

test('EXPONENTIAL_DECAY_RETRY: the day counts from the round’s first attempt, not from the failure', () => {
  const at = (msAfterT0: number) => new Date(Date.parse(T0) + msAfterT0).toISOString();
  // retry 20 waits 512 s: a failure 512 s before the day ends still gets it, exactly at the end
  assert.is(
    nextAttemptAt('EXPONENTIAL_DECAY_RETRY', 20, T0, at(EXPONENTIAL_TOTAL_MS - 512_000), 0),
    at(EXPONENTIAL_TOTAL_MS),
  );
  assert.is(nextAttemptAt('EXPONENTIAL_DECAY_RETRY', 20, T0, at(EXPONENTIAL_TOTAL_MS - 511_000), 0), null);
  // a later round (after a redrive) has a day of its own
  const redriven = at(2 * EXPONENTIAL_TOTAL_MS);
  assert.is(nextAttemptAt('EXPONENTIAL_DECAY_RETRY', 1, redriven, redriven, 0), at(2 * EXPONENTIAL_TOTAL_MS + 1000));
});

test.run();
