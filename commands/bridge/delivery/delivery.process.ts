import {
  type DeliveryCommand,
  type DeliveryEvent,
  type DeliveryState,
  deliveryDecider,
  type LiveDelivery,
} from '../../../domain/bridge/delivery.decider.ts';
import type { BridgeEvent } from '../../../domain/bridge/model.ts';
import type { EventAcceptedData } from '../../../domain/bridge/published-event.decider.ts';
import { blockStanding, type RuleTargetRef } from '../../../domain/bridge/rule-target-state.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { Clock } from '../../../infra/core/clock.port.ts';
import type { AppendRequest, AppendResult, EventStore } from '../../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision, type WrongExpectedRevisionError } from '../../../infra/core/store-errors.ts';
import { commandHandler } from '../../core/command-handler.ts';
import { newCommandId } from '../../core/event-id.ts';
import { createStreamCache } from '../../core/stream-cache.ts';
import type { TargetAdapter } from '../delivery.contracts.ts';
import { createDeliveryScheduler, type FreshDelivery } from '../delivery.scheduler.ts';
import { createRuleTargetCommands } from '../rule-target-state.commands.ts';
import { callTarget } from './delivery.call.ts';
import { clip, outcomeCommand, scheduledState } from './delivery.commands.ts';
import { type ParamSources, resolveParams } from './delivery.params.ts';

/**
 * What is due now for one delivery, decided from its stream (the truth; due items only say where
 * to look):
 * - pending and due, its rule target not blocked: read the raw event (the published stream), resolve the
 *   target's params, append DeliveryAttemptStarted with the expected revision (a second worker loses here
 *   and calls nothing), call the TargetAdapter within the timeout, append the outcome. A failure schedules
 *   the next attempt by the target's retry strategy (never before the peer's Retry-After), or applies the
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
 */
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

export type DeliveryProcessDeps = ParamSources & {
  eventStore: EventStore;
  clock: Clock;
  adapterFor(typeId: number): TargetAdapter | undefined;
  /**
   * the publishing caller's token, while the delivery runs (Bearer connections that forward it); never
   * recorded. `ref`: where putEvent kept it (EventAccepted's callerTokenRef, else the event key)
   */
  callerToken?(ref: string, tenant: string): Promise<string | undefined>;
  timeoutMs: number;
  /** an attempt without outcome older than this counts as uncertain */
  leaseMs: number;
  /** in [0, 1): the backoff's random part */
  random: () => number;
  log?: { warn(obj: object, msg: string): void };
};

/** `first`: the stream's first event (its tenant, correlation and causation carry on in later appends) */
type Loaded = { state: DeliveryState; revision: number; first?: Pick<RecordedEvent, 'id' | 'metadata'> };

/** what an attempt takes from the published event (its EventAccepted) */
export type PublishedFacts = Pick<EventAcceptedData, 'event' | 'publisher' | 'callerTokenRef'>;

/** a delivery not yet scheduled, scheduled by its first attempt's append (prepareFresh) */
type Fresh = { schedule: DeliveryCommand; published: PublishedFacts };

/** a fresh delivery decided (prepareFresh): its append, and what follows once that append is answered */
export type FreshStart = {
  request: AppendRequest;
  proceed(answer: AppendResult | WrongExpectedRevisionError | undefined): Promise<DeliveryStep>;
};

class Raced extends Error {}

