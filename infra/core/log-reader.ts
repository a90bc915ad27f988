import type { AllFilter, EventStore, LogPage } from './event-store.port.ts';
import { type ConsumerBatch, ConsumerRetired, type ConsumerStatus, type LogConsumer } from './log-consumer.ts';
import { maxPosition, START } from './position.ts';
import { abortableSleep } from './supervised-loop.ts';

/**
 * The process's one log reader. It reads each page of the global log once (`subscribePages` with the union
 * of its consumers' filters) and hands the same parsed page to every consumer that is on the shared tail;
 * the next page is read when the slowest of them is done (plain async iteration: pull-based backpressure),
 * and, while the log is busy, a few milliseconds later (`coalesceMs`), so that it gathers more events.
 *
 * A consumer that is behind (new, restarted, after a failure) catches up on its own loop, reading pages
 * after its own position with its own filter, and joins the shared tail when it reaches it. Joining is
 * decided synchronously against `readUpTo`, the position of the last page the shared loop took from the
 * store: a consumer whose covered position is at or beyond it cannot miss a later page, and skips what it
 * already has. A consumer whose `handle` throws leaves the tail, waits (doubling back-off, capped), starts
 * again from its own position and catches up: one broken consumer never holds up the others.
 */
export type LogReaderLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type LogReaderOptions = {
  eventStore: EventStore;
  consumers: LogConsumer[];
  /** the shared tail's page size (events); default 500 */
  pageSize?: number;
  /** a catching-up consumer's page size; default 2000 */
  catchUpPageSize?: number;
  /** first back-off after a consumer failed; doubles up to maxRetryDelayMs (30 s) */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  log?: LogReaderLog;
  /**
   * Told when every consumer on the shared tail has handled a page (the grouped read models' writes are
   * committed), and when a catching-up consumer has handled one of its own pages: the work engines of the
   * process look for due items at once instead of at their next poll (infra/core/engine-waker.ts).
   */
  afterPage?: (page: LogPage) => void;
  /**
   * Under load, gather: while the tail brings more than `coalesceAbove` events per second (measured over the
   * last 100–200 ms, and over the time since the page before: a burst that has ended stops the gathering at
   * its next page), wait this long after each page that is not full before reading the next, so that it
   * carries the events of that time in one page, one read-store transaction and one round of engine wakes,
   * instead of a page (and a commit) per few events. Below that rate nothing waits: an event, and a
   * reactor's append right after its page (a routing), are read as soon as they are appended. Where the store
   * can tell (EventStore.changes), a pause ends once the log stood still for GATHER_SLICE_MS. Empty pages (a
   * filtered reader's, nothing for its consumers) arriving within GATHER_SLICE_MS of each other pause too.
   * Default DEFAULT_GATHER_MS (the platform's LOG_GATHER_MS); 0: never.
   */
  coalesceMs?: number;
  /** events per second of the tail above which it gathers (default 1,000) */
  coalesceAbove?: number;
  /**
   * How long a page that is not full waits before its consumers get it (default 0): the work an append
   * starts in its own process (a delivery's first attempt right after its acceptance) runs first, instead of
   * behind the read-model writes of the page that append made, and the appends it makes meanwhile come
   * in the next page, together. The platform's LOG_SETTLE_MS.
   */
  settleMs?: number;
  /** a pause's slice (default GATHER_SLICE_MS): a log still for this long ends it; empty pages this close pause */
  gatherSliceMs?: number;
};

export type LogReaderStats = {
  /** pages the shared tail read from the store */
  tailPages: number;
  tailEvents: number;
  /** pages read by catching-up consumers */
  catchUpPages: number;
};

export type LogReader = {
  start(): void;
  /** stops after the pages in hand are handled */
  stop(): Promise<void>;
  status(): ConsumerStatus[];
  stats(): LogReaderStats;
  /**
   * Resolves when every consumer is on the shared tail (or retired) and has handled everything up to
   * `position`, the engines woken for it included (afterPage has run): with the log's head, the process has
   * caught up (lag 0)
   */
  reached(position: string, signal?: AbortSignal): Promise<void>;
};

type Slot = {
  consumer: LogConsumer;
  state: ConsumerStatus['state'];
  position: string;
  lastError?: string;
  delayMs: number;
  loop?: Promise<void>;
};

