import { randomUUID } from 'node:crypto';
import { opsError } from '../../domain/operations/operations.errors.ts';
import { errorText } from '../../projections/core/parked-events.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { type RebuildProgress, rebuildProjections } from '../../projections/core/rebuild.ts';
import type { Clock } from '../core/clock.port.ts';
import type { EventStore } from '../core/event-store.port.ts';
import { positionValue, START } from '../core/position.ts';
import type { Doc, ReadStore } from '../core/read-store.port.ts';

/** The rebuilds started through the operations API, one document each, shared by every API process. */
export const REBUILDS = '_rebuilds';

const LOCKS = '_rebuild_locks';
type RebuildLock = Doc & { id: string; job: string; until: string };
const INTERRUPTED = 'interrupted: the process running it stopped';

export type RebuildState = 'running' | 'switched' | 'failed';

export type RebuildJob = Doc & {
  id: string;
  projection: string;
  state: RebuildState;
  startedAt: string;
  /** the running process writes it at least every HEARTBEAT_MS: a job that stops moving has lost its process */
  updatedAt: string;
  finishedAt?: string;
  position: string;
  head: string;
  events: number;
  generation?: number;
  error?: string;
};

export type RebuildView = {
  id: string;
  projection: string;
  state: RebuildState;
  startedAt: string;
  finishedAt: string | null;
  generation: number | null;
  error: string | null;
  progress: {
    /** log positions covered, of `total` (the log's head when the rebuild began) */
    done: number;
    total: number;
    percent: number;
    events: number;
    /** events per second since the start */
    rate: number;
    /** seconds left at the rate so far; null before the first page or once finished */
    etaSeconds: number | null;
  };
};

const HEARTBEAT_MS = 5_000;
/** a running job not written for this long was interrupted (its process stopped) */
export const STALE_MS = 60_000;
const KEEP_MS = 7 * 24 * 3600_000;

export type Rebuilds = {
  /** claims the projection (409 REBUILD.RUNNING when a rebuild of it runs) and starts its rebuild in the background */
  start(projection: Projection): Promise<RebuildView>;
  get(id: string): Promise<RebuildView>;
  /** the latest rebuild of each projection */
  latest(): Promise<Map<string, RebuildView>>;
  /** projections this process is rebuilding now */
  active(): string[];
  /** resolves once the rebuilds this process runs have ended (tests, shutdown) */
  settled(): Promise<void>;
};

