import { createHash } from 'node:crypto';
import { type DeliveryScheduledData, deliveryDecider, deliveryStream } from '../../domain/bridge/delivery.decider.ts';
import type { Target } from '../../domain/bridge/model.ts';
import type { EventRoutedData } from '../../domain/bridge/published-event.decider.ts';
import { type RuleEvent, ruleDecider, ruleStream } from '../../domain/bridge/rule.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

/**
 * Delivery scheduling: for a routed event, one delivery stream per matched (rule, target) whose
 * conversion succeeded — DeliveryScheduled, due at once, with the rule's target record and the payload
 * routing rendered. A target whose conversion failed gets no delivery: the trace records it as a failed
 * delivery without any call (projections/bridge/trace). The router schedules right after it routes
 * (router.process.ts); the bridge.deliveries projection turns DeliveryScheduled into a due item of the
 * work engine.
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
 * Takes a fresh delivery to schedule it and start its first attempt in one append (the delivery worker's
 * startFresh, where a slot is free): a promise answering whether it created the delivery; undefined, or a
 * promise answering undefined: not taken, scheduled here.
 */
export type StartFresh = (fresh: FreshDelivery) => Promise<boolean | undefined> | undefined;

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
   * Schedules the deliveries of one EventRouted (nothing for those already scheduled); those `start` takes
   * are scheduled by it, with their first attempt.
   */
  async function schedule(
    recorded: Pick<RecordedEvent, 'id' | 'type' | 'data' | 'stream' | 'metadata'>,
    known?: KnownTarget,
    start?: StartFresh,
  ): Promise<ScheduledDelivery[]> {
    if (recorded.type !== 'EventRouted') return [];
    const routed = recorded.data as EventRoutedData;
    const tenant = parseStreamName(recorded.stream)?.tenant ?? recorded.metadata.tenant;
    const work: Array<Promise<ScheduledDelivery>> = [];
    for (const rule of routed.matched) {
      for (const t of rule.targets) {
        if (!t.conversion.ok) continue;
        work.push(
          (async () => {
            const deliveryId = deliveryIdFor(routed.key, rule.ruleTenant, rule.ruleId, t.targetId);
            const stream = deliveryStream(tenant, deliveryId);
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
            const started = data.target === null ? undefined : await start?.({ stream, data, commandId, context });
            if (started !== undefined) return { stream, deliveryId, created: started };
            const r = await handle({
              stream,
              command: { type: 'ScheduleDelivery', data, now },
              commandId,
              now,
              context,
              from: 'new',
            });
            return { stream, deliveryId, created: r.duplicate !== true && r.events.length > 0 };
          })(),
        );
      }
    }
    return Promise.all(work);
  }

  return { schedule };
}
