/**
 * A FIFO async mutex. better-sqlite3 runs every statement synchronously on one connection, so a
 * transaction that awaits between statements leaves the connection inside BEGIN … COMMIT for other
 * callers: every writer of a store instance queues here, and the transaction holds the lock until it ends.
 */
export type Mutex = {
  run<R>(fn: () => R | Promise<R>): Promise<R>;
};

export function createMutex(): Mutex {
  let tail: Promise<void> = Promise.resolve();
  return {
    async run(fn) {
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
