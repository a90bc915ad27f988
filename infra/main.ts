import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Reactor, ReactorStatus } from '../commands/core/reactor.ts';
import { createApp } from '../http/core/app.ts';
import { createHttpMetrics } from '../http/core/metrics.ts';
import { startHttpServer } from '../http/core/server.ts';
import { createProjectionGroup } from '../projections/core/projection-group.ts';
import type { ProjectionStatus } from '../projections/core/projection-status.ts';
import { withBatchedAppends } from './core/batched-appends.ts';
import { type Clock, systemClock } from './core/clock.port.ts';
import type { Config } from './core/config.ts';
import { createEngineWaker } from './core/engine-waker.ts';
import type { LogConsumer } from './core/log-consumer.ts';
import { createLogReader, type LogReader } from './core/log-reader.ts';
import { isStoreUnavailable } from './core/store-errors.ts';
import type { SeedReport } from './identity/seed.ts';
import { type PlatformService, SERVICES, type ServiceDeps, type ServiceName } from './platform-service.ts';
import {
  projectionStatuses,
  type RunningParts,
  reactorStatuses,
  readiness,
  registerWorkerMetrics,
} from './platform-status.ts';
import { platformModules, platformProjections } from './services.ts';
import { openStores, type Stores } from './stores.ts';

export { SERVICES, type ServiceName } from './platform-service.ts';

export type StartOptions = {
  config: Config;
  log: Logger;
  services?: readonly ServiceName[];
  /** run projections, reactors, work engines and timers in this process (default true) */
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
  services: PlatformService[];
  /** the projections run here, with their status */
  runners: Array<{ name: string; status(): Promise<ProjectionStatus> }>;
  /** the reactors run here, with their status */
  workers: Array<{ name: string; status(): Promise<ReactorStatus> }>;
  /** the process's one log reader (undefined: nothing to read) */
  reader: LogReader | undefined;
  /** graceful: stop accepting, drain requests, finish the pages and items in hand, close stores */
  stop(): Promise<void>;
};

/**
 * The composition root: stores, services, the log reader, HTTP. It loops over the service list
 * (infra/services.ts): every process builds every service (identity's bearer middleware and in-memory
 * directory serve all routers), mounts the routers of the selected ones, seeds those, and where workers
 * run: one projection group, the reactors and the work engines of all services on one log reader.
 */
