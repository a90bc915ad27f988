import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore, LogPage } from '../../infra/core/event-store.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';
import type { ConfigCenter } from './bridge.contracts.ts';
import type { TenantProfile } from './delivery/delivery.params.ts';
import {
  createDeliveryProcess,
  type DeliveryStep,
  type FreshStart,
  type PublishedFacts,
} from './delivery/delivery.process.ts';
import type { TargetAdapter } from './delivery.contracts.ts';
import type { FreshDelivery, PreparedScheduling } from './delivery.scheduler.ts';

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
export type DeliveryDueItem = DueItem & {
  stream: string;
  ruleTarget?: string;
  ordered?: boolean;
  seq?: string;
  /** where the delivery was routed: an item written from its EventRouted, before (or without) its scheduling */
  publishedStream?: string;
};

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
  /**
   * A delivery routed just now, started in a free slot of this worker (once a slot comes free if none is; a
   * few may wait): its scheduling with the first attempt started, decided with no claim and no stream read
   * (delivery.process prepareFresh), for the caller to append (putEvent: in the acceptance's commit). The
   * slot makes the call once the scheduling is settled as appended. Undefined, or resolving undefined, when
   * this process runs no worker, too many wait (or one would, and `wait` is false), the worker stopped, the
   * deciding failed, or the target keeps
   * order (ErrorTolerance NONE: its deliveries go one at a time through the claims): the caller schedules it
   * alone, and a worker claims it.
   */
  startFresh(
    fresh: FreshDelivery,
    published: PublishedFacts,
    wait?: boolean,
  ): Promise<PreparedScheduling | undefined> | undefined;
  /** something may be due now (a fresh or redriven delivery): look at once */
  notify(stream?: string): void;
};

export const DELIVERY_WORKER_NAME = 'bridge.delivery-worker';

/** delivery events after which a delivery may be due now (a retry, a redrive, a resume, a block to record) */
const LEAVES_WORK = new Set(['DeliveryAttemptFailed', 'DeliveryBlocked', 'DeliveryRedriven', 'RuleTargetResumed']);

/**
 * Whether a page can have left a delivery due now: one scheduled without its first attempt (a fresh
 * delivery's attempt is in the same append, so in the same page), or one of LEAVES_WORK. Routings leave
 * items due only once a lost scheduling is suspected, long after: the poll finds those.
 */
export function pageLeavesDeliveries(page: LogPage): boolean {
  const started = new Set<string>();
  for (const e of page.events) {
    if (e.type === 'DeliveryAttemptStarted') started.add((e.data as { deliveryId: string }).deliveryId);
  }
  return page.events.some(
    (e) =>
      LEAVES_WORK.has(e.type) ||
      (e.type === 'DeliveryScheduled' && !started.has((e.data as { deliveryId: string }).deliveryId)),
  );
}

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
  const { advance, prepareFresh } = createDeliveryProcess({
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
    // one claim fills every free slot (one read-store commit for them all, their attempts group-committed)
    claimBatch: deps.concurrency ?? 1,
    // equal due times in log order: deliveries scheduled in the same millisecond (a burst, a resume) go as
    // they were scheduled
    sort: { dueAt: 1, seq: 1 },
    keyOf: (item) => (item.ordered === true ? item.ruleTarget : undefined),
    wantsPage: pageLeavesDeliveries,
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log && { log: deps.log }),
    async handle(item) {
      await advance(item.stream, item.publishedStream);
    },
  });
  return {
    ...engine,
    process: advance,
    notify: () => engine.wake(),
    startFresh(fresh, published, wait = true) {
      if (fresh.data.target?.errorTolerance === 'NONE') return undefined;
      // the prepared scheduling is handed over from the slot, which then waits for its append's answer
      let handOver!: (prepared: PreparedScheduling | undefined) => void;
      const handed = new Promise<PreparedScheduling | undefined>((resolve) => (handOver = resolve));
      const run = engine.tryRun(
        fresh.data.deliveryId,
        async () => {
          let start: FreshStart;
          try {
            start = await prepareFresh(fresh, published);
          } catch (err) {
            deps.log?.warn(
              { deliveryId: fresh.data.deliveryId, err: err instanceof Error ? err.message : String(err) },
              'a fresh delivery could not be started; it is scheduled alone',
            );
            return handOver(undefined);
          }
          let answered!: (answer: Parameters<PreparedScheduling['settle']>[0]) => void;
          const answer = new Promise<Parameters<PreparedScheduling['settle']>[0]>((resolve) => (answered = resolve));
          let created!: (yes: boolean) => void;
          const whether = new Promise<boolean>((resolve) => (created = resolve));
          handOver({
            stream: fresh.stream,
            deliveryId: fresh.data.deliveryId,
            request: start.request,
            settle(a) {
              answered(a);
              return whether;
            },
          });
          const a = await answer;
          created(a !== undefined && !isWrongExpectedRevision(a));
          await start.proceed(a);
        },
        { wait },
      );
      if (run === undefined) return undefined;
      // dropped from the queue (the worker stopped) before it ran: the caller schedules it
      void run.then(() => handOver(undefined));
      return handed;
    },
  };
}
