import { MQ_SEND_TYPES, type MqSendType, parseAppNames } from '../../../domain/bridge/mq.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import type { Clock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { type DeliveryOutcome, TARGET_TYPES, type TargetAdapter } from '../delivery.contracts.ts';
import { createMqTopics, type MqTopics } from '../mq-topics.store.ts';

/**
 * The platform message-queue target (TypeId 2): appends the message to the topic log of the event's
 * tenant (`mqTopic-<tenant>.<topic>`), where consuming services pull it (commands/bridge/mq-consumers.commands.ts,
 * http/bridge/mq.router.ts).
 *
 * Parameters (resolved by the engine): SEND_TYPE APP or BROADCAST; APP_NAME, for APP, the receiving
 * services as a comma-separated list (their client ids); TOPIC (CONSTANT, TEMPLATE or JSONPATH: a string,
 * or a number taken as text); BODY (TEMPLATE or ORIGINAL: any JSON value, recorded as rendered).
 *
 * Idempotent per delivery id (a retried attempt appends nothing twice). Bad parameters fail without
 * retry, naming the parameter; a store that is down is retryable.
 */
export type MessageQueueTargetDeps = { eventStore: EventStore; clock: Clock } | { topics: MqTopics };

export function createMessageQueueTarget(deps: MessageQueueTargetDeps): TargetAdapter {
  const topics = 'topics' in deps ? deps.topics : createMqTopics(deps);
  const bad = (error: string): DeliveryOutcome => ({ ok: false, retryable: false, error });

  return {
    typeId: TARGET_TYPES.messageQueue,
    async deliver(request) {
      const p = request.params;
      const sendType = typeof p.SEND_TYPE === 'string' ? p.SEND_TYPE.trim().toUpperCase() : '';
      if (!MQ_SEND_TYPES.includes(sendType as MqSendType)) return bad('SEND_TYPE must be APP or BROADCAST');
      const apps = sendType === 'APP' ? (typeof p.APP_NAME === 'string' ? parseAppNames(p.APP_NAME) : []) : [];
      if (sendType === 'APP' && apps.length === 0)
        return bad('APP_NAME must name the receiving services (comma-separated) when SEND_TYPE is APP');
      const topic =
        typeof p.TOPIC === 'string' ? p.TOPIC.trim() : typeof p.TOPIC === 'number' ? String(p.TOPIC) : undefined;
      if (topic === undefined || topic === '') return bad('TOPIC must render to a topic name (a string)');
      const body = 'BODY' in p ? p.BODY : request.payload;
      try {
        const { offset, duplicate } = await topics.enqueue(
          { topic, sendType: sendType as MqSendType, apps, body, deliveryId: request.deliveryId },
          {
            tenant: request.tenant,
            actor: `bridge:rule/${request.ruleTenant}/${request.ruleId}`,
            correlationId: request.deliveryId,
            causationId: request.attemptId,
          },
        );
        return { ok: true, detail: `topic ${topic} offset ${offset}${duplicate ? ' (already enqueued)' : ''}` };
      } catch (err) {
        if (isDomainError(err) && err.status === 400) return bad(err.message);
        return {
          ok: false,
          retryable: true,
          error: `the topic log could not be written: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
    },
  };
}
