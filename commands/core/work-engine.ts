import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { LogPage } from '../../infra/core/event-store.port.ts';
import type { Collection, Doc, Filter, Sort } from '../../infra/core/read-store.port.ts';

/**
 * A due item: a row of a projection's read model (so it is rebuilt from the log like any read model) that
 * says some work is due at `dueAt` (a delivery, a retry, a scheduled send, an expiry, a receipt deadline,
 * a BPMN timer). The engine puts a lease on it before running it; the work's outcome is an event, and the
 * projection removes or reschedules the item when it sees that event.
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

export type WorkEngineLog = { error(obj: object, msg: string): void };

export type WorkEngineOptions<T extends DueItem> = {
  /** names the engine in health, metrics and leases */
  name: string;
  /** the live collection of due items (projections/core liveCollection, which names its projection) */
  items: (() => Promise<Collection<T>>) & { projection?: string };
  clock: Clock;
  /** runs one item; its outcome is appended by the handler (and projected back onto the item) */
  handle(item: T): Promise<void>;
  /**
   * Items with the same key run one at a time in this process, in the order they were claimed (a rule
   * target that must keep order, a message's attempts); undefined: no order needed
   */
  keyOf?(item: T): string | undefined;
  /** items in flight at once in this process (default 8) */
  concurrency?: number;
  /**
   * most items one claim takes (default 4): free slots are filled a few items per store call, so a burst
   * is shared by the processes looking at the same moment instead of going whole to the first
   */
  claimBatch?: number;
  /** how long a claimed item stays leased; a process that dies loses it after this (default 30 s) */
  leaseMs?: number;
  /**
   * how soon an engine whose slots were all taken looks again when some, but fewer than claimBatch, have come
   * free (default 10 ms, at most pollMs): a claim's worth coming free makes it look at once
   */
  refillMs?: number;
  /** how often an idle engine looks for due items; wake() makes it look at once (default 500 ms) */
  pollMs?: number;
  /**
   * The log consumers (projections, reactors) whose writes create this engine's items. After each page the
   * process's log reader wakes the engine only when the page held events for one of them, so an event
   * costs one claim query in the engines it can concern, not one in every engine of the process.
   * Default: the projection of `items` (a liveCollection), else woken after every page; []: never by a page
   * (its items are written elsewhere, and the writer calls wake()). The poll stays whatever this says.
   */
  fedBy?: readonly string[];
  /**
   * Whether a page that fed this engine can have left it items due now that this process is not already
   * running by another way (default: yes). The hub's dispatch engine beside its inline dispatch: a page of
   * fresh sends it started inline would only make it claim their items to find nothing left to do.
   */
  wantsPage?: (page: LogPage) => boolean;
  /**
   * Shown each page that fed this engine (before wantsPage): what the engine keeps of it for the items it
   * claims next. The hub's dispatch keeps the acceptances, so a fresh send's item needs no stream read.
   */
  sawPage?: (page: LogPage) => void;
  /** narrows what this engine runs (e.g. one kind of due work) */
  filter?: Filter;
  /**
   * Items this process is running by another way right now (the hub's inline dispatch of a fresh send):
   * left out of claims, so the engine neither leases them nor has to set them aside
   */
  busy?: () => readonly string[];
  /** how many tryRun works may wait for a slot (default: 4 × concurrency) */
  directQueue?: number;
  /** claim order; default dueAt, then id */
  sort?: Sort;
  owner?: string;
  log?: WorkEngineLog;
};

export type WorkEngineStatus = {
  name: string;
  state: 'stopped' | 'running' | 'retrying';
  inFlight: number;
  /** items due now and not leased (a backlog) */
  backlog: number;
  /** items leased now, by any process (absent where an engine does not count them) */
  leased?: number;
  lastError?: string;
};

