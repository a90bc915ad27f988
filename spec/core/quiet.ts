// Waiting for a whole platform process to come to rest (not a spec itself).
import type { RunningPlatform } from '../../infra/main.ts';

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Resolves once the process has nothing left to do on its own: every consumer of its log reader has handled
 * the log up to its head (projections and reactors at lag 0), every work engine is settled (nothing in
 * flight, nothing due now, its inline work done), and no event was appended meanwhile. Only then does a spec
 * assert that something did not happen: waiting less would pass because the thing was merely slow.
 * Periodic timers (ServiceTimer) are not waited for.
 */
export async function quiet(
  platform: Pick<RunningPlatform, 'stores' | 'reader' | 'services'>,
  o: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { eventStore } = platform.stores;
  const engines = platform.services.flatMap((s) => s.engines);
  const abort = new AbortController();
  let step = 'the log reader';
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`the platform did not come to rest within ${timeoutMs} ms (waiting for ${step})`));
    }, timeoutMs);
  });
  const rest = async () => {
    for (;;) {
      const head = await eventStore.headPosition();
      step = `the log reader to handle the log up to ${head}`;
      await platform.reader?.reached(head, abort.signal);
      let calm = true;
      for (const e of engines) {
        step = `the work engine ${e.name}`;
        if (!(await e.settled())) calm = false;
      }
      // an engine's work appends events, which the reader hands on, or wakes another engine (looked at
      // already): at rest is a pass in which no engine had anything to do and the log stood still
      if (calm && (await eventStore.headPosition()) === head) return;
    }
  };
  try {
    await Promise.race([rest(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
