import type { Clock } from '../../infra/core/clock.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem } from './work-engine.ts';

export type { DueItem } from './work-engine.ts';

/**
 * Claims one due item: the first (by dueAt) whose lease is free or expired gets a new lease, atomically
 * (findOneAndUpdate), so workers on several processes never run the same item at the same time. The work
 * engine (work-engine.ts) claims the same way; this is the one-item form for tools and tests.
 */
export async function claimDueItem<T extends DueItem>(
  items: Collection<T>,
  now: Date,
  owner: string,
  leaseMs: number,
  filter: Record<string, unknown> = {},
): Promise<T | null> {
  const at = now.toISOString();
  return items.findOneAndUpdate(
    { ...filter, dueAt: { $lte: at }, leaseUntil: { $lt: at } },
    { $set: { leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), leaseOwner: owner }, $inc: { leases: 1 } },
    { sort: { dueAt: 1 } },
  );
}

/** The work engine with one item in flight: what simple schedulers (reminders, sweeps) use. */
export function createDueWorkScheduler<T extends DueItem>(o: {
  items: () => Promise<Collection<T>>;
  clock: Clock;
  owner: string;
  leaseMs?: number;
  pollMs?: number;
  filter?: Record<string, unknown>;
  handle(item: T): Promise<void>;
}) {
  return createWorkEngine<T>({ name: o.owner, concurrency: 1, ...o });
}
