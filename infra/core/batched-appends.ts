import type { AppendRequest, AppendResult, EventStore } from './event-store.port.ts';
import { isStoreUnavailable } from './store-errors.ts';

type Pending = { request: AppendRequest; resolve(r: AppendResult): void; reject(e: unknown): void };

/**
 * Group commit for appends: the appends issued while the event loop works through one turn (concurrent
 * requests, a worker's deliveries finishing together) go to the store as one `appendMany` (SQLite: one
 * transaction; EventStoreDB: pipelined). Each caller still gets its own result, or its own
 * WrongExpectedRevisionError. The store is the same for every other call.
 *
 * A batch failing for another reason than the store (a programming error in one entry, e.g. an event id
 * already stored elsewhere) is split and appended entry by entry, so only the faulty append fails.
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

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    if (queue.length > 0) schedule();
    if (batch.length === 1) {
      const [one] = batch;
      store.append(one!.request.stream, one!.request.events, one!.request.expected).then(one!.resolve, one!.reject);
      return;
    }
    try {
      const results = await store.appendMany(batch.map((p) => p.request));
      results.forEach((r, i) => {
        if (r instanceof Error) batch[i]!.reject(r);
        else batch[i]!.resolve(r);
      });
    } catch (err) {
      if (isStoreUnavailable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      for (const p of batch)
        store.append(p.request.stream, p.request.events, p.request.expected).then(p.resolve, p.reject);
    }
  }

  return {
    appendMany: (batch) => store.appendMany(batch),
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    subscribeAll: (options) => store.subscribeAll(options),
    subscribePages: (options) => store.subscribePages(options),
    headPosition: () => store.headPosition(),
    ping: () => store.ping(),
    ...(store.changes !== undefined && { changes: () => store.changes!() }),
    ...(store.lastPositionIn !== undefined && { lastPositionIn: (c: string[]) => store.lastPositionIn!(c) }),
    close: () => store.close(),
    append(stream, events, expected) {
      return new Promise<AppendResult>((resolve, reject) => {
        queue.push({ request: { stream, events, expected }, resolve, reject });
        schedule();
      });
    },
  };
}
