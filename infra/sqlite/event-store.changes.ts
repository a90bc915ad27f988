/**
 * "The log may have grown": the one wake-up signal of a SQLite event store instance, shared by all of its
 * page readers (in practice the process's one log reader).
 *
 * - `fire()`: an append through this instance. Bumps the version and wakes every waiter at once; a burst
 *   of appends while the readers are busy is one bump they see when they next look (coalesced).
 * - the probe: appends by other processes (other connections to the file) are only visible through the
 *   file. `probe()` answers SQLite's `PRAGMA data_version`, which changes when another connection has
 *   committed; it runs on one timer, and only while somebody waits, so an idle process costs nothing and a
 *   busy one never probes (its readers do not wait).
 */
export type ChangeSignal = {
  /**
   * A counter that moves on every change seen. Readers take it before each query: it probes first (or reuses
   * the probe of the same run of code, see localStatements), so the probe's baseline predates the query and a
   * commit made after the query always wakes the wait.
   */
  version(): number;
  /** an append through this store instance */
  fire(): void;
  /** how many times a probe (`version()`'s or the wait timer's) has seen another connection commit, or failed */
  foreign(): number;
  /** resolves once the version differs from `seen` (at once if it already does), or when the signal aborts */
  wait(seen: number, signal: AbortSignal): Promise<void>;
  close(): void;
};

export function createChangeSignal(o: {
  probe: () => number;
  intervalMs: number;
  /**
   * Given: version() answers from the last probe while the code that made it runs on (until the microtasks
   * queued by then have run: several reads issued together, a dispatch's four preference and quiet-hours
   * streams, probe once) and while this count stays: the statements this process has run on SQLite files,
   * either store's (process-statements.ts). A statement can show another process's later commit; until one
   * runs, nothing this code has seen is newer than the probe, and another process's commit is news only
   * through I/O, whose callback comes after those microtasks.
   */
  localStatements?: () => number;
}): ChangeSignal {
  let version = 0;
  let foreign = 0;
  let lastProbe: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const waiters = new Set<() => void>();

  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };

  const probeOnce = () => {
    let now: number;
    try {
      now = o.probe();
    } catch {
      // the database is closing or unreadable: the readers find out on their next query. Counted as another
      // connection's commit, so no reader trusts its own-commit bookkeeping and each one queries. Without a
      // baseline yet, the next probe that answers counts as a change too (NaN equals nothing): a commit made
      // in between must not pass unseen.
      version += 1;
      foreign += 1;
      lastProbe ??= Number.NaN;
      wakeAll();
      return;
    }
    if (lastProbe !== undefined && now !== lastProbe) {
      version += 1;
      foreign += 1;
      wakeAll();
    }
    lastProbe = now;
  };

  // the baseline, taken now: a commit by another connection any time after the signal exists is counted
  probeOnce();

  const ensureTimer = () => {
    if (timer !== undefined || waiters.size === 0) return;
    timer = setInterval(() => {
      probeOnce();
      if (waiters.size === 0) stopTimer();
    }, o.intervalMs);
    // not unref'd: a reader waiting for the log to grow is live work (stopping the reader aborts the wait
    // and the timer with it)
  };
  const stopTimer = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  /** the statement count at the probe this run of code may reuse; undefined: none */
  let reusable: number | undefined;
  const forget = () => {
    reusable = undefined;
  };

  return {
    version() {
      const local = o.localStatements?.();
      if (local === undefined || reusable !== local) {
        probeOnce();
        if (local !== undefined) {
          if (reusable === undefined) queueMicrotask(forget);
          reusable = local;
        }
      }
      return version;
    },
    fire() {
      version += 1;
      wakeAll();
    },
    foreign: () => foreign,
    wait(seen, signal) {
      if (version !== seen || signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        waiters.add(done);
        signal.addEventListener('abort', done, { once: true });
        ensureTimer();
      });
    },
    close() {
      stopTimer();
      wakeAll();
    },
  };
}
