// The one way a spec waits for something asynchronous to happen (not a spec itself).
import { inspect } from 'node:util';

export type EventuallyOptions = {
  /** what is waited for: named in the error when it never happens */
  what?: string;
  /** give up after this long (default 20 s: a generous bound on a loaded machine, never a timed assertion) */
  timeoutMs?: number;
  /** pause between tries (default 10 ms) */
  intervalMs?: number;
};

type Passed<T> = Exclude<T, undefined | false>;

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_INTERVAL_MS = 10;

/**
 * Tries `check` until it passes, and answers what it answered. A try passes when it returns (or resolves
 * to) anything but `undefined` or `false` without throwing: a predicate, a probe that finds something, or
 * a block of assertions. After `timeoutMs` it throws what was waited for, with the last failure (the
 * assertion's error, or the last answer).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  o: string | EventuallyOptions = {},
): Promise<Passed<T>> {
  const {
    what = 'the condition',
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
  } = typeof o === 'string' ? { what: o } : o;
  const end = Date.now() + timeoutMs;
  let last: { error: unknown } | { answer: unknown } = { answer: undefined };
  for (let tries = 1; ; tries++) {
    try {
      const answer = await check();
      if (answer !== undefined && answer !== false) return answer as Passed<T>;
      last = { answer };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= end) {
      const why =
        'error' in last
          ? last.error instanceof Error
            ? last.error.message
            : inspect(last.error)
          : `it answered ${inspect(last.answer)}`;
      const err = new Error(`never happened within ${timeoutMs} ms (${tries} tries): ${what}; last: ${why}`);
      if ('error' in last) err.cause = last.error;
      throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until every runner reports lag 0: its projection has applied the log up to its head. */
export const caughtUp = (...runners: Array<{ name?: string; status(): Promise<{ lag: number }> }>): Promise<true> =>
  eventually(
    async () => (await Promise.all(runners.map((r) => r.status()))).every((s) => s.lag === 0) || undefined,
    `${runners.map((r) => r.name ?? 'a projection').join(', ')} caught up (lag 0)`,
  );
