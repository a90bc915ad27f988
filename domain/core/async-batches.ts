/**
 * Groups an async iterable into batches without delaying anything: a batch takes every item that is
 * already available (resolves before the next macrotask) up to `maxSize`, then is handed over. Under load
 * batches fill up (fewer transactions); when idle each event goes out alone, at once.
 * The consumer finishes with a batch before the next one is handed over (backpressure is kept).
 */
export async function* batches<T>(source: AsyncIterable<T>, maxSize: number): AsyncGenerator<T[]> {
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined;
  try {
    while (true) {
      const first = await (pending ?? it.next());
      pending = undefined;
      if (first.done) return;
      const batch = [first.value];
      while (batch.length < maxSize) {
        pending = it.next();
        const ready = await Promise.race([pending, nextMacrotask()]);
        if (ready === NOT_YET) break;
        pending = undefined;
        if (ready.done) {
          yield batch;
          return;
        }
        batch.push(ready.value);
      }
      yield batch;
    }
  } finally {
    // do not leave the source open when the consumer stops early
    if (pending === undefined) await it.return?.();
    else
      void pending.then(
        () => it.return?.(),
        () => undefined,
      );
  }
}

const NOT_YET = Symbol('not-yet');
const nextMacrotask = () => new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET));
