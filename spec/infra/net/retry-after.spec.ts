// Retry-After (RFC 9110 10.2.3) as the outbound client reads it: delay-seconds or an HTTP date in its
// three forms, capped, past dates as 0, anything else ignored.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../infra/net/retry-after.ts';

const NOW = Date.parse('2026-03-01T10:00:00.000Z');

test('delay-seconds', () => {
  assert.is(parseRetryAfter('120', NOW), 120_000);
  assert.is(parseRetryAfter(' 7 ', NOW), 7000);
  assert.is(parseRetryAfter('0', NOW), 0);
});

test('an HTTP date: IMF-fixdate, RFC 850 and asctime, from now; a past date is 0', () => {
  assert.is(parseRetryAfter('Sun, 01 Mar 2026 10:00:30 GMT', NOW), 30_000);
  assert.is(parseRetryAfter('Sunday, 01-Mar-26 10:01:00 GMT', NOW), 60_000);
  assert.is(parseRetryAfter('Sun Mar  1 10:02:00 2026', NOW), 120_000);
  assert.is(parseRetryAfter('Sun, 01 Mar 2026 09:00:00 GMT', NOW), 0);
});

test('capped at one hour by default, or at the cap given', () => {
  assert.is(MAX_RETRY_AFTER_MS, 3_600_000);
  assert.is(parseRetryAfter('86400', NOW), MAX_RETRY_AFTER_MS);
  assert.is(parseRetryAfter('99999999999999999999', NOW), MAX_RETRY_AFTER_MS);
  assert.is(parseRetryAfter('Mon, 02 Mar 2026 10:00:00 GMT', NOW), MAX_RETRY_AFTER_MS);
  assert.is(parseRetryAfter('600', NOW, 60_000), 60_000);
});

test('anything else is ignored', () => {
  for (const v of [undefined, '', '-5', '1.5', 'soon', '5.5', '2026-03-01T10:00:30Z', 'Sun, 01 Mar 2026 10:00:30']) {
    assert.is(parseRetryAfter(v, NOW), undefined, String(v));
  }
});

test.run();
