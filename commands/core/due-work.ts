import type { Clock } from '../../infra/core/clock.port.ts';
import type { Collection, Doc } from '../../infra/core/read-store.port.ts';

/**
 * A due item: a row of a projection's read model (so it is rebuilt from the log like any read model) that
 * says some work is due at `dueAt` (retries, scheduled sends, expiry, receipt deadlines). The scheduler puts
 * a lease on it before running it; the work's outcome is an event, and the projection removes or
 * reschedules the item when it sees that event.
 */
export type DueItem = Doc & {
  /** ISO instant */
  dueAt: string;
  /** ISO instant until which a worker holds it; '' when free. Projections write '' on every (re)schedule. */
  leaseUntil: string;
  leaseOwner?: string;
  /** how many times a lease was taken: a crashed worker's item comes back with a higher count */
  leases?: number;
};

export type DueWorkOptions<T extends DueItem> = {
  /** the live collection of due items (projections/core liveCollection) */
  items: () => Promise<Collection<T>>;
  clock: Clock;
  /** identifies this worker in leases (process and purpose) */
  owner: string;
  /** how long a claimed item stays leased; a worker that dies loses it after this */
  leaseMs?: number;
  /** how often an idle scheduler looks for due items */
  pollMs?: number;
  /** narrows what this scheduler runs (e.g. one kind of due work) */
  filter?: Record<string, unknown>;
  handle(item: T): Promise<void>;
  onError?(item: T, error: unknown): void;
};

/**
 * Claims one due item: the first (by dueAt) whose lease is free or expired gets a new lease, atomically
 * (findOneAndUpdate), so workers on several processes never run the same item at the same time.
 */
export async function claimDueItem<T extends DueItem>(items: Collection<T>, now: Date, owner: string, leaseMs: number, filter: Record<string, unknown> = {}): Promise<T | null> {
  const at = now.toISOString();
  return items.findOneAndUpdate(
    { ...filter, dueAt: { $lte: at }, leaseUntil: { $lt: at } },
    { $set: { leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), leaseOwner: owner }, $inc: { leases: 1 } },
    { sort: { dueAt: 1 } },
  );
}

/**
 * Runs due items one at a time until stopped: claim, handle, repeat; idle: wait `pollMs`. A handler that
 * throws keeps its lease until it expires, which is the back-off before the item is tried again.
 */
export function createDueWorkScheduler<T extends DueItem>(o: DueWorkOptions<T>) {
  const leaseMs = o.leaseMs ?? 30_000;
  const pollMs = o.pollMs ?? 500;
  let abort: AbortController | undefined;
  let loop: Promise<void> | undefined;

  /** one pass: runs every item due now; answers how many ran */
  async function runDue(signal?: AbortSignal): Promise<number> {
    let ran = 0;
    while (!signal?.aborted) {
      const item = await claimDueItem(await o.items(), o.clock.now(), o.owner, leaseMs, o.filter);
      if (!item) return ran;
      ran++;
      try {
        await o.handle(item);
      } catch (err) {
        o.onError?.(item, err);
      }
    }
    return ran;
  }

  async function run(signal: AbortSignal) {
    while (!signal.aborted) {
      try {
        await runDue(signal);
      } catch (err) {
        o.onError?.(undefined as unknown as T, err); // store trouble: wait and try again
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
  }

  return {
    runDue,
    start() {
      if (loop) return;
      abort = new AbortController();
      loop = run(abort.signal);
    },
    /** stops after the item in hand */
    async stop() {
      abort?.abort();
      await loop;
      loop = undefined;
    },
  };
}
