import { createHash } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import { deliveryDecider, deliveryStream, type DeliveryScheduledData } from '../../domain/bridge/delivery.decider.ts';
import type { Target } from '../../domain/bridge/model.ts';
import { PUBLISHED_CATEGORY, type EventRoutedData } from '../../domain/bridge/published-event.decider.ts';
import { ruleDecider, ruleStream, type RuleEvent } from '../../domain/bridge/rule.decider.ts';
import { ruleTargetKey } from '../../domain/bridge/rule-target-state.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { commandHandler } from '../core/command-handler.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';

/**
 * The delivery scheduler (issue 5): a checkpointed reactor on EventRouted that opens one delivery stream
 * per matched (rule, target) whose conversion succeeded — DeliveryScheduled, due at once, with the rule's
 * target record as it is now and the payload routing rendered. A target whose conversion failed gets no
 * delivery: the trace records it as a failed delivery without any call (projections/bridge/trace).
 *
 * The delivery id is the hex SHA-256 of `<eventKey>\n<ruleTenant>\n<ruleId>\n<targetId>`: stable, so a
 * redelivered EventRouted (after a crash) finds the stream and schedules nothing twice (the decider
 * answers [] for a scheduled delivery, and the command id is derived from the EventRouted id).
 *
 * `onScheduled` tells the delivery worker of this process about a fresh delivery so it can attempt it at
 * once instead of waiting for the due-items read model and its poll (the read model still backs it: retries,
 * restarts, other processes).
 */
export type DeliverySchedulerDeps = {
  eventStore: EventStore;
  clock: Clock;
  log?: ReactorLog;
  onScheduled?(stream: string, o: { ruleTarget: string; ordered: boolean }): void;
};

export const DELIVERY_SCHEDULER_NAME = 'bridge.delivery-scheduler';

export const deliveryIdFor = (eventKey: string, ruleTenant: string, ruleId: string, targetId: number): string =>
  createHash('sha256').update(`${eventKey}\n${ruleTenant}\n${ruleId}\n${targetId}`).digest('hex');

export type ScheduledDelivery = { stream: string; deliveryId: string; created: boolean };

export function createDeliveryScheduler(deps: DeliverySchedulerDeps) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, deliveryDecider);

  /** the rule's target record now (null: the rule or the target was deleted since routing) */
  async function currentTarget(ruleTenant: string, ruleId: string, targetId: number): Promise<Target | null> {
    const state = fold(ruleDecider, (await eventStore.readStream(ruleStream(ruleTenant, ruleId))) as unknown as RuleEvent[]);
    if (state.status !== 'exists') return null;
    return state.rule.targets.find((t) => t.id === targetId) ?? null;
  }

  /** Schedules the deliveries of one recorded EventRouted (nothing for those already scheduled). */
  async function schedule(recorded: RecordedEvent): Promise<ScheduledDelivery[]> {
    if (recorded.type !== 'EventRouted') return [];
    const routed = recorded.data as EventRoutedData;
    const tenant = parseStreamName(recorded.stream)?.tenant ?? recorded.metadata.tenant;
    const out: ScheduledDelivery[] = [];
    for (const rule of routed.matched) {
      for (const t of rule.targets) {
        if (!t.conversion.ok) continue;
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
          target: await currentTarget(rule.ruleTenant, rule.ruleId, t.targetId),
          payload: t.payload ?? null,
          dueAt: now,
        };
        const r = await handle({
          stream,
          command: { type: 'ScheduleDelivery', data, now },
          commandId: `schedule/${recorded.id}`,
          now,
          context: {
            tenant,
            actor: 'system:bridge-delivery',
            ...(recorded.metadata.correlationId !== undefined && { correlationId: recorded.metadata.correlationId }),
            causationId: recorded.id,
          },
        });
        const created = r.events.length > 0 && !r.replayed;
        out.push({ stream, deliveryId, created });
        if (created && data.target !== null) {
          deps.onScheduled?.(stream, { ruleTarget: ruleTargetKey(data), ordered: data.target.errorTolerance === 'NONE' });
        }
      }
    }
    return out;
  }

  return { schedule };
}

/** The scheduler as a worker: a checkpointed subscription to EventRouted (commands/core/reactor.ts). */
export function createDeliverySchedulerWorker(deps: DeliverySchedulerDeps & { readStore: ReadStore; retryDelayMs?: number }): Reactor {
  const scheduler = createDeliveryScheduler(deps);
  return createReactor({
    name: DELIVERY_SCHEDULER_NAME,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: [PUBLISHED_CATEGORY], eventTypes: ['EventRouted'] },
    ...(deps.log && { log: deps.log }),
    ...(deps.retryDelayMs !== undefined && { retryDelayMs: deps.retryDelayMs }),
    async handle(event) {
      await scheduler.schedule(event);
    },
  });
}
