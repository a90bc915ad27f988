import type { Logger } from 'pino';
import { Gauge, Registry } from 'prom-client';
import { createApp, emptyServiceRouter } from '../http/core/app.ts';
import { createHttpMetrics } from '../http/core/metrics.ts';
import { startHttpServer } from '../http/core/server.ts';
import { createProjectionRunner, type ProjectionRunner } from '../projections/core/projection-runner.ts';
import { systemClock, type Clock } from './core/clock.port.ts';
import type { Config } from './core/config.ts';
import { platformProjections } from './platform-projections.ts';
import { openStores, type Stores } from './stores.ts';

export const SERVICES = ['bridge', 'identity', 'audit', 'workflow', 'hub'] as const;
export type ServiceName = (typeof SERVICES)[number];

export type StartOptions = {
  config: Config;
  log: Logger;
  services?: readonly ServiceName[];
  /** run projectors and process managers in this process (default true) */
  workers?: boolean;
  clock?: Clock;
  /** for tests: stores opened by the caller */
  stores?: Stores;
};

export type RunningPlatform = {
  url: string;
  stores: Stores;
  runners: ProjectionRunner[];
  /** graceful: stop accepting, drain requests, finish the batch in hand, close stores */
  stop(): Promise<void>;
};

/** The composition root: stores, workers, HTTP. One process runs any subset of services and workers. */
export async function startPlatform(o: StartOptions): Promise<RunningPlatform> {
  const { config, log } = o;
  const clock = o.clock ?? systemClock;
  const services = o.services ?? SERVICES;
  const stores = o.stores ?? openStores(config);
  const { eventStore, readStore } = stores;

  const runners = (o.workers ?? true)
    ? platformProjections().map((projection) =>
        createProjectionRunner({ eventStore, readStore, projection, clock, log: log.child({ projection: projection.name }) }),
      )
    : [];
  for (const r of runners) r.start();

  const registry = new Registry();
  const metrics = createHttpMetrics(registry);
  new Gauge({
    name: 'projection_lag_positions',
    help: 'head of the event log minus the projection checkpoint (0 when nothing is pending)',
    labelNames: ['projection'],
    registers: [registry],
    async collect() {
      for (const r of runners) {
        try {
          this.set({ projection: r.name }, (await r.status()).lag);
        } catch {
          // store down: readiness reports it; the gauge keeps its last value
        }
      }
    },
  });

  const readiness = async () => {
    const checks: Array<{ name: string; ok: boolean; detail?: string; lag?: number }> = [];
    for (const [name, store] of [['eventStore', eventStore], ['readStore', readStore]] as const) {
      try {
        await store.ping();
        checks.push({ name, ok: true, detail: stores.kinds[name] });
      } catch (err) {
        checks.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const r of runners) {
      try {
        const s = await r.status();
        const ok = s.lag <= config.readyMaxLag && s.state !== 'retrying';
        checks.push({ name: `projection:${s.name}`, ok, lag: s.lag, detail: s.lastError ?? s.state });
      } catch (err) {
        checks.push({ name: `projection:${r.name}`, ok: false, detail: err instanceof Error ? err.message : String(err) });
      }
    }
    return { ok: checks.every((c) => c.ok), checks };
  };

  const app = createApp({
    routers: services.map((service) => ({ service, router: emptyServiceRouter() })),
    logger: log,
    metrics,
    readiness,
  });
  const server = await startHttpServer(app, { port: config.port, host: config.host });

  return {
    url: server.url,
    stores,
    runners,
    async stop() {
      await server.close(config.shutdownTimeoutMs);
      await Promise.all(runners.map((r) => r.stop()));
      await stores.close();
    },
  };
}
