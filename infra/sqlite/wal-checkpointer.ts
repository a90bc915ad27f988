import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints one SQLite file's write-ahead log from a worker thread, so that the thread that writes
 * (almost) never has to: with SQLite's automatic checkpoint alone, the commit that crosses the threshold
 * copies the WAL into the database file and fsyncs it before it returns, stalling every request queued
 * behind it (measured under putEvent load: such commits take 5 ms and more, ~9 % of a request's time).
 *
 * This thread, with its own connection, runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`, long
 * before the store's connection reaches its automatic checkpoint (which stays, as the bound on the log's
 * size: see backgroundCheckpoints). PASSIVE copies what no reader still needs and never waits for (or blocks)
 * a writer or a reader, the same kind of checkpoint SQLite's automatic one is. Several processes on one file
 * each run one; one that finds another connection checkpointing skips its turn. A checkpoint with nothing
 * new to copy reads the WAL index and returns.
 *
 * If the thread cannot open the file or a checkpoint fails otherwise, `onFailure` is called once and the
 * thread ends; the store's automatic checkpoint goes on as it would without the thread.
 */
export type WalCheckpointer = {
  /** one last checkpoint, then the thread's connection closes and the thread ends */
  stop(): Promise<void>;
};

export type WalCheckpointerOptions = {
  file: string;
  intervalMs: number;
  onFailure(message: string): void;
};

// Plain CommonJS evaluated in the worker: no TypeScript loader there (execArgv: []), one native module.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
let timer;
const fail = (e) => {
  clearInterval(timer);
  try { db && db.close(); } catch {}
  parentPort.postMessage({ kind: 'failed', message: String((e && e.message) || e) });
  parentPort.close();
};
// A pass copies the frames committed before it began; a commit landing meanwhile leaves the log behind,
// and only a log copied to its end lets the next writer start it over from the beginning. So passes follow
// each other while each one ends behind (the later ones copy a few frames each), up to a handful.
const checkpoint = () => {
  try {
    for (let pass = 0; pass < 5; pass++) {
      const [r] = db.pragma('wal_checkpoint(PASSIVE)');
      if (!r || r.busy || r.log === r.checkpointed) break;
    }
    return true;
  } catch (e) {
    // the file busy or locked for a moment (another connection recovering the WAL index): next turn
    if (e && /^SQLITE_(BUSY|LOCKED|PROTOCOL)/.test(String(e.code))) return true;
    fail(e);
    return false;
  }
};
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  db.pragma('busy_timeout = 0');
} catch (e) {
  fail(e);
}
if (db && db.open) {
  timer = setInterval(checkpoint, workerData.intervalMs);
  parentPort.on('message', () => {
    clearInterval(timer);
    if (!checkpoint()) return;
    db.close();
    parentPort.close();
  });
}
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export function startWalCheckpointer(o: WalCheckpointerOptions): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { file: o.file, intervalMs: o.intervalMs, driver },
  });
  // the thread must not keep a process alive that has nothing else to do
  worker.unref();
  let failed = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (m: { kind: 'failed'; message?: string }) => {
    if (!failed) {
      failed = true;
      o.onFailure(m.message ?? 'unknown error');
    }
  });
  worker.on('error', (e) => {
    if (failed) return;
    failed = true;
    o.onFailure(e instanceof Error ? e.message : String(e));
  });
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        worker.ref(); // the caller awaits the end: the process must wait for it too
        if (!failed) worker.postMessage('stop');
        await exited;
      })();
      return stopping;
    },
  };
}

/** SQLite's automatic checkpoint as both stores set it (the event store says why 10,000 pages) */
export const AUTOCHECKPOINT = 'wal_autocheckpoint = 10000';

/** A checkpoint thread for a store's file when `intervalMs` > 0 and the database is a file. */
export function backgroundCheckpoints(file: string, intervalMs: number | undefined): WalCheckpointer | undefined {
  if (!intervalMs || file === '' || file === ':memory:') return undefined;
  // The connection keeps its own automatic checkpoint (AUTOCHECKPOINT). It counts the frames in the log, not
  // the ones still to copy, and the log starts over from its beginning once a checkpoint has copied all of
  // it: the thread's passes keep it short, so the connection's checkpoint fires only when the writes never
  // pause long enough for a pass to catch up. It keeps bounding the log's size as it did before the thread
  // (about 40 MB, a bound readers holding old snapshots can stretch, as always).
  return startWalCheckpointer({
    file,
    intervalMs,
    onFailure(message) {
      process.emitWarning(
        `${file}: the WAL checkpoint thread stopped (${message}); SQLite's automatic checkpoint goes on alone`,
      );
    },
  });
}
