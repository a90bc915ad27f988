import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints one SQLite file's write-ahead log from a worker thread, so that the thread that writes never
 * does. With SQLite's automatic checkpoint the commit that crosses the threshold copies the WAL into the
 * database file and fsyncs it before it returns: counted with `npm run bench`'s all-in-one putEvent load,
 * those commits took 5 ms and more and cost about 45 µs per request on the event loop (the log's file and
 * the read models' together, ~9 % of the request), and each stalled every request queued behind it.
 *
 * The store's own connection then runs with `wal_autocheckpoint = 0`, and this thread, with its own
 * connection, runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`: PASSIVE copies what no reader
 * still needs and never waits for (or blocks) a writer or a reader, the same kind of checkpoint SQLite's
 * automatic one is. Several processes on one file each run one; a checkpoint already under way in
 * another connection answers SQLITE_BUSY and this one skips its turn. A checkpoint with nothing new to
 * copy reads the WAL index and returns.
 *
 * If the thread cannot open the file or a checkpoint fails otherwise, `onFailure` is called once and the
 * thread ends: the store turns its automatic checkpoint back on, so the WAL never grows without bound.
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
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    return true;
  } catch (e) {
    if (e && e.code === 'SQLITE_BUSY') return true; // another connection is checkpointing
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
    parentPort.postMessage({ kind: 'stopped' });
    parentPort.close();
  });
}
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export function startWalCheckpointer(o: WalCheckpointerOptions): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { file: o.file, intervalMs: o.intervalMs, driver } });
  // the thread must not keep a process alive that has nothing else to do
  worker.unref();
  let failed = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (m: { kind: 'failed' | 'stopped'; message?: string }) => {
    if (m.kind === 'failed' && !failed) {
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

/**
 * Moves `db`'s checkpoints to a worker thread when `intervalMs` > 0 (and the database is a file): the
 * connection stops checkpointing, and gets its automatic checkpoint back if the thread fails.
 */
export function backgroundCheckpoints(db: { open: boolean; pragma(s: string): unknown }, file: string, intervalMs: number | undefined): WalCheckpointer | undefined {
  if (!intervalMs || file === '' || file === ':memory:') return undefined;
  db.pragma('wal_autocheckpoint = 0');
  return startWalCheckpointer({
    file,
    intervalMs,
    onFailure(message) {
      if (db.open) db.pragma(AUTOCHECKPOINT);
      process.emitWarning(`${file}: the WAL checkpoint thread stopped (${message}); checkpoints run in the writing thread again`);
    },
  });
}
