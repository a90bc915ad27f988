import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { Gauge, Registry } from 'prom-client';
import { createApp, emptyServiceRouter } from '../http/core/app.ts';
import { createHttpMetrics } from '../http/core/metrics.ts';
import { startHttpServer } from '../http/core/server.ts';
import type { Reactor } from '../commands/core/reactor.ts';
import { createProjectionRunner, type ProjectionRunner } from '../projections/core/projection-runner.ts';
import { createBridgeService } from './bridge/bridge.service.ts';
import { systemClock, type Clock } from './core/clock.port.ts';
import type { Config } from './core/config.ts';
import { createIdentityService } from './identity/identity.service.ts';
import type { SeedReport } from './identity/seed.ts';
import { isStoreUnavailable } from './core/store-errors.ts';
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
  /**
   * When a store is down at start, the identity seed is retried in the background: this receives its
   * report (to print once) when a retry creates something.
   */
  onIdentitySeed?: (report: SeedReport) => void;
};

export type RunningPlatform = {
  url: string;
  /** the public base URL (issuer) in effect: PUBLIC_BASE_URL, a port 0 in it replaced by the bound port */
  publicBaseUrl: string;
  /** what the identity seed created at this start (to print once), null when it created nothing */
  identitySeed: SeedReport | null;
  stores: Stores;
  runners: ProjectionRunner[];
  /** process managers running in this process (the bridge's router) */
  workers: Reactor[];
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
  // process managers (started once the services are built, below)
  const workers: Reactor[] = [];

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
    for (const w of workers) {
      try {
        const s = await w.status();
        const ok = s.lag <= config.readyMaxLag && s.state !== 'retrying';
        checks.push({ name: `worker:${s.name}`, ok, lag: s.lag, detail: s.lastError ?? s.state });
      } catch (err) {
        checks.push({ name: `worker:${w.name}`, ok: false, detail: err instanceof Error ? err.message : String(err) });
      }
    }
    return { ok: checks.every((c) => c.ok), checks };
  };

  // The server binds first: with port 0 the issuer (PUBLIC_BASE_URL) is only known once the port is. The
  // few requests that might arrive before the app is built wait for it.
  let resolveApp!: (app: RequestListener) => void;
  let rejectApp!: (err: unknown) => void;
  const appReady = new Promise<RequestListener>((resolve, reject) => {
    resolveApp = resolve;
    rejectApp = reject;
  });
  appReady.catch(() => undefined);
  const server = await startHttpServer(
    (req, res) => {
      appReady.then(
        (app) => app(req, res),
        () => {
          res.statusCode = 503;
          res.end();
        },
      );
    },
    { port: config.port, host: config.host },
  );

  let identitySeed: SeedReport | null = null;
  let stopSeedRetries = (): void => undefined;
  let stopBridgeSeedRetries = (): void => undefined;
  let closeBridge = async (): Promise<void> => undefined;
  let effective: Config;
  try {
    effective = withBoundPort(config, server.url);
    // Every service's router verifies tokens with the identity service's bearer middleware, so it is
    // built in every process; its router is mounted (and the store seeded) only where it is selected.
    const identity = createIdentityService({ config: effective, eventStore, readStore, clock, log });
    if (services.includes('identity')) {
      try {
        identitySeed = await identity.seed();
      } catch (err) {
        // a store that is down must not keep the process from starting (it recovers when the store returns)
        if (!isStoreUnavailable(err)) throw err;
        log.warn({ err }, 'identity seed deferred: a store is unavailable; retrying every 5 s');
        stopSeedRetries = retryInBackground(identity.seed, 5000, (report) => {
          if (report) o.onIdentitySeed?.(report);
        });
      }
    }
    // The bridge is built in every process too: its router worker runs wherever workers run.
    const bridge = createBridgeService({ config: effective, eventStore, readStore, clock, log, bearer: identity.bearer });
    closeBridge = bridge.close;
    if (services.includes('bridge')) {
      try {
        await bridge.seed();
      } catch (err) {
        if (!isStoreUnavailable(err)) throw err;
        log.warn({ err }, 'bridge seed deferred: a store is unavailable; retrying every 5 s');
        stopBridgeSeedRetries = retryInBackground(bridge.seed, 5000, () => undefined);
      }
    }
    if (o.workers ?? true) {
      workers.push(...bridge.workers);
      for (const w of bridge.workers) w.start();
    }
    const routerOf = (service: ServiceName) =>
      service === 'identity' ? identity.router : service === 'bridge' ? bridge.router : emptyServiceRouter();
    const app = createApp({
      routers: services.map((service) => ({ service, router: routerOf(service) })),
      logger: log,
      metrics,
      readiness,
    });
    resolveApp(app);
  } catch (err) {
    rejectApp(err);
    stopSeedRetries();
    stopBridgeSeedRetries();
    await server.close(0);
    await Promise.all([...runners, ...workers].map((r) => r.stop()));
    if (o.stores === undefined) await stores.close();
    throw err;
  }

  return {
    url: server.url,
    publicBaseUrl: effective.publicBaseUrl,
    identitySeed,
    stores,
    runners,
    workers,
    async stop() {
      stopSeedRetries();
      stopBridgeSeedRetries();
      await closeBridge();
      await server.close(config.shutdownTimeoutMs);
      await Promise.all([...runners, ...workers].map((r) => r.stop()));
      await stores.close();
    },
  };
}

/**
 * PUBLIC_BASE_URL with port 0 (the default when PORT=0) names "the port this process bound": replaced by
 * it, together with the default seed redirect URI derived from it.
 */
export function withBoundPort(config: Config, boundUrl: string): Config {
  const base = new URL(config.publicBaseUrl);
  if (base.port !== '0') return config;
  base.port = new URL(boundUrl).port;
  const publicBaseUrl = base.origin;
  const rebase = (u: string) => (u.startsWith(`${config.publicBaseUrl}/`) ? publicBaseUrl + u.slice(config.publicBaseUrl.length) : u);
  const seed = config.identity.seed;
  return { ...config, publicBaseUrl, identity: { ...config.identity, seed: { ...seed, redirectUri: rebase(seed.redirectUri) } } };
}

/** Runs `task` every `intervalMs` until it succeeds once (or the returned stop is called). */
function retryInBackground<T>(task: () => Promise<T>, intervalMs: number, onDone: (result: T) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = () => {
    timer = setTimeout(() => {
      task().then(
        (result) => {
          if (!stopped) onDone(result);
        },
        () => {
          if (!stopped) attempt();
        },
      );
    }, intervalMs);
    timer.unref();
  };
  attempt();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