export function createRebuilds(o: {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  pageSize?: number;
}): Rebuilds {
  const { eventStore, readStore, clock } = o;
  const now = () => clock.now();
  const jobs = () => readStore.collection<RebuildJob>(REBUILDS);
  const running = new Map<string, Promise<void>>();
  let claiming: Promise<void> = Promise.resolve();
  let ensured: Promise<void> | undefined;
  const ensure = () =>
    (ensured ??= Promise.all([
      readStore.ensureCollection(REBUILDS, {
        indexes: [{ name: 'by_projection', fields: { projection: 1, startedAt: 1 } }],
      }),
      readStore.ensureCollection(LOCKS),
    ])
      .then(() => undefined)
      .catch((err: unknown) => {
        ensured = undefined;
        throw err;
      }));

  const stale = (j: RebuildJob) => j.state === 'running' && now().getTime() - Date.parse(j.updatedAt) > STALE_MS;

  const view = (j: RebuildJob): RebuildView => {
    const interrupted = stale(j);
    const state = interrupted ? 'failed' : j.state;
    const total = positionValue(j.head);
    const done = j.state === 'switched' ? total : Math.min(positionValue(j.position), total);
    const seconds = Math.max(
      ((j.finishedAt ? Date.parse(j.finishedAt) : now().getTime()) - Date.parse(j.startedAt)) / 1000,
      0.001,
    );
    const perSecond = done / seconds;
    return {
      id: j.id,
      projection: j.projection,
      state,
      startedAt: j.startedAt,
      finishedAt: j.finishedAt ?? null,
      generation: j.generation ?? null,
      error: interrupted ? INTERRUPTED : (j.error ?? null),
      progress: {
        done,
        total,
        percent: total === 0 ? (state === 'switched' ? 100 : 0) : Math.floor((done / total) * 100),
        events: j.events,
        rate: Math.round(j.events / seconds),
        etaSeconds: state !== 'running' || done === 0 ? null : Math.ceil((total - done) / perSecond),
      },
    };
  };

  /**
   * One lock document per projection, taken by an atomic compare-and-set (processes serving the API share
   * the read store): free when its `until` has passed, which a running rebuild keeps pushing forward.
   */
  const locks = () => readStore.collection<RebuildLock>(LOCKS);
  const untilFromNow = () => new Date(now().getTime() + STALE_MS).toISOString();

  async function claim(projection: Projection): Promise<RebuildJob> {
    await ensure();
    // created in a transaction: a check and an upsert alone could replace a lock another process has just taken
    await readStore.transaction(async (tx) => {
      const c = tx.collection<RebuildLock>(LOCKS);
      if ((await c.get(projection.name)) === null) await c.upsert({ id: projection.name, job: '', until: '' });
    });
    const id = randomUUID();
    const taken = await locks().findOneAndUpdate(
      { id: projection.name, until: { $lt: now().toISOString() } },
      { $set: { job: id, until: untilFromNow() } },
    );
    if (taken === null) {
      const holder = await locks().get(projection.name);
      throw opsError('REBUILD.RUNNING', `a rebuild of ${projection.name} is running`, { rebuild: holder?.job ?? null });
    }
    const c = jobs();
    // a job whose process stopped before it finished: its lock has run out, it is over
    for (const j of await c.find({ projection: projection.name, state: 'running' }))
      await c.patch(j.id, { $set: { state: 'failed', error: INTERRUPTED, finishedAt: j.updatedAt } });
    // finished rebuilds are kept a week: the latest of each projection is what the listing shows
    await c.deleteMany({
      projection: projection.name,
      finishedAt: { $lt: new Date(now().getTime() - KEEP_MS).toISOString() },
    });
    const at = now().toISOString();
    const job: RebuildJob = {
      id,
      projection: projection.name,
      state: 'running',
      startedAt: at,
      updatedAt: at,
      position: START,
      head: await eventStore.headPosition(),
      events: 0,
    };
    await c.upsert(job);
    return job;
  }

  async function run(job: RebuildJob, projection: Projection): Promise<void> {
    // progress is written in order, one write at a time, without holding the rebuild back
    let writes = Promise.resolve();
    const write = (set: Partial<RebuildJob>) => {
      writes = writes
        .then(() => jobs().patch(job.id, { $set: { ...set, updatedAt: now().toISOString() } }))
        .then(
          () => undefined,
          () => undefined,
        );
    };
    const heartbeat = setInterval(() => {
      write({});
      void locks()
        .patch(projection.name, { $set: { until: untilFromNow() } })
        .catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const r = await rebuildProjections({
        eventStore: yieldingReads(eventStore),
        readStore,
        projections: [projection],
        clock,
        ...(o.pageSize !== undefined && { pageSize: o.pageSize }),
        onProgress: (p: RebuildProgress) => write({ position: p.position, head: p.head, events: p.events }),
      });
      write({
        state: 'switched',
        generation: r.generations[projection.name]!,
        finishedAt: now().toISOString(),
      });
    } catch (err) {
      write({ state: 'failed', error: errorText(err), finishedAt: now().toISOString() });
    } finally {
      clearInterval(heartbeat);
      await writes;
      await locks()
        .findOneAndUpdate({ id: projection.name, job: job.id }, { $set: { until: '' } })
        .catch(() => undefined);
    }
  }

  async function get(id: string): Promise<RebuildView> {
    await ensure();
    const j = await jobs().get(id);
    if (j === null) throw opsError('REBUILD.NOT_FOUND', `no rebuild ${id}`);
    return view(j);
  }

  return {
    async start(projection) {
      // claims of this process one after the other: a lock document's first creation cannot race here
      const claimed = claiming.then(() => claim(projection));
      claiming = claimed.then(
        () => undefined,
        () => undefined,
      );
      const job = await claimed;
      const done = run(job, projection).finally(() => running.delete(projection.name));
      running.set(projection.name, done);
      return view(job);
    },
    get,
    async latest() {
      await ensure();
      const out = new Map<string, RebuildView>();
      for (const j of await jobs().find({}, { sort: { startedAt: 1 } })) out.set(j.projection, view(j));
      return out;
    },
    active: () => [...running.keys()],
    async settled() {
      await Promise.allSettled([...running.values()]);
    },
  };
}

/**
 * The event store with a turn of the event loop before each page read: the embedded stores answer
 * synchronously, so a rebuild would otherwise hold the process's HTTP server (and its live read models)
 * until its last page. Between pages, requests are served.
 */
function yieldingReads(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'readAll')
        return async (...args: Parameters<EventStore['readAll']>) => {
          await new Promise((resolve) => setImmediate(resolve));
          return target.readAll(...args);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