export async function startPlatform(o: StartOptions): Promise<RunningPlatform> {
  const { config, log } = o;
  const clock = o.clock ?? systemClock;
  const selected = new Set(o.services ?? SERVICES);
  const workers = o.workers ?? true;
  const stores = o.stores ?? (await openStores(config));
  // concurrent appends of the process share commits (group commit)
  const eventStore = withBatchedAppends(stores.eventStore);
  const { readStore } = stores;

  const registry = new Registry();
  const metrics = createHttpMetrics(registry);

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
    { port: config.port, host: config.host, appPrototypes: true },
  );

  const built: PlatformService[] = [];
  const stopSeeds: Array<() => void> = [];
  const timers: NodeJS.Timeout[] = [];
  let reader: LogReader | undefined;
  let identitySeed: SeedReport | null = null;
  let parts: RunningParts | undefined;

  const stopAll = async (timeoutMs: number) => {
    for (const stop of stopSeeds) stop();
    for (const t of timers) clearInterval(t);
    await Promise.allSettled(built.map((s) => s.close()));
    await server.close(timeoutMs);
    await reader?.stop();
    await Promise.allSettled(built.flatMap((s) => s.engines).map((e) => e.stop()));
    await Promise.allSettled(built.map((s) => s.dispose()));
  };

  const effective = withBoundPort(config, server.url);
  try {
    const deps: ServiceDeps = {
      config: effective,
      eventStore,
      readStore,
      clock,
      log,
      platform: { projections: platformProjections, parts: () => parts, modules: platformModules },
    };
    for (const module of platformModules()) {
      const service = await module.create(deps);
      built.push(service);
      if (service.identity !== undefined) deps.identity = service.identity;
    }

    for (const service of built.filter((s) => selected.has(s.name))) {
      try {
        const report = await service.seed();
        if (service.name === 'identity') identitySeed = (report as SeedReport | null) ?? null;
      } catch (err) {
        // a store that is down must not keep the process from starting (it recovers when the store returns)
        if (!isStoreUnavailable(err)) throw err;
        log.warn({ err, service: service.name }, 'seed deferred: a store is unavailable; retrying every 5 s');
        stopSeeds.push(
          retryInBackground(service.seed, 5000, (report) => {
            if (service.name === 'identity' && report) o.onIdentitySeed?.(report as SeedReport);
          }),
        );
      }
    }

    const projections = workers ? platformProjections() : [];
    const group = createProjectionGroup({
      eventStore,
      readStore,
      projections,
      clock,
      onParked: (projection, position, error) =>
        log.error(
          { projection, position, err: error instanceof Error ? error.message : String(error) },
          'event parked: the projection could not apply it',
        ),
    });
    const reactors: Reactor[] = workers ? built.flatMap((s) => s.reactors) : [];
    const engines = workers ? built.flatMap((s) => s.engines) : [];
    const consumers: LogConsumer[] = [
      ...built.flatMap((s) => s.caches),
      ...group.consumers,
      ...reactors.map((r) => r.consumer),
    ];
    if (consumers.length > 0) {
      reader = createLogReader({
        eventStore,
        consumers,
        log: log.child({ component: 'log-reader' }),
        coalesceMs: config.logGatherMs,
        settleMs: config.logSettleMs,
        afterPage: createEngineWaker(engines, consumers),
      });
      reader.start();
    }
    if (workers) {
      for (const e of engines) e.start();
      for (const timer of built.flatMap((s) => s.timers)) {
        const t = setInterval(() => {
          timer
            .run()
            .catch((err: unknown) =>
              log.warn({ timer: timer.name, err: err instanceof Error ? err.message : String(err) }, 'timer failed'),
            );
        }, timer.everyMs);
        t.unref();
        timers.push(t);
      }
    }

    parts = {
      eventStore,
      readStore,
      storeKinds: stores.kinds,
      reader,
      projections,
      rebuilding: () => [...group.rebuilding(), ...built.flatMap((s) => s.rebuilding?.() ?? [])],
      reactors,
      engines,
    };
    registerWorkerMetrics(registry, parts);
    const app = createApp({
      routers: built.filter((s) => selected.has(s.name)).map((s) => ({ service: s.name, router: s.router })),
      logger: log,
      metrics,
      readiness: () => readiness(parts!, config.readyMaxLag),
    });
    server.adopt(app);
    resolveApp(app);
  } catch (err) {
    rejectApp(err);
    await stopAll(0);
    if (o.stores === undefined) await stores.close();
    throw err;
  }

  const running = parts;
  return {
    url: server.url,
    publicBaseUrl: effective.publicBaseUrl,
    identitySeed,
    stores,
    services: built,
    runners: running.projections.map((p) => ({
      name: p.name,
      status: async () => (await projectionStatuses({ ...running, projections: [p] }))[0]!,
    })),
    workers: running.reactors.map((r) => ({
      name: r.name,
      status: async () => (await reactorStatuses({ ...running, reactors: [r] }))[0]!,
    })),
    reader,
    async stop() {
      await stopAll(config.shutdownTimeoutMs);
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
  const rebase = (u: string) =>
    u.startsWith(`${config.publicBaseUrl}/`) ? publicBaseUrl + u.slice(config.publicBaseUrl.length) : u;
  const seed = config.identity.seed;
  return {
    ...config,
    publicBaseUrl,
    identity: { ...config.identity, seed: { ...seed, redirectUri: rebase(seed.redirectUri) } },
  };
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
