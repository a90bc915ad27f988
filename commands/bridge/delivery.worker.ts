import { randomUUID } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { EventEnvelope, EventMetadata, RecordedEvent } from '../../domain/core/event.ts';
import { renderParam } from '../../domain/bridge/conversion/index.ts';
import {
  deliveryDecider,
  type DeliveryCommand,
  type DeliveryEvent,
  type DeliveryState,
  type LiveDelivery,
} from '../../domain/bridge/delivery.decider.ts';
import { PLATFORM_TENANT, type BridgeEvent } from '../../domain/bridge/model.ts';
import type { EventAcceptedData } from '../../domain/bridge/published-event.decider.ts';
import { blockStanding, type RuleTargetRef } from '../../domain/bridge/rule-target-state.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import type { DueItem } from '../core/due-work.ts';
import { eventIdFor } from '../core/event-id.ts';
import type { Reactor, ReactorLog, ReactorStatus } from '../core/reactor.ts';
import type { ConfigCenter } from './contracts.ts';
import type { DeliveryOutcome, DeliveryRequest, ResolvedParams, TargetAdapter } from './delivery-contracts.ts';
import { createRuleTargetCommands } from './rule-target-state.ts';

/**
 * The delivery worker (issue 5): runs the deliveries that are due, one attempt at a time per delivery.
 *
 * For a delivery (its stream is the truth; due items only say where to look):
 * - pending and due, its rule target not blocked: read the raw event (the published stream), resolve the
 *   target's params (renderParam; ENV_PARAM from the configuration center of the event's tenant, then the
 *   platform's for a platform rule; TENANT_PROFILE from the tenant's profile, e.g. its support mail
 *   group), append DeliveryAttemptStarted with the expected revision (a second worker loses here and
 *   calls nothing), call the TargetAdapter with an AbortSignal that fires after `timeoutMs` (5 s), append
 *   the outcome. A failure schedules the next attempt by the target's retry strategy, or applies the
 *   tolerance rule in the same append: ALL → dead letter (DeadLetterRecord) or discard; NONE → the
 *   delivery is blocked and then its rule target (RuleTargetBlocked), so the target's other deliveries wait.
 *   A param that cannot be resolved, or a TypeId without adapter, is a failed attempt without a call, not
 *   retried (retrying cannot help; a redrive after fixing the configuration can).
 * - in flight for longer than `leaseMs` (the call and its timeout are long over): the process stopped
 *   during the call. Recorded as an uncertain failure, then attempted again (at-least-once; the same
 *   delivery id, a new attempt id). Younger ones are left alone: a worker is still on them.
 * - retries over but no tolerance decision recorded (an append lost to a crash): applied now.
 * - blocked: released by a resume → redriven (a new round) and attempted; not yet recorded on its rule
 *   target (a crash between the two appends) → recorded now; else it waits.
 *
 * Work comes from the due items (`items`: the bridge.deliveries read model's live `due` collection),
 * claimed with a lease (as commands/core/due-work.ts claimDueItem does) so workers on several processes never run
 * the same item at once, and from `notify(stream)` (the scheduler of this process: a fresh delivery is tried
 * at once, without waiting for the read model and its poll). Both paths meet at the stream's expected
 * revision. `concurrency` loops run side by side. The deliveries of a rule target with ErrorTolerance NONE
 * (`ordered`) run one at a time in this process, in the order they were claimed (due order): with the
 * tolerance prohibited the target is a strict pipeline, and a resume delivers what waited in order.
 */
export type DeliveryDueItem = DueItem & { stream: string; ruleTarget?: string; ordered?: boolean; seq?: string };
/** what a loop knows about a delivery before it reads the stream */
type WorkItem = { stream: string; ruleTarget?: string | undefined; ordered?: boolean | undefined };

export type TenantProfile = { supportMailGroup?: string | undefined } & Record<string, unknown>;

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
  callerToken?(eventKey: string, tenant: string): Promise<string | undefined>;
  /** per call (spec Limits: 5 s) */
  timeoutMs?: number;
  /** lease on a claimed due item; an attempt without outcome older than this counts as uncertain (> timeoutMs) */
  leaseMs?: number;
  /** how often an idle loop looks for due items */
  pollMs?: number;
  /** loops running side by side */
  concurrency?: number;
  owner?: string;
  /** in [0, 1): the backoff's random part */
  random?: () => number;
  log?: ReactorLog;
};