export function createDeliveryProcess(deps: DeliveryProcessDeps) {
  const { eventStore, clock, timeoutMs, leaseMs, random } = deps;
  const ruleTargets = createRuleTargetCommands({ eventStore, clock });
  const scheduler = createDeliveryScheduler({ eventStore, clock });
  const decide = commandHandler(eventStore, deliveryDecider);
  const now = () => clock.now().toISOString();

  // a delivery is loaded a few times in its life (each step, each attempt): only newer events are read
  const deliveries = createStreamCache<DeliveryEvent, { delivery: DeliveryState; first?: RecordedEvent }>(eventStore, {
    initialState: () => ({ delivery: deliveryDecider.initialState() }),
    evolve: (s, e) => ({
      delivery: deliveryDecider.evolve(s.delivery, e),
      first: s.first ?? (e as unknown as RecordedEvent),
    }),
  });

  async function load(stream: string): Promise<Loaded> {
    const { state, revision } = await deliveries.load(stream);
    return { state: state.delivery, revision, ...(state.first !== undefined && { first: state.first }) };
  }

  /** the command envelope of an append on the loaded state (the stream's tenant, correlation and causation) */
  const envelope = (stream: string, loaded: Loaded, commands: DeliveryCommand[], commandId: string) => {
    const first = loaded.first;
    const tenant =
      first?.metadata.tenant ?? (loaded.state.status !== 'none' ? loaded.state.scheduled.tenant : 'unknown');
    return {
      stream,
      command: commands,
      commandId,
      now: now(),
      context: {
        tenant,
        actor: 'system:bridge-delivery',
        ...(first?.metadata.correlationId !== undefined && { correlationId: first.metadata.correlationId }),
        ...(first !== undefined && { causationId: first.id }),
      },
      from: { state: loaded.state, revision: loaded.revision },
    };
  };

  /** what the loaded state is after a command's append (the append that created the stream names its first event) */
  const loadedAfter = (
    loaded: Loaded,
    r: { state: DeliveryState; revision: number; events: ReadonlyArray<Pick<RecordedEvent, 'id' | 'metadata'>> },
  ): Loaded => {
    const created = loaded.revision < 0 ? r.events[0] : undefined;
    const next = created !== undefined ? { id: created.id, metadata: created.metadata } : loaded.first;
    return { state: r.state, revision: r.revision, ...(next !== undefined && { first: next }) };
  };

  /** decides on the loaded state and appends with its revision; Raced when another worker wrote first */
  async function apply(
    stream: string,
    loaded: Loaded,
    commands: DeliveryCommand[],
    commandId: string,
  ): Promise<Loaded> {
    try {
      return loadedAfter(loaded, await decide(envelope(stream, loaded, commands, commandId)));
    } catch (err) {
      if (isWrongExpectedRevision(err)) throw new Raced(stream);
      throw err;
    }
  }

  async function accepted(s: LiveDelivery): Promise<EventAcceptedData> {
    const [first] = await eventStore.readStream(s.scheduled.publishedStream, { limit: 1 });
    if (first === undefined || first.type !== 'EventAccepted')
      throw new Error(`published event ${s.scheduled.publishedStream} not found`);
    return first.data as EventAcceptedData;
  }
  const rawEvent = async (s: LiveDelivery): Promise<BridgeEvent> => (await accepted(s)).event;

  const targetRef = (s: LiveDelivery): RuleTargetRef => ({
    ruleTenant: s.scheduled.ruleTenant,
    ruleId: s.scheduled.ruleId,
    targetId: s.scheduled.targetId,
  });

  async function blockRuleTarget(s: LiveDelivery): Promise<void> {
    await ruleTargets.block(
      targetRef(s),
      { deliveryId: s.scheduled.deliveryId, round: s.round, error: s.lastError ?? 'failed' },
      { tenant: s.scheduled.ruleTenant, actor: 'system:bridge-delivery' },
      `block/${s.scheduled.deliveryId}/${s.round}`,
    );
  }

  /** an attempt decided: the commands of its first append, and what follows that append (the call, the outcome) */
  type Planned = { commands: DeliveryCommand[]; commandId: string; proceed(started: Loaded): Promise<DeliveryStep> };

  /**
   * One attempt, planned: recorded first, then the call and its outcome. `fresh`: the delivery is not
   * scheduled yet (`loaded` is its empty stream): its scheduling goes in the attempt's first append, and the
   * published event is known.
   */
  async function planAttempt(stream: string, loaded: Loaded, fresh?: Fresh): Promise<Planned> {
    const s = fresh === undefined ? (loaded.state as LiveDelivery) : scheduledState(fresh.schedule);
    const head = fresh === undefined ? [] : [fresh.schedule];
    const sch = s.scheduled;
    const { event, publisher, callerTokenRef } = fresh?.published ?? (await accepted(s));
    const attemptId = newCommandId();
    const commandId = `attempt/${attemptId}`;
    const adapter = deps.adapterFor(sch.typeId);
    const resolved =
      adapter === undefined
        ? ({ ok: false, error: `no target adapter for TypeId ${sch.typeId}` } as const)
        : await resolveParams(deps, s, event);
    if (adapter === undefined || !resolved.ok) {
      // nothing to call: the attempt and its failure in one append
      const error = clip(resolved.ok ? 'failed' : resolved.error);
      return {
        commands: [
          ...head,
          { type: 'StartAttempt', attemptId, now: now() },
          { type: 'RecordFailure', attemptId, error, retryable: false, random: random(), event, now: now() },
        ],
        commandId,
        proceed: (after) => settled(after.state as LiveDelivery),
      };
    }
    const at = now();
    const outcomeBy = new Date(Date.parse(at) + leaseMs).toISOString();
    return {
      commands: [...head, { type: 'StartAttempt', attemptId, now: at, outcomeBy }],
      commandId,
      async proceed(started) {
        const inFlight = started.state as LiveDelivery;
        // only a target that forwards the publisher's token reads it (unsealing it costs a key derivation)
        const callerToken =
          adapter.usesCallerToken === true
            ? await deps.callerToken?.(callerTokenRef ?? sch.eventKey, sch.tenant)
            : undefined;
        const outcome = await callTarget(
          adapter,
          {
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
          },
          timeoutMs,
        );
        const after = await apply(
          stream,
          started,
          [outcomeCommand(attemptId, outcome, event, now(), random())],
          `outcome/${attemptId}`,
        );
        return settled(after.state as LiveDelivery);
      },
    };
  }

  /** One attempt of a scheduled delivery: recorded, the call, its outcome. */
  async function attempt(stream: string, loaded: Loaded): Promise<DeliveryStep> {
    const plan = await planAttempt(stream, loaded);
    return plan.proceed(await apply(stream, loaded, plan.commands, plan.commandId));
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

  /**
   * A delivery routed just now, known whole, decided without reading the delivery's or the published
   * event's stream: its scheduling with its first attempt started (a blocked rule target: the scheduling
   * alone), for the acceptance's commit. `proceed`, told that append's answer, makes the call and appends its
   * outcome; it answers 'waiting' for a blocked target, 'raced' when the delivery was scheduled already or
   * the append was not made (`undefined`).
   */
  async function prepareFresh(fresh: FreshDelivery, published: PublishedFacts): Promise<FreshStart> {
    const loaded: Loaded = {
      state: deliveryDecider.initialState(),
      revision: -1,
      first: {
        id: fresh.context.causationId ?? fresh.commandId,
        metadata: {
          tenant: fresh.context.tenant,
          ...(fresh.context.correlationId !== undefined && { correlationId: fresh.context.correlationId }),
        } as RecordedEvent['metadata'],
      },
    };
    const schedule: DeliveryCommand = { type: 'ScheduleDelivery', data: fresh.data, now: now() };
    const plan: Planned = (await ruleTargets.state(targetRef(scheduledState(schedule)))).blocked
      ? { commands: [schedule], commandId: fresh.commandId, proceed: async () => 'waiting' }
      : await planAttempt(fresh.stream, loaded, { schedule, published });
    const prepared = decide.prepare(envelope(fresh.stream, loaded, plan.commands, plan.commandId));
    return {
      request: prepared.request,
      async proceed(answer) {
        if (answer === undefined) return 'raced';
        try {
          return await plan.proceed(loadedAfter(loaded, await prepared.settle(answer)));
        } catch (err) {
          if (err instanceof Raced || isWrongExpectedRevision(err) || (isDomainError(err) && err.status === 409))
            return 'raced';
          throw err;
        }
      },
    };
  }

  /**
   * A due item whose delivery has no stream: routed, its scheduling missing (not decided at acceptance, or
   * lost between the acceptance and its deliveries on EventStoreDB, or to a crash after the router reactor's routing).
   * Scheduled now from its EventRouted, as the publisher would have (the same command ids: of two, one wins).
   */
  async function scheduleLost(publishedStream: string): Promise<boolean> {
    const routed = (await eventStore.readStream(publishedStream)).find((e) => e.type === 'EventRouted');
    if (routed === undefined) return false;
    await scheduler.schedule(routed);
    return true;
  }

  /**
   * one step of the delivery's life, as its stream says (a few appends at most); `publishedStream`: the due
   * item was written from the delivery's routing (a scheduling not seen yet): it schedules the delivery if
   * that was lost, and does nothing more. The scheduling's own due item (with the target's order) takes the
   * delivery from there.
   */
  async function advance(stream: string, publishedStream?: string): Promise<DeliveryStep> {
    try {
      if (publishedStream !== undefined) {
        if ((await load(stream)).state.status === 'none' && !(await scheduleLost(publishedStream))) return 'missing';
        return 'not-due';
      }
      // an uncertain attempt recorded, a tolerance applied or a resume, then the attempt
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
            deps.log?.warn(
              { stream, attemptId: s.inFlight!.attemptId },
              'attempt without outcome: the process stopped during the call; trying again',
            );
            await apply(
              stream,
              loaded,
              [{ type: 'RecordUncertain', now: now() }],
              `uncertain/${s.inFlight!.attemptId}`,
            );
            continue;
          }
          case 'exhausted':
            await apply(
              stream,
              loaded,
              [{ type: 'ApplyTolerance', event: await rawEvent(s), now: now() }],
              `tolerance/${s.scheduled.deliveryId}/${s.round}`,
            );
            continue;
          case 'blocked': {
            const standing = blockStanding(await ruleTargets.state(targetRef(s)), s.scheduled.deliveryId, s.round);
            if (standing === 'released') {
              await apply(
                stream,
                loaded,
                [{ type: 'RedriveDelivery', reason: 'resume', by: 'system:bridge-delivery', now: now() }],
                `resume/${s.scheduled.deliveryId}/${s.round}`,
              );
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

  return { advance, prepareFresh };
}
