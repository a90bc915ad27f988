import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';
import type { ConfigCenter } from './bridge.contracts.ts';
import type { TenantProfile } from './delivery/delivery.params.ts';
import { createDeliveryProcess, type DeliveryStep } from './delivery/delivery.process.ts';
import type { TargetAdapter } from './delivery.contracts.ts';

export type { TenantProfile } from './delivery/delivery.params.ts';
export type { DeliveryStep } from './delivery/delivery.process.ts';

/**
 * The delivery worker on the core's work engine: the due items of the
 * bridge.deliveries read model, claimed with leases (several processes never run the same delivery at
 * once), `concurrency` in flight; the deliveries of a rule target with ErrorTolerance NONE (`ordered`) run
 * one at a time, in the order they were claimed (due order, then log order `seq`): with the tolerance
 * prohibited the target is a strict pipeline, and a resume delivers what waited in order. What one
 * delivery's step is, its stream decides (delivery/delivery.process.ts).
 */
export type DeliveryDueItem = DueItem & { stream: string; ruleTarget?: string; ordered?: boolean; seq?: string };

export type DeliveryWorkerDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** the live `due` collection of bridge.deliveries (projections/core liveCollection) */
  items: () => Promise<Collection<DeliveryDueItem>>;
  /** the target adapters, by TypeId */
  adapters: ReadonlyArray<TargetAdapter> | ((typeId: number) => TargetAdapter | undefined);
  configCenter: ConfigCenter;
  /** the identity directory's tenant record (`getTenant(code)`): TENANT_PROFILE parameters read it */
  tenantProfile(tenant: string): Promise<TenantProfile | null | undefined>;
  /** the publishing caller's token, while the delivery runs (Bearer connections that forward it); never recorded */
  callerToken?(ref: string, tenant: string): Promise<string | undefined>;
  /** per call (spec Limits: 5 s) */
  timeoutMs?: number;
  /** lease on a claimed due item; an attempt without outcome older than this counts as uncertain (> timeoutMs) */
  leaseMs?: number;
  /** how often an idle engine looks for due items (wake() makes it look at once) */
  pollMs?: number;
  /** deliveries in flight at once in this process */
  concurrency?: number;
  owner?: string;
  /** in [0, 1): the backoff's random part */
  random?: () => number;
  log?: WorkEngineLog & { warn(obj: object, msg: string): void };
};

export type DeliveryWorker = WorkEngine & {
  /** what is due now for one delivery (the stream's state decides) */
  process(stream: string): Promise<DeliveryStep>;
  /** something may be due now (a fresh or redriven delivery): look at once */
  notify(stream?: string): void;
};

export const DELIVERY_WORKER_NAME = 'bridge.delivery-worker';

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const timeoutMs = deps.timeoutMs ?? 5000;
  const leaseMs = Math.max(deps.leaseMs ?? 30_000, timeoutMs + 1000);
  const adapterFor =
    typeof deps.adapters === 'function'
      ? deps.adapters
      : (
          (list: ReadonlyArray<TargetAdapter>) => (typeId: number) =>
            list.find((a) => a.typeId === typeId)
        )(deps.adapters);
  const { advance } = createDeliveryProcess({
    eventStore: deps.eventStore,
    clock: deps.clock,
    configCenter: deps.configCenter,
    tenantProfile: deps.tenantProfile,
    adapterFor,
    ...(deps.callerToken && { callerToken: deps.callerToken }),
    timeoutMs,
    leaseMs,
    random: deps.random ?? Math.random,
    ...(deps.log && { log: deps.log }),
  });
  const engine = createWorkEngine<DeliveryDueItem>({
    name: DELIVERY_WORKER_NAME,
    items: deps.items,
    clock: deps.clock,
    leaseMs,
    ...(deps.pollMs !== undefined && { pollMs: deps.pollMs }),
    concurrency: deps.concurrency ?? 1,
    // equal due times in log order: deliveries scheduled in the same millisecond (a burst, a resume) go as
    // they were scheduled
    sort: { dueAt: 1, seq: 1 },
    keyOf: (item) => (item.ordered === true ? item.ruleTarget : undefined),
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log && { log: deps.log }),
    async handle(item) {
      await advance(item.stream);
    },
  });
  return { ...engine, process: advance, notify: () => engine.wake() };
}