export type DeliveryStep =
  | 'succeeded'
  | 'retry-scheduled'
  | 'dead-lettered'
  | 'discarded'
  | 'blocked'
  | 'not-due'
  | 'waiting'
  | 'in-flight'
  | 'finished'
  | 'raced'
  | 'missing';

export type DeliveryWorker = Reactor & {
  /** what is due now for one delivery (the stream's state decides) */
  process(stream: string): Promise<DeliveryStep>;
  /** claims and runs every due item once (sequentially, in due order); answers how many it claimed */
  runDue(): Promise<number>;
  /** a fresh delivery: try it at once (`ordered`: ErrorTolerance NONE, see the worker's comment) */
  notify(stream: string, o?: { ruleTarget: string; ordered: boolean }): void;
};

export const DELIVERY_WORKER_NAME = 'bridge.delivery-worker';
const MAX_QUEUE = 10_000;
const MAX_ERROR = 2000;

type Loaded = { state: DeliveryState; revision: number; first?: RecordedEvent };

const silent: ReactorLog = { info() {}, warn() {}, error() {} };
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const clip = (s: string) => (s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR)}…` : s);

class Raced extends Error {}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { eventStore, clock, configCenter } = deps;
  const timeoutMs = deps.timeoutMs ?? 5000;
  const leaseMs = Math.max(deps.leaseMs ?? 30_000, timeoutMs + 1000);
  const pollMs = deps.pollMs ?? 500;
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  const owner = deps.owner ?? `delivery-${process.pid}-${randomUUID().slice(0, 8)}`;
  const random = deps.random ?? Math.random;
  const log = deps.log ?? silent;
  const ruleTargets = createRuleTargetCommands({ eventStore, clock });
  const adapterFor =
    typeof deps.adapters === 'function'
      ? deps.adapters
      : ((list: ReadonlyArray<TargetAdapter>) => (typeId: number) => list.find((a) => a.typeId === typeId))(deps.adapters);
  const now = () => clock.now().toISOString();

  // ---- the stream ----

  async function load(stream: string): Promise<Loaded> {
    const events = await eventStore.readStream(stream);
    return {
      state: fold(deliveryDecider, events as unknown as DeliveryEvent[]),
      revision: events.length - 1,
      ...(events[0] !== undefined && { first: events[0] }),
    };
  }

  /** decides and appends with the expected revision; Raced when another worker wrote first */
  async function apply(stream: string, loaded: Loaded, commands: DeliveryCommand[], commandId: string): Promise<Loaded> {
    let state = loaded.state;
    const decided: DeliveryEvent[] = [];
    for (const command of commands) {
      for (const e of deliveryDecider.decide(command, state)) {
        decided.push(e);
        state = deliveryDecider.evolve(state, e);
      }
    }
    if (decided.length === 0) return loaded;
    const first = loaded.first?.metadata;
    const metadata: EventMetadata = {
      tenant: first?.tenant ?? (state.status !== 'none' ? state.scheduled.tenant : 'unknown'),
      actor: 'system:bridge-delivery',
      ...(first?.correlationId !== undefined && { correlationId: first.correlationId }),
      ...(loaded.first !== undefined && { causationId: loaded.first.id }),
      commandId,
      occurredAt: now(),
      schemaVersion: 1,
    };
    const envelopes: EventEnvelope[] = decided.map((e, i) => ({ id: eventIdFor(commandId, i, stream), type: e.type, data: e.data, metadata }));
    try {
      await eventStore.append(stream, envelopes, loaded.revision < 0 ? 'no_stream' : loaded.revision);
    } catch (err) {
      if (isWrongExpectedRevision(err)) throw new Raced(stream);
      throw err;
    }
    return { state, revision: loaded.revision + decided.length, ...(loaded.first !== undefined && { first: loaded.first }) };
  }

  async function accepted(s: LiveDelivery): Promise<EventAcceptedData> {
    const [first] = await eventStore.readStream(s.scheduled.publishedStream, { limit: 1 });
    if (first === undefined || first.type !== 'EventAccepted') throw new Error(`published event ${s.scheduled.publishedStream} not found`);
    return first.data as EventAcceptedData;
  }
  const rawEvent = async (s: LiveDelivery): Promise<BridgeEvent> => (await accepted(s)).event;

  const targetRef = (s: LiveDelivery): RuleTargetRef => ({ ruleTenant: s.scheduled.ruleTenant, ruleId: s.scheduled.ruleId, targetId: s.scheduled.targetId });

  async function blockRuleTarget(s: LiveDelivery): Promise<void> {
    await ruleTargets.block(
      targetRef(s),
      { deliveryId: s.scheduled.deliveryId, round: s.round, error: s.lastError ?? 'failed' },
      { tenant: s.scheduled.ruleTenant, actor: 'system:bridge-delivery' },
      `block/${s.scheduled.deliveryId}/${s.round}`,
    );
  }

  // ---- params ----

  async function resolveParams(s: LiveDelivery, event: BridgeEvent): Promise<{ ok: true; params: ResolvedParams } | { ok: false; error: string }> {
    const { tenant, platform } = s.scheduled;
    const env = async (key: string) => {
      const own = await configCenter.get(tenant, key);
      if (own !== undefined || !platform || tenant === PLATFORM_TENANT) return own;
      return configCenter.get(PLATFORM_TENANT, key);
    };
    let profile: Promise<TenantProfile | null | undefined> | undefined;
    const tenantProfile = async (key: string) => {
      profile ??= deps.tenantProfile(tenant);
      const value = (await profile)?.[key === '' ? 'supportMailGroup' : key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const params: ResolvedParams = {};
    for (const p of s.scheduled.target?.params ?? []) {
      const v = await renderParam(event, p, env, tenantProfile);
      if (v.status === 'error') return { ok: false, error: v.error };
      if (v.status === 'unresolved') return { ok: false, error: `${p.resourceKey}: ${v.form} ${v.key} could not be resolved` };
      params[p.resourceKey] = v.value;
    }
    return { ok: true, params };
  }

  // ---- the call ----

  async function call(adapter: TargetAdapter, request: Omit<DeliveryRequest, 'signal'>): Promise<DeliveryOutcome> {
    const controller = new AbortController();
    const timedOut = `timed out after ${timeoutMs} ms`;
    let timer: NodeJS.Timeout | undefined;
    // an adapter that ignores its signal still cannot hold the worker past the timeout
    const deadline = new Promise<DeliveryOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(timedOut));
        resolve({ ok: false, retryable: true, error: timedOut });
      }, timeoutMs);
    });
    try {
      const outcome = adapter.deliver({ ...request, signal: controller.signal }).catch(
        (err: unknown): DeliveryOutcome => ({ ok: false, retryable: true, error: controller.signal.aborted ? timedOut : message(err) }),
      );
      return await Promise.race([outcome, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function attempt(stream: string, loaded: Loaded): Promise<DeliveryStep> {
    const s = loaded.state as LiveDelivery;
    const sch = s.scheduled;
    const { event, publisher } = await accepted(s);
    const attemptId = randomUUID();
    const adapter = adapterFor(sch.typeId);
    const resolved = adapter === undefined ? ({ ok: false, error: `no target adapter for TypeId ${sch.typeId}` } as const) : await resolveParams(s, event);

    let after: Loaded;
    if (adapter === undefined || !resolved.ok) {
      // nothing to call: the attempt and its failure in one append
      const error = clip(resolved.ok ? 'failed' : resolved.error);
      after = await apply(
        stream,
        loaded,
        [
          { type: 'StartAttempt', attemptId, now: now() },
          { type: 'RecordFailure', attemptId, error, retryable: false, random: random(), event, now: now() },
        ],
        `attempt/${attemptId}`,
      );
    } else {
      const started = await apply(stream, loaded, [{ type: 'StartAttempt', attemptId, now: now() }], `attempt/${attemptId}`);
      const inFlight = started.state as LiveDelivery;
      const callerToken = await deps.callerToken?.(sch.eventKey, sch.tenant);
      const outcome = await call(adapter, {
        deliveryId: sch.deliveryId,
        attemptId,
        attempt: inFlight.attempts,
        tenant: sch.tenant,
        ruleTenant: sch.ruleTenant,
        ruleId: sch.ruleId,
        target: sch.target!,
        event,
        payload: sch.payload,
        params: resolved.params,
        publisher,
        ...(callerToken !== undefined && { callerToken }),
      });
      const command: DeliveryCommand = outcome.ok
        ? {
            type: 'RecordSuccess',
            attemptId,
            now: now(),
            ...(outcome.httpStatus !== undefined && { httpStatus: outcome.httpStatus }),
            ...(outcome.detail !== undefined && { detail: clip(outcome.detail) }),
          }
        : {
            type: 'RecordFailure',
            attemptId,
            error: clip(outcome.error || 'failed'),
            retryable: outcome.retryable,
            random: random(),
            event,
            now: now(),
            ...(outcome.httpStatus !== undefined && { httpStatus: outcome.httpStatus }),
          };
      after = await apply(stream, started, [command], `outcome/${attemptId}`);
    }
    return settled(after.state as LiveDelivery);
  }

  async function settled(s: LiveDelivery): Promise<DeliveryStep> {
    switch (s.status) {
      case 'succeeded':
        return 'succeeded';
      case 'pending':
        return 'retry-scheduled';
      case 'dead-lettered':
        return 'dead-lettered';
      case 'discarded':
        return 'discarded';
      case 'blocked':
        await blockRuleTarget(s);
        return 'blocked';
      default:
        return 'raced';
    }
  }

  // ---- one delivery ----

  async function advance(stream: string): Promise<DeliveryStep> {
    try {
      // a few steps at most: an uncertain attempt recorded, a tolerance applied or a resume, then the attempt
      for (let step = 0; step < 4; step++) {
        const loaded = await load(stream);
        const s = loaded.state;
        if (s.status === 'none') return 'missing';
        switch (s.status) {
          case 'succeeded':
          case 'dead-lettered':
          case 'discarded':
          case 'purged':
            return 'finished';
          case 'in-flight': {
            if (Date.parse(now()) - Date.parse(s.inFlight!.at) < leaseMs) return 'in-flight';
            log.warn({ stream, attemptId: s.inFlight!.attemptId }, 'attempt without outcome: the process stopped during the call; trying again');
            await apply(stream, loaded, [{ type: 'RecordUncertain', now: now() }], `uncertain/${s.inFlight!.attemptId}`);
            continue;
          }
          case 'exhausted':
            await apply(stream, loaded, [{ type: 'ApplyTolerance', event: await rawEvent(s), now: now() }], `tolerance/${s.scheduled.deliveryId}/${s.round}`);
            continue;
          case 'blocked': {
            const standing = blockStanding(await ruleTargets.state(targetRef(s)), s.scheduled.deliveryId, s.round);
            if (standing === 'released') {
              await apply(stream, loaded, [{ type: 'RedriveDelivery', reason: 'resume', by: 'system:bridge-delivery', now: now() }], `resume/${s.scheduled.deliveryId}/${s.round}`);
              continue;
            }
            if (standing === 'unrecorded') await blockRuleTarget(s);
            return 'blocked';
          }
          case 'pending': {
            if (s.dueAt > now()) return 'not-due';
            if ((await ruleTargets.state(targetRef(s))).blocked) return 'waiting';
            return await attempt(stream, loaded);
          }
        }
      }
      return 'raced';
    } catch (err) {
      // another worker wrote first, or the state moved on under us (a redrive, a purge): it has the delivery
      if (err instanceof Raced || (isDomainError(err) && err.status === 409)) return 'raced';
      throw err;
    }
  }

  // ---- work sources ----

  const queue: WorkItem[] = [];
  const queued = new Set<string>();
  /** per ordered rule target: the tail of its chain of deliveries in this process */
  const chains = new Map<string, Promise<void>>();
  let waiters: Array<() => void> = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  /**
   * claimDueItem (commands/core/due-work.ts) with one more sort key: equal due times in log order (`seq`),
   * so deliveries scheduled in the same millisecond (a burst, a resume) are claimed as they were scheduled
   */
  async function claimNext(loopOwner: string): Promise<DeliveryDueItem | null> {
    const at = clock.now();
    const iso = at.toISOString();
    return (await deps.items()).findOneAndUpdate(
      { dueAt: { $lte: iso }, leaseUntil: { $lt: iso } },
      { $set: { leaseUntil: new Date(at.getTime() + leaseMs).toISOString(), leaseOwner: loopOwner }, $inc: { leases: 1 } },
      { sort: { dueAt: 1, seq: 1 } },
    );
  }

  async function guarded(stream: string): Promise<void> {
    try {
      await advance(stream);
    } catch (err) {
      // store trouble or a bug: the item's lease runs out and it is tried again then
      log.error({ stream, err: message(err) }, 'delivery step failed');
    }
  }

  /**
   * Streams this process has queued or is working on. A due item claimed for one of them is left to that
   * work (its outcome moves or removes the item): a fresh delivery is both notified and, once projected, due.
   */
  const active = new Map<string, number>();
  const enter = (stream: string) => active.set(stream, (active.get(stream) ?? 0) + 1);
  const leave = (stream: string) => {
    const n = (active.get(stream) ?? 1) - 1;
    if (n <= 0) active.delete(stream);
    else active.set(stream, n);
  };

  /** runs one delivery; an ordered one joins its rule target's chain (synchronously: claim order is kept) */
  function runOne(item: WorkItem): Promise<void> {
    enter(item.stream);
    const done = () => leave(item.stream);
    if (item.ordered !== true || item.ruleTarget === undefined) return guarded(item.stream).finally(done);
    const key = item.ruleTarget;
    const run = (chains.get(key) ?? Promise.resolve()).then(() => guarded(item.stream));
    chains.set(key, run);
    return run.finally(() => {
      done();
      if (chains.get(key) === run) chains.delete(key);
    });
  }

  async function runDue(): Promise<number> {
    let ran = 0;
    while (true) {
      const item = await claimNext(owner);
      if (item === null) return ran;
      ran++;
      await runOne(item);
    }
  }

  let abort: AbortController | undefined;
  let loops: Promise<void>[] = [];
  let state: ReactorStatus['state'] = 'stopped';
  let lastError: string | undefined;

  async function loop(index: number, signal: AbortSignal): Promise<void> {
    const loopOwner = `${owner}#${index}`;
    while (!signal.aborted) {
      let worked = false;
      try {
        const fresh = queue.shift();
        if (fresh !== undefined) {
          queued.delete(fresh.stream);
          worked = true;
          await runOne(fresh);
        } else {
          const item = await claimNext(loopOwner);
          if (item !== null) {
            worked = true;
            if (!active.has(item.stream) && !queued.has(item.stream)) await runOne(item);
          }
        }
        if (state === 'retrying') state = 'running';
        lastError = undefined;
      } catch (err) {
        // the read store is down: wait a poll and try again
        state = 'retrying';
        lastError = message(err);
        log.error({ err: lastError }, 'delivery worker: cannot claim due work; retrying');
      }
      if (worked || signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, pollMs);
        function done() {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        }
        waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  return {
    name: DELIVERY_WORKER_NAME,
    process: advance,
    runDue,
    notify(stream, o) {
      if (queued.has(stream) || queue.length >= MAX_QUEUE) return; // the due items have it anyway
      queued.add(stream);
      queue.push({ stream, ...(o !== undefined && { ruleTarget: o.ruleTarget, ordered: o.ordered }) });
      wake();
    },
    start() {
      if (abort) return;
      abort = new AbortController();
      state = 'running';
      const signal = abort.signal;
      loops = Array.from({ length: concurrency }, (_, i) => loop(i, signal));
    },
    async stop() {
      abort?.abort();
      wake();
      await Promise.all(loops);
      loops = [];
      abort = undefined;
      state = 'stopped';
    },
    async status() {
      // lag: deliveries due now and not claimed (a backlog), for /health/ready
      const at = clock.now().toISOString();
      const lag = await (await deps.items()).count({ dueAt: { $lte: at }, leaseUntil: { $lt: at } });
      return { name: DELIVERY_WORKER_NAME, position: '', head: '', lag, state, ...(lastError !== undefined && { lastError }) };
    },
    async drain() {
      let handled = 0;
      while (queue.length > 0) {
        const item = queue.shift()!;
        queued.delete(item.stream);
        handled++;
        await runOne(item);
      }
      return handled + (await runDue());
    },
  };
}
