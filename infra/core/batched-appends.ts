import { dependencyOf } from './append-dependency.ts';
import type { AppendRequest, AppendResult, EventStore } from './event-store.port.ts';
import { isStoreUnavailable, type WrongExpectedRevisionError } from './store-errors.ts';

type Answer = AppendResult | WrongExpectedRevisionError;
/** one caller's call: a single append, or an appendMany group (its `after` indices are its own) */
type Pending = { requests: AppendRequest[]; single: boolean; resolve(r: Answer[]): void; reject(e: unknown): void };

/**
 * Group commit for appends: the appends and appendMany groups issued while the event loop works through
 * one turn (concurrent requests, a worker's deliveries finishing together) go to the store as one
 * `appendMany` (SQLite: one transaction; EventStoreDB: pipelined). Each caller still gets its own results,
 * or its own WrongExpectedRevisionError. The store is the same for every other call.
 *
 * A batch failing for another reason than the store (a programming error in one entry, e.g. an event id
 * already stored elsewhere) is split and appended call by call, so only the faulty call fails.
 */
export function withBatchedAppends(store: EventStore, o: { maxBatch?: number } = {}): EventStore {
  const maxBatch = o.maxBatch ?? 256;
  let queue: Pending[] = [];
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  const alone = (p: Pending) => {
    const [one] = p.requests;
    if (p.single) store.append(one!.stream, one!.events, one!.expected).then((r) => p.resolve([r]), p.reject);
    else store.appendMany(p.requests).then(p.resolve, p.reject);
  };

  async function flush(): Promise<void> {
    scheduled = false;
    // whole calls, up to maxBatch entries (a larger group goes alone)
    let size = 0;
    let taken = 0;
    while (taken < queue.length && (taken === 0 || size + queue[taken]!.requests.length <= maxBatch)) {
      size += queue[taken]!.requests.length;
      taken += 1;
    }
    const batch = queue.slice(0, taken);
    queue = queue.slice(taken);
    if (queue.length > 0) schedule();
    if (batch.length === 1) return alone(batch[0]!);
    // each group's dependencies, shifted to where its entries sit in the joined batch
    const offsets: number[] = [];
    const joined: AppendRequest[] = [];
    for (const p of batch) {
      const offset = joined.length;
      offsets.push(offset);
      for (const r of p.requests) joined.push(r.after === undefined ? r : { ...r, after: r.after + offset });
    }
    try {
      const results = await store.appendMany(joined);
      batch.forEach((p, i) => {
        const own = results.slice(offsets[i], offsets[i]! + p.requests.length);
        if (p.single && own[0] instanceof Error) p.reject(own[0]);
        else p.resolve(own);
      });
    } catch (err) {
      if (isStoreUnavailable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      for (const p of batch) alone(p);
    }
  }

  const enqueue = (requests: AppendRequest[], single: boolean) =>
    new Promise<Answer[]>((resolve, reject) => {
      queue.push({ requests, single, resolve, reject });
      schedule();
    });

  return {
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    subscribeAll: (options) => store.subscribeAll(options),
    subscribePages: (options) => store.subscribePages(options),
    headPosition: () => store.headPosition(),
    ping: () => store.ping(),
    ...(store.changes !== undefined && { changes: () => store.changes!() }),
    ...(store.lastPositionIn !== undefined && { lastPositionIn: (c: string[]) => store.lastPositionIn!(c) }),
    close: () => store.close(),
    async append(stream, events, expected) {
      const [result] = await enqueue([{ stream, events, expected }], true);
      return result as AppendResult;
    },
    async appendMany(batch) {
      if (batch.length === 0) return [];
      // each group's `after` checked within the group, before it is shifted to name another's entry
      for (const [i, r] of batch.entries()) dependencyOf(r, i);
      return enqueue(batch, false);
    },
  };
}
