import { createHash } from 'node:crypto';
import { type DeliveryScheduledData, deliveryDecider, deliveryStream } from '../../domain/bridge/delivery.decider.ts';
import type { Target } from '../../domain/bridge/model.ts';
import type { EventRoutedData } from '../../domain/bridge/published-event.decider.ts';
import { type RuleEvent, ruleDecider, ruleStream } from '../../domain/bridge/rule.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { AppendRequest, AppendResult, EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision, type WrongExpectedRevisionError } from '../../infra/core/store-errors.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

/**
 * Delivery scheduling: for a routed event, one delivery stream per matched (rule, target) whose
 * conversion succeeded — DeliveryScheduled, due at once, with the rule's target record and the payload
 * routing rendered. A target whose conversion failed gets no delivery: the trace records it as a failed
 * delivery without any call (projections/bridge/trace). putEvent prepares the schedulings of what it
 * routes and appends them in its acceptance's commit (publish.commands.ts); the router reactor schedules
 * what it routes right after (router.process.ts); the bridge.deliveries projection turns DeliveryScheduled
 * into a due item of the work engine.
 *
 * The delivery id is the hex SHA-256 of `<eventKey>\n<ruleTenant>\n<ruleId>\n<targetId>`: stable, so a
 * redelivered EventRouted (after a crash) finds the stream and schedules nothing twice: the append
 * expects no stream (`from: 'new'`), and a conflict means "scheduled already".
 */
export type DeliverySchedulerDeps = {
  eventStore: EventStore;
  clock: Clock;
};

export const deliveryIdFor = (eventKey: string, ruleTenant: string, ruleId: string, targetId: number): string =>
  createHash('sha256').update(`${eventKey}\n${ruleTenant}\n${ruleId}\n${targetId}`).digest('hex');

export type ScheduledDelivery = { stream: string; deliveryId: string; created: boolean };

/** A delivery about to be scheduled, whole: what its DeliveryScheduled holds, and how it is appended. */
export type FreshDelivery = {
  stream: string;
  data: Omit<DeliveryScheduledData, 'scheduledAt'>;
  commandId: string;
  context: CommandContext;
};

/**
 * A delivery's scheduling, decided and not yet appended: its append (with the delivery's first attempt
 * started in it, where a worker took it), and what follows once the append is answered.
 */
export type PreparedScheduling = {
  stream: string;
  deliveryId: string;
  request: AppendRequest;
  /**
   * told the append's answer: whether it created the delivery (a conflict: scheduled already); `undefined`,
   * the append was not made (the store failed). A worker that took the delivery makes its call after this.
   */
  settle(answer: AppendResult | WrongExpectedRevisionError | undefined): Promise<boolean>;
};

/**
 * Takes a fresh delivery to start its first attempt in the scheduling's append (the delivery worker's
 * startFresh, where a slot is free): a promise of its prepared scheduling; undefined, or a promise of
 * undefined: not taken, scheduled alone. `wait`: it may wait for a slot to come free. A slot taken holds
 * until the scheduling is appended, so only an event's only delivery waits: of an event with several,
 * one holding a slot while another waits for one could, with every slot so held, wait for itself.
 */
export type StartFresh = (fresh: FreshDelivery, wait: boolean) => Promise<PreparedScheduling | undefined> | undefined;

type Answer = AppendResult | WrongExpectedRevisionError;

/**
 * One appendMany: `first` (when given: putEvent's acceptance), then the schedulings, each only if `first`
 * went ahead (AppendRequest.after). Answers each one's answer; the caller settles them. On a store failure
 * every scheduling is settled as not appended (a worker's slot it held is freed) and the failure thrown.
 */
export async function appendSchedulings(
  store: EventStore,
  schedulings: PreparedScheduling[],
  first?: AppendRequest,
): Promise<{ first?: Answer; schedulings: Answer[] }> {
  const requests = schedulings.map((p) => (first === undefined ? p.request : { ...p.request, after: 0 }));
  let answers: Answer[];
  try {
    answers = await store.appendMany(first === undefined ? requests : [first, ...requests]);
  } catch (err) {
    await Promise.all(schedulings.map((p) => p.settle(undefined)));
    throw err;
  }
  return first === undefined ? { schedulings: answers } : { first: answers[0]!, schedulings: answers.slice(1) };
}

/** the rule's target record as routing saw it: undefined when not known (then read from the rule's stream) */
export type KnownTarget = (ruleTenant: string, ruleId: string, targetId: number) => Target | null | undefined;

