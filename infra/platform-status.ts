import { Gauge, type Registry } from 'prom-client';
import type { Reactor, ReactorStatus } from '../commands/core/reactor.ts';
import type { WorkEngine, WorkEngineStatus } from '../commands/core/work-engine.ts';
import type { ReadinessCheck, ReadinessReport } from '../http/core/health.ts';
import { listParked } from '../projections/core/parked-events.ts';
import type { Projection } from '../projections/core/projection.ts';
import { type ProjectionStatus, projectionState, projectionStatus } from '../projections/core/projection-status.ts';
import type { EventStore } from './core/event-store.port.ts';
import { consumerLag } from './core/lag.ts';
import type { LogReader } from './core/log-reader.ts';
import type { ReadStore } from './core/read-store.port.ts';

/**
 * What a process runs, and how each part is doing: the one place /health/ready, /metrics and the CLI read
 * projection, reactor and engine states from.
 */
export type RunningParts = {
  eventStore: EventStore;
  readStore: ReadStore;
  storeKinds: { eventStore: string; readStore: string };
  reader: LogReader | undefined;
  projections: Projection[];
  /** projections this process is rebuilding now */
  rebuilding(): string[];
  reactors: Reactor[];
  engines: WorkEngine[];
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function projectionStatuses(parts: RunningParts): Promise<ProjectionStatus[]> {
  const consumers = new Map((parts.reader?.status() ?? []).map((s) => [s.name, s]));
  const rebuilding = new Set(parts.rebuilding());
  const parked = new Map<string, number>();
  for (const p of await listParked(parts.readStore)) parked.set(p.projection, (parked.get(p.projection) ?? 0) + 1);
  const out: ProjectionStatus[] = [];
  for (const projection of parts.projections) {
    const c = consumers.get(projection.name);
    const s = await projectionStatus(
      parts.eventStore,
      parts.readStore,
      projection,
      projectionState(c, rebuilding.has(projection.name)),
      c?.lastError,
    );
    out.push({ ...s, parked: parked.get(projection.name) ?? 0 });
  }
  return out;
}

export async function reactorStatuses(parts: RunningParts): Promise<ReactorStatus[]> {
  const consumers = new Map((parts.reader?.status() ?? []).map((s) => [s.name, s]));
  const out: ReactorStatus[] = [];
  for (const r of parts.reactors) {
    const c = consumers.get(r.name);
    const position = c?.position ?? (await r.status()).position;
    const { head, lag } = await consumerLag(parts.eventStore, position, r.consumer.filter);
    const state =
      c === undefined || c.state === 'stopped' || c.state === 'retired'
        ? 'stopped'
        : c.state === 'retrying'
          ? 'retrying'
          : 'running';
    out.push({
      name: r.name,
      position,
      head,
      lag,
      state,
      ...(c?.lastError !== undefined && { lastError: c.lastError }),
    });
  }
  return out;
}

export const engineStatuses = (parts: RunningParts): Promise<WorkEngineStatus[]> =>
  Promise.all(parts.engines.map((e) => e.status()));

/**
 * Ready: both stores answer, no projection or reactor lags more than `maxLag` or is retrying, no engine is
 * retrying or has a backlog above `maxLag`. Parked events are reported (the projection still moves on, so
 * they do not take the process out of service): a check `parked:<projection>` names how many.
 */
export async function readiness(parts: RunningParts, maxLag: number): Promise<ReadinessReport> {
  const checks: Array<ReadinessCheck & { parked?: number; backlog?: number }> = [];
  for (const [name, store] of [
    ['eventStore', parts.eventStore],
    ['readStore', parts.readStore],
  ] as const) {
    try {
      await store.ping();
      checks.push({ name, ok: true, detail: parts.storeKinds[name] });
    } catch (err) {
      checks.push({ name, ok: false, detail: message(err) });
    }
  }
  try {
    for (const s of await projectionStatuses(parts)) {
      checks.push({
        name: `projection:${s.name}`,
        ok: s.lag <= maxLag && s.state !== 'retrying',
        lag: s.lag,
        detail: s.lastError ?? s.state,
      });
      if ((s.parked ?? 0) > 0)
        checks.push({
          name: `parked:${s.name}`,
          ok: true,
          parked: s.parked!,
          detail: `${s.parked} parked event(s): platform projections retry ${s.name}`,
        });
    }
    for (const s of await reactorStatuses(parts)) {
      checks.push({
        name: `worker:${s.name}`,
        ok: s.lag <= maxLag && s.state !== 'retrying',
        lag: s.lag,
        detail: s.lastError ?? s.state,
      });
    }
    for (const s of await engineStatuses(parts)) {
      checks.push({
        name: `worker:${s.name}`,
        ok: s.backlog <= maxLag && s.state !== 'retrying',
        backlog: s.backlog,
        detail: s.lastError ?? s.state,
      });
    }
  } catch (err) {
    checks.push({ name: 'workers', ok: false, detail: message(err) });
  }
  return { ok: checks.every((c) => c.ok), checks };
}

/** Projection lag, parked events, reactor lag, engine backlog and the log reader's page counts on /metrics. */
export function registerWorkerMetrics(registry: Registry, parts: RunningParts): void {
  const safely = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch {
      // store down: readiness reports it; the gauges keep their last values
    }
  };
  new Gauge({
    name: 'projection_lag_positions',
    help: 'head of the event log minus the projection checkpoint (0 when nothing is pending)',
    labelNames: ['projection'],
    registers: [registry],
    async collect() {
      await safely(async () => {
        for (const s of await projectionStatuses(parts)) this.set({ projection: s.name }, s.lag);
      });
    },
  });
  new Gauge({
    name: 'projection_parked_events',
    help: 'events a projection could not apply and parked (platform projections retry <name>)',
    labelNames: ['projection'],
    registers: [registry],
    async collect() {
      await safely(async () => {
        for (const s of await projectionStatuses(parts)) this.set({ projection: s.name }, s.parked ?? 0);
      });
    },
  });
  new Gauge({
    name: 'worker_lag_positions',
    help: 'head of the event log minus a reactor checkpoint (0 when nothing is pending)',
    labelNames: ['worker'],
    registers: [registry],
    async collect() {
      await safely(async () => {
        for (const s of await reactorStatuses(parts)) this.set({ worker: s.name }, s.lag);
      });
    },
  });
  new Gauge({
    name: 'work_backlog_items',
    help: 'due items of a work engine that are due now and not leased',
    labelNames: ['engine'],
    registers: [registry],
    async collect() {
      await safely(async () => {
        for (const s of await engineStatuses(parts)) this.set({ engine: s.name }, s.backlog);
      });
    },
  });
  new Gauge({
    name: 'log_reader_pages',
    help: 'pages of the event log this process read: the shared tail (one read per page for every consumer) and catch-up reads',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const stats = parts.reader?.stats();
      if (stats === undefined) return;
      this.set({ kind: 'tail' }, stats.tailPages);
      this.set({ kind: 'catch-up' }, stats.catchUpPages);
    },
  });
}
