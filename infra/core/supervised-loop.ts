/**
 * The supervision every long-running worker shares (projection runners, reactors): run until the signal
 * aborts; a failure (store down, a bug) is reported and the work restarts after a doubling delay (capped),
 * from wherever its checkpoint says. `isFatal` stops it for good.
 */
export async function superviseLoop(o: {
  signal: AbortSignal;
  runOnce(signal: AbortSignal): Promise<void>;
  onFailure(error: unknown, retryInMs: number): void;
  isFatal?(error: unknown): boolean;
  initialDelayMs?: number;
  maxDelayMs?: number;
}): Promise<'aborted' | 'fatal'> {
  const { signal } = o;
  let delay = o.initialDelayMs ?? 250;
  while (!signal.aborted) {
    try {
      await o.runOnce(signal);
    } catch (err) {
      if (signal.aborted) break;
      if (o.isFatal?.(err)) return 'fatal';
      o.onFailure(err, delay);
      await abortableSleep(delay, signal);
      delay = Math.min(delay * 2, o.maxDelayMs ?? 30_000);
    }
  }
  return 'aborted';
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
