import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classify } from '../../../domain/hub/classification.ts';
import { nextRetryTime, retryDelaySeconds } from '../../../domain/hub/retry-policy.ts';

const P = { MaxAttempts: 3, RetryInitialDelaySeconds: 300, RetryBackoffMultiplier: 2, RetryMaxDelaySeconds: 3600 };

test('delay(n) = ceil(min(max, initial × multiplier^(n−1))): 300, 600, 1200 … capped at the max', () => {
  assert.equal(
    [1, 2, 3, 4, 5, 6].map((n) => retryDelaySeconds(P, n)),
    [300, 600, 1200, 2400, 3600, 3600],
  );
  assert.is(retryDelaySeconds({ ...P, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1.5 }, 2), 2);
});

test('MaxAttempts includes the first (3: no automatic attempt 4; 1: no retry); strictly before ExpiresAt', () => {
  const at = '2026-01-01T00:00:00.000Z';
  assert.is(nextRetryTime({ policy: P, failedAttempt: 1, failedAt: at }), '2026-01-01T00:05:00.000Z');
  assert.is(nextRetryTime({ policy: P, failedAttempt: 2, failedAt: at }), '2026-01-01T00:10:00.000Z');
  assert.is(nextRetryTime({ policy: P, failedAttempt: 3, failedAt: at }), null);
  assert.is(nextRetryTime({ policy: { ...P, MaxAttempts: 1 }, failedAttempt: 1, failedAt: at }), null);
  assert.is(nextRetryTime({ policy: P, failedAttempt: 1, failedAt: at, expiresAt: '2026-01-01T00:05:00.000Z' }), null);
  assert.is(
    nextRetryTime({ policy: P, failedAttempt: 1, failedAt: at, expiresAt: '2026-01-01T00:05:00.001Z' }),
    '2026-01-01T00:05:00.000Z',
  );
});

test('classification follows the spec table', () => {
  const k = (o: Parameters<typeof classify>[0]) => classify(o).kind;
  assert.is(k({ kind: 'response', status: 200 }), 'ACCEPTED');
  assert.is(k({ kind: 'response', status: 204, body: '{"Status":"DELIVERED"}' }), 'ACCEPTED');
  assert.is(k({ kind: 'response', status: 400 }), 'REJECTED');
  assert.is(k({ kind: 'response', status: 401 }), 'REJECTED');
  assert.is(k({ kind: 'response', status: 429 }), 'RETRYABLE');
  assert.is(k({ kind: 'response', status: 500 }), 'UNCERTAIN');
  assert.is(k({ kind: 'response', status: 503 }), 'UNCERTAIN');
  assert.is(k({ kind: 'response', status: 302 }), 'REJECTED');
  assert.is(k({ kind: 'failure', phase: 'connect', reason: 'refused', message: 'ECONNREFUSED' }), 'RETRYABLE');
  assert.is(k({ kind: 'failure', phase: 'connect', reason: 'timeout', message: 'connect timeout' }), 'RETRYABLE');
  assert.is(k({ kind: 'failure', phase: 'exchange', reason: 'timeout', message: 'read' }), 'UNCERTAIN');
  assert.is(k({ kind: 'failure', phase: 'exchange', reason: 'reset', message: 'reset' }), 'UNCERTAIN');
  assert.is(k({ kind: 'failure', phase: 'connect', reason: 'destination-refused', message: 'loopback' }), 'REJECTED');
  assert.is(k({ kind: 'not-sent', permanent: false, message: 'no token' }), 'RETRYABLE');
  assert.equal(classify({ kind: 'response', status: 429, retryAfterMs: 5000 }), {
    kind: 'RETRYABLE',
    reason: 'the receiver answered 429',
    httpStatus: 429,
    retryAfterMs: 5000,
  });
});

test.run();