export type WorkEngine = {
  readonly name: string;
  /** WorkEngineOptions.fedBy */
  readonly fedBy?: readonly string[];
  /** WorkEngineOptions.wantsPage */
  readonly wantsPage?: (page: LogPage) => boolean;
  /** WorkEngineOptions.sawPage */
  readonly sawPage?: (page: LogPage) => void;
  start(): void;
  /** stops claiming, waits for the items in hand */
  stop(): Promise<void>;
  /** something may be due now (a projection just wrote items): look at once */
  wake(): void;
  /** claims and runs every item due now, one at a time (tests, one-off runs); answers how many */
  runDue(): Promise<number>;
  /**
   * Resolves once the engine is at rest: no look for items under way or pending, nothing in flight, none of
   * its items run by another way (busy), and no free item due now. Where one is due, it looks at once (as
   * its poll would). A stopped engine is at rest once its items in hand are done. Answers whether it was at
   * rest already when called (nothing to wait for). Tests wait for this before asserting that something did
   * not happen; a drain can too.
   */
  settled(): Promise<boolean>;
  status(): Promise<WorkEngineStatus>;
};

/** the engine createWorkEngine builds: a WorkEngine that can also run an item it did not claim */
export type DirectWorkEngine = WorkEngine & {
  /**
   * Runs `work` for item `id` in one of this engine's slots without claiming it: at once where a slot is
   * free, else as soon as one comes free, before any claim, if fewer than `directQueue` wait already.
   * Undefined when the engine does not run, the item is in hand already or the queue is full: the item is
   * the claims' to take. While it waits and runs the item is left out of claims. Resolves when the work
   * has run (true), or was dropped from the queue by stop() (false). The work a process has just created
   * itself (a fresh delivery) starts without a store round trip; the due item the projection writes for it
   * is the fallback, should the work not finish. `wait: false`: only where a slot is free now (a caller
   * that holds a slot already and waits for this one could otherwise wait for itself).
   */
  tryRun(id: string, work: () => Promise<void>, options?: { wait?: boolean }): Promise<boolean> | undefined;
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The one work engine for side effects and due work: bridge deliveries, hub dispatch, alerts, TCC commands
 * and sweeps, audit retention, workflow timers and index rebuilds.
 *
 * Claiming is an atomic compare-and-set on each item (findManyAndUpdate: due, lease free or expired → a new
 * lease; up to `claimBatch` of the free slots per store call), so engines in several processes never run
 * the same item at the same time, and a burst is shared by those looking at once: adding processes adds
 * throughput. Up to `concurrency` items run at once; items sharing a key run one after the other in
 * claim order, each re-taking its lease when its turn comes (it may have waited longer than the lease). An
 * item this process is still running is not run again if its lease ran out and it was claimed anew.
 * A handler that throws keeps its lease until it expires: that is the back-off before the next try.
 */
export function createWorkEngine<T extends DueItem>(o: WorkEngineOptions<T>): DirectWorkEngine {
  const { clock, name } = o;
  const concurrency = Math.max(1, o.concurrency ?? 8);
  const claimBatch = Math.max(1, o.claimBatch ?? 4);
  const leaseMs = o.leaseMs ?? 30_000;
  const pollMs = o.pollMs ?? 500;
  const refillMs = Math.min(pollMs, o.refillMs ?? 10);
  const sort: Sort = o.sort ?? { dueAt: 1 };
  const owner = o.owner ?? `${name}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const fedBy = o.fedBy ?? (o.items.projection === undefined ? undefined : [o.items.projection]);

  let abort: AbortController | undefined;
  let loop: Promise<void> | undefined;
  let state: WorkEngineStatus['state'] = 'stopped';
  let lastError: string | undefined;
  /** items of this process: id → how many runs are queued or running */
  const active = new Map<string, number>();
  const chains = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  let woken = false;
  /** the last look for due items stopped with every slot taken: a finished item makes it look again */
  let full = false;
  let wakeUp: (() => void) | undefined;
  /** ids run by tryRun right now or waiting to: left out of claims */
  const direct = new Set<string>();
  /** tryRun works waiting for a slot, oldest first */
  const queued: Array<{ id: string; work: () => Promise<void>; done(ran: boolean): void }> = [];
  const directQueue = Math.max(0, o.directQueue ?? 4 * concurrency);
  /** slots a claim under way is filling */
  let reserved = 0;
  /** the next slot that comes free while the engine is full goes to the claims */
  let claimTurn = false;
  function startQueued() {
    const next = queued.shift()!;
    runDirect(next.id, next.work).then(next.done);
  }
  function runDirect(id: string, work: () => Promise<void>): Promise<boolean> {
    return dispatch({ id } as T, work)
      .finally(() => direct.delete(id))
      .then(() => true);
  }
  /** store calls claiming items now (the loop's, runDue's) */
  let claiming = 0;
  /** settled() calls waiting for the engine to come to rest */
  const resting = new Set<() => void>();

  const leaseUntil = (at: Date) => new Date(at.getTime() + leaseMs).toISOString();

  /** up to `limit` due items, leased to this engine in one store call (the embedded store: one commit) */
  async function claim(limit: number): Promise<T[]> {
    const at = clock.now();
    const iso = at.toISOString();
    const busy = direct.size === 0 ? (o.busy?.() ?? []) : [...(o.busy?.() ?? []), ...direct];
    claiming++;
    try {
      return await (await o.items()).findManyAndUpdate(
        { ...o.filter, ...(busy.length > 0 && { id: { $nin: busy } }), dueAt: { $lte: iso }, leaseUntil: { $lt: iso } },
        { $set: { leaseUntil: leaseUntil(at), leaseOwner: owner }, $inc: { leases: 1 } },
        { sort, limit },
      );
    } finally {
      claiming--;
    }
  }

  /** waiting for its poll or a wake, or stopped, with nothing in hand and no look to come before the poll */
  let waiting = false;
  const atRest = () =>
    running.size === 0 && claiming === 0 && (abort === undefined || (waiting && !woken && refill === undefined));
  function checkRest() {
    if (resting.size === 0 || !atRest()) return;
    for (const resolve of [...resting]) resolve();
    resting.clear();
  }
  const rest = () => new Promise<void>((resolve) => resting.add(resolve));

  /** an item that waited for its key: still ours? (its lease may have run out and gone to another process) */
  async function renew(item: T): Promise<boolean> {
    const at = clock.now();
    const renewed = await (await o.items()).findOneAndUpdate(
      { id: item.id, leaseOwner: owner },
      { $set: { leaseUntil: leaseUntil(at) } },
    );
    return renewed !== null;
  }

  async function runOne(item: T, waited: boolean): Promise<void> {
    try {
      if (waited && !(await renew(item))) return;
      await o.handle(item);
    } catch (err) {
      o.log?.error(
        { engine: name, item: item.id, err: message(err) },
        'due item failed; it is tried again when its lease runs out',
      );
    }
  }

  /** runs the item now, or after the items of its key claimed before it; `work`: tryRun's own work */
  function dispatch(item: T, work?: () => Promise<void>): Promise<void> {
    active.set(item.id, (active.get(item.id) ?? 0) + 1);
    const key = work === undefined ? o.keyOf?.(item) : undefined;
    let run: Promise<void>;
    if (work !== undefined)
      run = work().catch((err: unknown) =>
        o.log?.error(
          { engine: name, item: item.id, err: message(err) },
          'work run at once failed; its due item takes it',
        ),
      );
    else if (key === undefined) run = runOne(item, false);
    else {
      const before = chains.get(key);
      run = (before ?? Promise.resolve()).then(() => runOne(item, before !== undefined));
      chains.set(key, run);
    }
    const done = run.finally(() => {
      const n = (active.get(item.id) ?? 1) - 1;
      if (n <= 0) active.delete(item.id);
      else active.set(item.id, n);
      if (key !== undefined && chains.get(key) === run) chains.delete(key);
      running.delete(done);
      // a slot came free: work waiting to be run at once takes it, but while the last look for due items
      // stopped for want of slots (a backlog may wait), every other slot goes to the claims, so that
      // retries and what overflowed are not starved by a steady stream of fresh work
      if (queued.length > 0 && abort !== undefined && !abort.signal.aborted && !(full && claimTurn)) {
        claimTurn = true;
        startQueued();
        return;
      }
      claimTurn = false;
      queueMicrotask(checkRest);
      // slots came free: look again only if the last look stopped for want of them, and once a claim's worth
      // is free (one claim, one commit for claimBatch items instead of one per finished item), or shortly
      // after if fewer come free (slow items hold the rest); due items that came since are announced by the
      // pages that wrote them, or found by the poll
      if (!full) return;
      if (concurrency - running.size >= Math.min(concurrency, claimBatch)) wake();
      else refillSoon();
    });
    running.add(done);
    return done;
  }

  let refill: NodeJS.Timeout | undefined;
  /** a look refillMs after the first slot came free while the engine was full, if none came before */
  function refillSoon() {
    if (refill !== undefined) return;
    refill = setTimeout(() => {
      refill = undefined;
      if (full) wake();
      else checkRest();
    }, refillMs);
    refill.unref();
  }

  function wake() {
    woken = true;
    wakeUp?.();
  }

  async function main(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      woken = false;
      try {
        full = false;
        while (!signal.aborted) {
          const free = concurrency - running.size;
          if (free <= 0) {
            full = true;
            break;
          }
          const wanted = Math.min(free, claimBatch);
          // the slots being claimed are not tryRun's meanwhile: never more than `concurrency` at once
          reserved = wanted;
          let items: T[];
          try {
            items = await claim(wanted);
          } finally {
            reserved = 0;
          }
          // still running here from an earlier lease: leave it to that run (its outcome moves the item)
          for (const item of items) if (!active.has(item.id)) void dispatch(item);
          if (items.length < wanted) break;
        }
        // slots the claims did not fill: to the work waiting for one
        while (queued.length > 0 && running.size < concurrency && !signal.aborted) startQueued();
        if (state === 'retrying') state = 'running';
        lastError = undefined;
      } catch (err) {
        state = 'retrying';
        lastError = message(err);
        o.log?.error({ engine: name, err: lastError }, 'work engine: cannot claim due items; retrying');
      }
      if (woken || signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wakeUp = undefined;
          waiting = false;
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        wakeUp = done;
        waiting = true;
        signal.addEventListener('abort', done, { once: true });
        checkRest();
      });
    }
  }

  return {
    name,
    ...(fedBy !== undefined && { fedBy }),
    ...(o.wantsPage !== undefined && { wantsPage: o.wantsPage }),
    ...(o.sawPage !== undefined && { sawPage: o.sawPage }),
    start() {
      if (abort) return;
      abort = new AbortController();
      state = 'running';
      loop = main(abort.signal);
    },
    async stop() {
      abort?.abort();
      // work waiting for a slot is left to its callers (they answer it by another way)
      for (const q of queued.splice(0)) {
        direct.delete(q.id);
        q.done(false);
      }
      clearTimeout(refill);
      refill = undefined;
      wakeUp?.();
      await loop;
      // runs started while stopping (a freed slot's queued work) are waited for too
      while (running.size > 0) await Promise.all([...running]);
      abort = undefined;
      loop = undefined;
      state = 'stopped';
      checkRest();
    },
    wake,
    tryRun(id, work, options) {
      if (abort === undefined || abort.signal.aborted || active.has(id) || direct.has(id)) return undefined;
      if (running.size + reserved < concurrency && queued.length === 0) {
        direct.add(id);
        return runDirect(id, work);
      }
      if (options?.wait === false || queued.length >= directQueue) return undefined;
      direct.add(id);
      return new Promise<boolean>((done) => queued.push({ id, work, done }));
    },
    async runDue() {
      let ran = 0;
      for (;;) {
        const [item] = await claim(1);
        if (item === undefined) return ran;
        ran++;
        await dispatch(item);
      }
    },
    async settled() {
      let calm = true;
      for (;;) {
        if (!atRest()) {
          calm = false;
          await rest();
        }
        if (abort === undefined) return calm;
        const busy = o.busy?.() ?? [];
        const iso = clock.now().toISOString();
        const due =
          busy.length > 0
            ? 1
            : await (await o.items()).count({ ...o.filter, dueAt: { $lte: iso }, leaseUntil: { $lt: iso } });
        if (due === 0 && atRest()) return calm;
        calm = false;
        // items run by another way tell the engine nothing when they end: look again shortly
        if (busy.length > 0) await new Promise((resolve) => setTimeout(resolve, refillMs));
        else if (atRest()) wake();
      }
    },
    async status() {
      const at = clock.now().toISOString();
      const items = await o.items();
      const [backlog, leased] = await Promise.all([
        items.count({ ...o.filter, dueAt: { $lte: at }, leaseUntil: { $lt: at } }),
        items.count({ ...o.filter, leaseUntil: { $gte: at } }),
      ]);
      return { name, state, inFlight: running.size, backlog, leased, ...(lastError !== undefined && { lastError }) };
    },
  };
}
