import type { DeliveryOutcome, DeliveryRequest, TargetAdapter } from '../delivery.contracts.ts';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * One call of a target adapter, bounded by `timeoutMs` (spec Limits: 5 s): the adapter's signal fires
 * then, and an adapter that ignores its signal still cannot hold the worker past the timeout. A throw is a
 * retryable failure.
 */
export async function callTarget(
  adapter: TargetAdapter,
  request: Omit<DeliveryRequest, 'signal'>,
  timeoutMs: number,
): Promise<DeliveryOutcome> {
  const controller = new AbortController();
  const timedOut = `timed out after ${timeoutMs} ms`;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<DeliveryOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(timedOut));
      resolve({ ok: false, retryable: true, error: timedOut });
    }, timeoutMs);
  });
  try {
    const outcome = adapter.deliver({ ...request, signal: controller.signal }).catch(
      (err: unknown): DeliveryOutcome => ({
        ok: false,
        retryable: true,
        error: controller.signal.aborted ? timedOut : message(err),
      }),
    );
    return await Promise.race([outcome, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