const silent: LogReaderLog = { info() {}, warn() {}, error() {} };
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The union of what the consumers need: no filter as soon as one of them wants everything. */
export function unionFilter(filters: AllFilter[]): AllFilter | undefined {
  if (filters.length === 0) return undefined;
  const categories = new Set<string>();
  const eventTypes = new Set<string>();
  let allCategories = false;
  let allTypes = false;
  for (const f of filters) {
    if (f.categories === undefined || f.categories.length === 0) allCategories = true;
    else for (const c of f.categories) categories.add(c);
    if (f.eventTypes === undefined || f.eventTypes.length === 0) allTypes = true;
    else for (const t of f.eventTypes) eventTypes.add(t);
  }
  if (allCategories && allTypes) return undefined;
  return {
    ...(!allCategories && { categories: [...categories].sort() }),
    ...(!allTypes && { eventTypes: [...eventTypes].sort() }),
  };
}

/**
 * The tail's event rate (events per second) over the last 100 to 200 ms: the events of the window being
 * filled and of the one before it, over their span.
 */
function eventRate() {
  const WINDOW_MS = 100;
  let start = performance.now();
  let current = 0;
  let previous = 0;
  return {
    /** counts a page's events; answers the rate */
    add(events: number): number {
      const now = performance.now();
      if (now - start >= 2 * WINDOW_MS) {
        previous = 0; // idle for a whole window
        current = 0;
        start = now;
      } else if (now - start >= WINDOW_MS) {
        previous = current;
        current = 0;
        start += WINDOW_MS;
      }
      current += events;
      return ((previous + current) * 1000) / (WINDOW_MS + Math.max(1, now - start));
    },
  };
}

/**
 * How long the tail waits after a page while the log is busy (LogReaderOptions.coalesceMs): under the hub's
 * send load, pages of about a hundred events (measured: 11–12 % less CPU per send than with 3 ms).
 */
export const DEFAULT_GATHER_MS = 25;

/** LogReaderOptions.settleMs as the platform runs it (LOG_SETTLE_MS) */
export const DEFAULT_SETTLE_MS = 3;

/**
 * The pause's slice: a log that did not move for this long has ended its burst. Under the hub benchmark's load
 * the log moves every millisecond or two; at the gathering threshold (1,000 events a second, a few per commit)
 * every few milliseconds.
 */
const GATHER_SLICE_MS = 5;

