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

export function createRebuilds(o: { eventStore: EventStore; readStore: ReadStore; clock: Clock }): Rebuilds {
  const { eventStore, readStore, clock } = o;
  const now = () => clock.now();
  const jobs = () => readStore.collection<RebuildJob>(REBUILDS);
  const running = new Map<string, Promise<void>>();
  let ensured: Promise<void> | undefined;
  const ensure = () =>
    (ensured ??= readStore
      .ensureCollection(REBUILDS, { indexes: [{ name: 'by_projection', fields: { projection: 1, startedAt: 1 } }] })
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
      error: interrupted ? 'interrupted: the process running it stopped' : (j.error ?? null),
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

  async function claim(projection: Projection): Promise<RebuildJob> {
    await ensure();
    return readStore.transaction(async (tx) => {
      const c = tx.collection<RebuildJob>(REBUILDS);
      for (const j of await c.find({ projection: projection.name, state: 'running' })) {
        if (!stale(j))
          throw opsError('REBUILD.RUNNING', `a rebuild of ${projection.name} is running`, { rebuild: j.id });
        await c.patch(j.id, {
          $set: { state: 'failed', error: 'interrupted: the process running it stopped', finishedAt: j.updatedAt },
        });
      }
      // finished rebuilds are kept a week: the latest of each projection is what the listing shows
      await c.deleteMany({
        projection: projection.name,
        finishedAt: { $lt: new Date(now().getTime() - KEEP_MS).toISOString() },
      });
      const at = now().toISOString();
      const job: RebuildJob = {
        id: randomUUID(),
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
    });
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
    const heartbeat = setInterval(() => write({}), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const r = await rebuildProjections({
        eventStore,
        readStore,
        projections: [projection],
        clock,
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
      const job = await claim(projection);
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
