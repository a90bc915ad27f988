import { assertNever } from '../core/decider.ts';
import type { Target } from './model.ts';

/**
 * The spec's push retry strategies (Limits), as pure arithmetic: the random number and the clock come in
 * as arguments (commands/ draws them), so schedules are tested exactly.
 *
 * - BACKOFF_RETRY (the default): at most 3 retries, each after a random 10–20 s (`random` in [0, 1) gives
 *   10,000 + ⌊random × 10,000⌋ ms: 10 s inclusive to 20 s exclusive).
 * - EXPONENTIAL_DECAY_RETRY: at most 176 retries, the k-th after min(2^(k-1), 512) s (1, 2, 4 … 256, then
 *   512 s each), and none whose time would pass 24 h after the round's first attempt. The two limits agree:
 *   1 + 2 + … + 256 = 511 s, plus 167 × 512 s = 86,015 s ≤ 86,400 s, so with instant failures the 176th
 *   retry is the last one inside the day; slow failures (timeouts) reach the day limit first.
 *
 * Intervals run from the failure (`now`), not from the previous due time.
 */
export type RetryStrategy = Target['pushRetryStrategy'];

export const BACKOFF_MAX_RETRIES = 3;
export const BACKOFF_MIN_MS = 10_000;
export const BACKOFF_SPREAD_MS = 10_000;
export const EXPONENTIAL_MAX_RETRIES = 176;
export const EXPONENTIAL_CAP_MS = 512_000;
export const EXPONENTIAL_TOTAL_MS = 24 * 3600 * 1000;

export const maxRetries = (strategy: RetryStrategy): number => {
  switch (strategy) {
    case 'BACKOFF_RETRY':
      return BACKOFF_MAX_RETRIES;
    case 'EXPONENTIAL_DECAY_RETRY':
      return EXPONENTIAL_MAX_RETRIES;
    default:
      return assertNever(strategy);
  }
};

/** The wait before retry number `retry` (1-based). */
export function retryDelayMs(strategy: RetryStrategy, retry: number, random: number): number {
  switch (strategy) {
    case 'BACKOFF_RETRY': {
      const r = Number.isFinite(random) ? Math.min(Math.max(random, 0), 0.999_999_999) : 0;
      return BACKOFF_MIN_MS + Math.floor(r * BACKOFF_SPREAD_MS);
    }
    case 'EXPONENTIAL_DECAY_RETRY':
      // 2^(k-1) s, computed without overflow for large k
      return retry > 10 ? EXPONENTIAL_CAP_MS : Math.min(1000 * 2 ** (retry - 1), EXPONENTIAL_CAP_MS);
    default:
      return assertNever(strategy);
  }
}

/**
 * When the next attempt is due after a failure, or null when the strategy allows no more.
 * `attemptsSoFar`: attempts made in this round, the one that just failed included (≥ 1), so the next
 * attempt would be retry number `attemptsSoFar`. `firstAttemptAt`: the round's first attempt (ISO).
 * `now`: when the failure was seen (ISO). `random`: in [0, 1).
 */
export function nextAttemptAt(
  strategy: RetryStrategy,
  attemptsSoFar: number,
  firstAttemptAt: string,
  now: string,
  random: number,
): string | null {
  const retry = attemptsSoFar;
  if (retry > maxRetries(strategy)) return null;
  const at = Date.parse(now) + retryDelayMs(strategy, retry, random);
  if (strategy === 'EXPONENTIAL_DECAY_RETRY' && at > Date.parse(firstAttemptAt) + EXPONENTIAL_TOTAL_MS) return null;
  return new Date(at).toISOString();
}
