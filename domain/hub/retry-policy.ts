import type { RetryPolicy } from './config.model.ts';

/**
 * Automatic retries (spec "Limits"): after failed attempt number n the next waits
 * delay(n) = ceil(min(RetryMaxDelaySeconds, RetryInitialDelaySeconds × RetryBackoffMultiplier^(n−1)))
 * seconds; MaxAttempts counts the first attempt (3: attempts 2 and 3, never 4); a retry time must be
 * strictly before ExpiresAt or no retry is queued. A receiver's Retry-After (429) only ever lengthens the
 * wait. Manual attempts neither use nor restore the automatic budget.
 */
export function retryDelaySeconds(policy: RetryPolicy, failedAttempt: number): number {
  const raw = policy.RetryInitialDelaySeconds * policy.RetryBackoffMultiplier ** Math.max(0, failedAttempt - 1);
  return Math.ceil(Math.min(policy.RetryMaxDelaySeconds, raw));
}

/**
 * When the next automatic attempt is due after automatic attempt `failedAttempt` failed at `failedAt`, or
 * null when none is: the budget is spent, or the time is not strictly before `expiresAt`.
 */
export function nextRetryTime(o: {
  policy: RetryPolicy;
  failedAttempt: number;
  failedAt: string;
  expiresAt?: string;
  retryAfterMs?: number;
}): string | null {
  if (o.failedAttempt >= o.policy.MaxAttempts) return null;
  const wait = Math.max(retryDelaySeconds(o.policy, o.failedAttempt) * 1000, o.retryAfterMs ?? 0);
  const at = Date.parse(o.failedAt) + wait;
  if (o.expiresAt !== undefined && at >= Date.parse(o.expiresAt)) return null;
  return new Date(at).toISOString();
}

/** violations of a retry policy (field names relative to it) */
export function checkRetryPolicy(p: RetryPolicy): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  if (!Number.isInteger(p.MaxAttempts) || p.MaxAttempts < 1 || p.MaxAttempts > 100)
    out.push({ field: 'MaxAttempts', message: 'must be an integer from 1 to 100' });
  if (
    !Number.isInteger(p.RetryInitialDelaySeconds) ||
    p.RetryInitialDelaySeconds < 0 ||
    p.RetryInitialDelaySeconds > 7 * 86_400
  ) {
    out.push({ field: 'RetryInitialDelaySeconds', message: 'must be an integer from 0 to 604800' });
  }
  if (
    typeof p.RetryBackoffMultiplier !== 'number' ||
    !Number.isFinite(p.RetryBackoffMultiplier) ||
    p.RetryBackoffMultiplier < 1 ||
    p.RetryBackoffMultiplier > 100
  ) {
    out.push({ field: 'RetryBackoffMultiplier', message: 'must be a number from 1 to 100' });
  }
  if (!Number.isInteger(p.RetryMaxDelaySeconds) || p.RetryMaxDelaySeconds < 0 || p.RetryMaxDelaySeconds > 30 * 86_400) {
    out.push({ field: 'RetryMaxDelaySeconds', message: 'must be an integer from 0 to 2592000' });
  } else if (Number.isInteger(p.RetryInitialDelaySeconds) && p.RetryMaxDelaySeconds < p.RetryInitialDelaySeconds) {
    out.push({ field: 'RetryMaxDelaySeconds', message: 'must not be below RetryInitialDelaySeconds' });
  }
  return out;
}