export function createLogReader(o: LogReaderOptions): LogReader {
  const { eventStore } = o;
  const pageSize = o.pageSize ?? 500;
  const catchUpPageSize = o.catchUpPageSize ?? 2000;
  const firstDelay = o.retryDelayMs ?? 250;
  const maxDelay = o.maxRetryDelayMs ?? 30_000;
  const log = o.log ?? silent;
  const coalesceMs = o.coalesceMs ?? DEFAULT_GATHER_MS;
  const coalesceAbove = o.coalesceAbove ?? 1000;
  const settleMs = o.settleMs ?? 0;
  const sliceMs = o.gatherSliceMs ?? GATHER_SLICE_MS;
  const names = new Set<string>();
  for (const c of o.consumers) {
    if (names.has(c.name)) throw new Error(`log reader: two consumers are named ${c.name}`);
    names.add(c.name);
  }
  const slots: Slot[] = o.consumers.map((consumer) => ({
    consumer,
    state: 'stopped',
    position: START,
    delayMs: firstDelay,
  }));
  const filter = unionFilter(o.consumers.map((c) => c.filter));
  const stats: LogReaderStats = { tailPages: 0, tailEvents: 0, catchUpPages: 0 };

  let abort: AbortController | undefined;
  let tailLoop: Promise<void> | undefined;
  /** position of the last page the shared loop took from the store (undefined until the tail has started) */
  let readUpTo: string | undefined;
  /** position of the last page the shared loop handed out whose consumers and afterPage are done */
  let handledUpTo: string | undefined;
  const progress = new Set<() => void>();
  const notify = () => {
    for (const f of [...progress]) f();
  };

  function fail(slot: Slot, err: unknown, signal: AbortSignal) {
    slot.state = 'retrying';
    slot.lastError = message(err);
    log.error(
      { consumer: slot.consumer.name, err: slot.lastError, retryInMs: slot.delayMs },
      'log consumer failed; restarting from its position',
    );
    const wait = slot.delayMs;
    slot.delayMs = Math.min(slot.delayMs * 2, maxDelay);
    slot.loop = abortableSleep(wait, signal).then(() => catchUp(slot, signal));
  }

  /** the consumer's own loop: start, read its own pages until it reaches the shared tail, join */
  async function catchUp(slot: Slot, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const { consumer } = slot;
    try {
      slot.state = 'catching-up';
      let position = await consumer.start();
      slot.position = position;
      for (;;) {
        if (signal.aborted) return;
        const head = await eventStore.headPosition();
        const events = await eventStore.readAll({ after: position, filter: consumer.filter, limit: catchUpPageSize });
        stats.catchUpPages += 1;
        const short = events.length < catchUpPageSize;
        const last = events[events.length - 1]?.position;
        // a short page holds every event of the filter up to the head seen before it was read
        const covered = short ? maxPosition(last ?? position, head) : last!;
        if (events.length > 0) {
          position = await consumer.handle({ events, position: covered });
          // a consumer catching up writes what the tail's wake came too early for (a projection's due items)
          o.afterPage?.({ events, position: covered });
        }
        position = maxPosition(position, covered);
        slot.position = position;
        if (short && readUpTo !== undefined && position >= readUpTo) {
          slot.state = 'joined';
          slot.delayMs = firstDelay;
          delete slot.lastError;
          notify();
          return;
        }
        if (short && readUpTo === undefined) await abortableSleep(5, signal); // the tail is starting
      }
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ConsumerRetired) {
        slot.state = 'retired';
        slot.lastError = err.message;
        log.warn({ consumer: consumer.name, reason: err.message }, 'log consumer retired in this process');
        notify();
        return;
      }
      fail(slot, err, signal);
    }
  }

  async function deliver(slot: Slot, page: LogPage, signal: AbortSignal): Promise<void> {
    try {
      slot.position = maxPosition(await slot.consumer.handle(page), page.position);
    } catch (err) {
      if (signal.aborted) return;
      fail(slot, err, signal);
    }
  }

  /** one page to the joined members of a batch at once; a member that failed leaves the tail alone */
  async function deliverBatch(
    batch: ConsumerBatch,
    members: Slot[],
    page: LogPage,
    signal: AbortSignal,
  ): Promise<void> {
    let results: Awaited<ReturnType<ConsumerBatch['handle']>>;
    try {
      results = await batch.handle(
        page,
        members.map((s) => s.consumer),
      );
    } catch (err) {
      results = members.map(() => ({ error: err }));
    }
    members.forEach((slot, i) => {
      const r = results[i];
      if (r !== undefined && 'position' in r) slot.position = maxPosition(r.position, page.position);
      else if (!signal.aborted) fail(slot, r?.error ?? new Error(`batch ${batch.name} gave no result`), signal);
    });
  }

  /**
   * The pause after a page under load: coalesceMs, in slices (gatherSliceMs) where the store can tell
   * cheaply whether the log moved (EventStore.changes). A slice in which it stood still ends the pause: the
   * burst is over, and the events it left are read now instead of up to coalesceMs later (without the
   * slices, the last sends of a burst wait out the workers' whole pause).
   */
  async function gatherPause(signal: AbortSignal): Promise<void> {
    const changes = eventStore.changes?.bind(eventStore);
    if (changes === undefined) return abortableSleep(coalesceMs, signal);
    const end = performance.now() + coalesceMs;
    let seen = changes();
    while (!signal.aborted) {
      const left = end - performance.now();
      if (left <= 0) return;
      await abortableSleep(Math.min(sliceMs, left), signal);
      const now = changes();
      if (now === seen) return;
      seen = now;
    }
  }

  async function tail(signal: AbortSignal): Promise<void> {
    let after = START;
    while (!signal.aborted) {
      try {
        if (readUpTo === undefined) {
          after = await eventStore.headPosition();
          readUpTo = after;
          handledUpTo = after;
          notify();
        }
        const rate = eventRate();
        let previousAt = performance.now();
        let lastEmptyAt = Number.NEGATIVE_INFINITY;
        for await (const page of eventStore.subscribePages({ after, ...(filter && { filter }), pageSize, signal })) {
          // a full page is a backlog: the next one is there already, nothing to gather; a page that brought
          // fewer events than the rate would over the time since the one before means the burst has ended
          const now = performance.now();
          const sincePrevious = (page.events.length * 1000) / Math.max(1, now - previousAt);
          previousAt = now;
          const gather =
            rate.add(page.events.length) >= coalesceAbove &&
            sincePrevious >= coalesceAbove &&
            page.events.length < pageSize;
          // A filtered reader (an API process's caches) is handed a page at every commit of a busy log, nearly
          // all of them empty (only a position to move past): two within a pause's slice (over ~200 a second)
          // pause too (measured: beside two hub workers, such pages cost an API process ~10 % of its CPU);
          // what its consumers want comes at most coalesceMs later, while the log is that busy.
          const empty = page.events.length === 0;
          const emptyRun = empty && now - lastEmptyAt < sliceMs;
          if (empty) lastEmptyAt = now;
          if (settleMs > 0 && !empty && page.events.length < pageSize) await abortableSleep(settleMs, signal);
          // who gets this page is fixed now, together with readUpTo: a consumer joining from here on has
          // covered this page itself
          readUpTo = page.position;
          after = page.position;
          stats.tailPages += 1;
          stats.tailEvents += page.events.length;
          const joined = slots.filter((s) => s.state === 'joined');
          const batches = new Map<ConsumerBatch, Slot[]>();
          const alone: Slot[] = [];
          for (const s of joined) {
            const batch = s.consumer.batch;
            if (batch === undefined) alone.push(s);
            else batches.set(batch, [...(batches.get(batch) ?? []), s]);
          }
          // The consumers that run alone (reactors, in-memory caches) first, the grouped read models after:
          // a reactor's appends (a routing, a delivery to schedule) should not wait for a page of read-model
          // writes. Work engines are woken once the group has committed: their items are projections' rows.
          await Promise.all(alone.map((s) => deliver(s, page, signal)));
          await Promise.all([...batches].map(([batch, members]) => deliverBatch(batch, members, page, signal)));
          o.afterPage?.(page);
          handledUpTo = page.position;
          notify();
          if ((gather || emptyRun) && coalesceMs > 0) await gatherPause(signal);
        }
      } catch (err) {
        if (signal.aborted) return;
        // the store is down: the consumers keep their positions; read again from the last page
        log.error({ err: message(err) }, 'log reader: reading the log failed; retrying');
        await abortableSleep(firstDelay, signal);
      }
    }
  }

  return {
    start() {
      if (abort) return;
      abort = new AbortController();
      const signal = abort.signal;
      readUpTo = undefined;
      handledUpTo = undefined;
      tailLoop = tail(signal);
      for (const slot of slots) slot.loop = catchUp(slot, signal);
    },
    async stop() {
      abort?.abort();
      notify();
      await tailLoop;
      // a consumer's loop may be re-armed by a failure while we wait: wait until none is running
      for (let pending = slots.map((s) => s.loop); pending.some((p) => p !== undefined); ) {
        await Promise.all(pending);
        const next = slots.map((s) => s.loop);
        pending = next.map((p, i) => (p === pending[i] ? undefined : p));
      }
      for (const s of slots) {
        s.state = 'stopped';
        delete s.loop;
      }
      abort = undefined;
      tailLoop = undefined;
    },
    status: () =>
      slots.map((s) => ({
        name: s.consumer.name,
        state: s.state,
        position: s.position,
        ...(s.lastError !== undefined && { lastError: s.lastError }),
      })),
    stats: () => ({ ...stats }),
    reached(position, signal) {
      const done = () =>
        handledUpTo !== undefined &&
        handledUpTo >= position &&
        slots.every((s) => s.state === 'joined' || s.state === 'retired');
      if (done()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (signal?.aborted) {
            progress.delete(check);
            reject(new Error('aborted'));
          } else if (done()) {
            progress.delete(check);
            resolve();
          }
        };
        progress.add(check);
        signal?.addEventListener('abort', check, { once: true });
      });
    },
  };
}