export function createDeliveryScheduler(deps: DeliverySchedulerDeps) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, deliveryDecider);

  /** the rule's target record now (null: the rule or the target was deleted since routing) */
  async function currentTarget(ruleTenant: string, ruleId: string, targetId: number): Promise<Target | null> {
    const state = fold(
      ruleDecider,
      (await eventStore.readStream(ruleStream(ruleTenant, ruleId))) as unknown as RuleEvent[],
    );
    if (state.status !== 'exists') return null;
    return state.rule.targets.find((t) => t.id === targetId) ?? null;
  }

  /**
   * The schedulings of one EventRouted's deliveries, decided (one per matched target whose conversion
   * succeeded); those `start` takes carry their first attempt. When one cannot be decided (its rule's target
   * record unreadable), it is left out and told to `tolerate` (the routing's due item schedules it later);
   * without `tolerate`, the failure is thrown.
   */
  async function prepare(
    recorded: Pick<RecordedEvent, 'id' | 'type' | 'data' | 'stream' | 'metadata'>,
    known?: KnownTarget,
    start?: StartFresh,
    tolerate?: (err: unknown) => void,
  ): Promise<PreparedScheduling[]> {
    if (recorded.type !== 'EventRouted') return [];
    const routed = recorded.data as EventRoutedData;
    const tenant = parseStreamName(recorded.stream)?.tenant ?? recorded.metadata.tenant;
    const work: Array<Promise<PreparedScheduling | undefined>> = [];
    const deliveries = routed.matched.flatMap((rule) =>
      rule.targets.filter((t) => t.conversion.ok).map((t) => ({ rule, t })),
    );
    const wait = deliveries.length === 1;
    for (const { rule, t } of deliveries) {
      const deliveryId = deliveryIdFor(routed.key, rule.ruleTenant, rule.ruleId, t.targetId);
      const stream = deliveryStream(tenant, deliveryId);
      work.push(
        (async () => {
          const now = clock.now().toISOString();
          const data: Omit<DeliveryScheduledData, 'scheduledAt'> = {
            deliveryId,
            eventKey: routed.key,
            ruleTenant: rule.ruleTenant,
            ruleId: rule.ruleId,
            targetId: t.targetId,
            tenant,
            publishedStream: recorded.stream,
            platform: rule.platform,
            typeId: t.typeId,
            target:
              known?.(rule.ruleTenant, rule.ruleId, t.targetId) ??
              (await currentTarget(rule.ruleTenant, rule.ruleId, t.targetId)),
            payload: t.payload ?? null,
            dueAt: now,
          };
          const commandId = `schedule/${recorded.id}`;
          const context: CommandContext = {
            tenant,
            actor: 'system:bridge-delivery',
            ...(recorded.metadata.correlationId !== undefined && {
              correlationId: recorded.metadata.correlationId,
            }),
            causationId: recorded.id,
          };
          const started = data.target === null ? undefined : await start?.({ stream, data, commandId, context }, wait);
          if (started !== undefined) return started;
          const prepared = handle.prepare({
            stream,
            command: { type: 'ScheduleDelivery', data, now },
            commandId,
            now,
            context,
            from: 'new',
          });
          return {
            stream,
            deliveryId,
            request: prepared.request,
            async settle(answer) {
              // not appended, or skipped for the acceptance's conflict (a duplicate put): nothing to read
              if (answer === undefined || (isWrongExpectedRevision(answer) && answer.stream !== stream)) return false;
              const r = await prepared.settle(answer);
              return r.duplicate !== true && r.events.length > 0;
            },
          } satisfies PreparedScheduling;
        })(),
      );
    }
    const outcomes = await Promise.allSettled(work);
    const prepared = outcomes.flatMap((o) => (o.status === 'fulfilled' && o.value !== undefined ? [o.value] : []));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    if (failures.length > 0 && tolerate === undefined) {
      // none is appended: the ones a worker took are freed
      await Promise.all(prepared.map((p) => p.settle(undefined)));
      throw failures[0];
    }
    for (const err of failures) {
      try {
        tolerate?.(err);
      } catch {
        // a failing logger must not keep the slots taken above from their commit
      }
    }
    return prepared;
  }

  /**
   * Schedules the deliveries of one EventRouted (nothing for those already scheduled), in one appendMany,
   * none started: its callers (the router reactor, a worker's slot scheduling a lost routing) leave the
   * attempts to the claims, and a slot never waits for another.
   */
  async function schedule(
    recorded: Pick<RecordedEvent, 'id' | 'type' | 'data' | 'stream' | 'metadata'>,
    known?: KnownTarget,
  ): Promise<ScheduledDelivery[]> {
    const prepared = await prepare(recorded, known);
    if (prepared.length === 0) return [];
    const { schedulings } = await appendSchedulings(eventStore, prepared);
    return Promise.all(
      prepared.map(async (p, i) => ({
        stream: p.stream,
        deliveryId: p.deliveryId,
        created: await p.settle(schedulings[i]),
      })),
    );
  }

  return { prepare, schedule };
}
