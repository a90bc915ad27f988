import type {
  EngineView,
  OperationsBackend,
  ProjectionView,
  ReadinessView,
} from '../../http/operations/operations.ports.ts';
import { createOperationsRouter } from '../../http/operations/operations.router.ts';
import { ensureParkedCollection, parkedEvents, retryParked } from '../../projections/core/parked-events.ts';
import type { Projection } from '../../projections/core/projection.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';
import { engineStatuses, projectionStatuses, type RunningParts, readiness } from '../platform-status.ts';
import { loadOperationsConfig, type OperationsConfig, operatorTenantsOf } from './operations.config.ts';
import { createRebuilds } from './rebuilds.ts';
import { createTimelineBackend } from './timeline.backend.ts';

/**
 * The operations API's composition: the figures `platform projections` and /health/ready give, read from
 * the process's running parts (its log reader's consumers, its engines), the parked events and their
 * retry, and rebuilds started in the background of this process (rebuilds.ts). A process without workers
 * lists every projection all the same (state `stopped`): their checkpoints are in the shared read store.
 */
export type OperationsServiceDeps = ServiceDeps & { operationsConfig?: OperationsConfig };

export function createOperationsService(deps: OperationsServiceDeps): PlatformService {
  const { eventStore, readStore, clock, config } = deps;
  if (deps.identity === undefined) throw new Error('the operations service is built after the identity service');
  if (deps.platform === undefined) throw new Error('the operations service needs the platform facade');
  const platform = deps.platform;
  const settings = deps.operationsConfig ?? loadOperationsConfig();
  const rebuilds = createRebuilds({ eventStore, readStore, clock, pageSize: settings.rebuildPageSize });

  const all = (): Projection[] => platform.projections();
  const byName = (name: string) => all().find((p) => p.name === name)!;
  /** the running parts, with every projection of the platform and this API's rebuilds as rebuilding */
  const parts = (): RunningParts => {
    const running = platform.parts();
    return {
      eventStore,
      readStore,
      storeKinds: running?.storeKinds ?? { eventStore: 'unknown', readStore: 'unknown' },
      reader: running?.reader,
      projections: all(),
      rebuilding: () => [...new Set([...(running?.rebuilding() ?? []), ...rebuilds.active()])],
      reactors: running?.reactors ?? [],
      engines: running?.engines ?? [],
    };
  };

  const backend: OperationsBackend = {
    names: () => all().map((p) => p.name),
    async projections() {
      const [statuses, latest] = await Promise.all([projectionStatuses(parts()), rebuilds.latest()]);
      return statuses.map((s): ProjectionView => {
        const r = latest.get(s.name);
        return {
          name: s.name,
          version: s.version,
          generation: s.generation,
          position: s.position,
          head: s.head,
          lag: s.lag,
          parked: s.parked ?? 0,
          state: s.state,
          lastError: s.lastError ?? null,
          rebuild: r === undefined ? null : { id: r.id, state: r.state },
        };
      });
    },
    async parked(name, page) {
      await ensureParkedCollection(readStore);
      const c = parkedEvents(readStore);
      const [items, total] = await Promise.all([
        c.find({ projection: name }, { sort: { position: 1 }, skip: page.offset, limit: page.limit }),
        c.count({ projection: name }),
      ]);
      return {
        total,
        items: items.map((p) => ({
          id: p.id,
          position: p.position,
          eventId: p.eventId,
          stream: p.stream,
          revision: p.revision,
          type: p.type,
          error: p.error,
          parkedAt: p.parkedAt,
          retries: p.retries,
        })),
      };
    },
    retry: (name) =>
      retryParked({ eventStore, readStore, projection: byName(name), now: () => clock.now().toISOString() }),
    startRebuild: (name) => rebuilds.start(byName(name)),
    rebuild: (id) => rebuilds.get(id),
    async readiness(): Promise<ReadinessView> {
      const p = parts();
      const [report, engines] = await Promise.all([readiness(p, config.readyMaxLag), engineStatuses(p)]);
      return {
        ok: report.ok,
        workers: (platform.parts()?.projections.length ?? 0) > 0,
        checks: report.checks.map((c) => {
          const extra = c as typeof c & { parked?: number; backlog?: number };
          return {
            name: c.name,
            ok: c.ok,
            detail: c.detail ?? null,
            lag: c.lag ?? null,
            parked: extra.parked ?? null,
            backlog: extra.backlog ?? null,
          };
        }),
        engines: engines.map(
          (e): EngineView => ({
            name: e.name,
            state: e.state,
            due: e.backlog,
            leased: e.leased ?? null,
            inFlight: e.inFlight,
            lastError: e.lastError ?? null,
          }),
        ),
      };
    },
  };

  const http = createOperationsRouter({
    timeline: createTimelineBackend({ eventStore, modules: platform.modules() }),
    backend,
    bearer: deps.identity.bearer,
    operatorTenants: operatorTenantsOf(settings, config.identity.seed.tenant),
  });

  return {
    name: 'operations',
    router: http.router,
    registry: http.registry,
    reactors: [],
    engines: [],
    caches: [],
    timers: [],
    rebuilding: rebuilds.active,
    seed: async () => undefined,
    close: async () => undefined,
    // a rebuild in hand is not waited for: its job stops moving and reads as interrupted (rebuilds.ts)
    dispose: async () => undefined,
  };
}
