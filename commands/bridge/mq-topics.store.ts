import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  type EnqueueMessage,
  type MessageEnqueuedData,
  MQ_TOPIC,
  mqTopicDecider,
  mqTopicStream,
} from '../../domain/bridge/mq.decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

/**
 * The platform message queue's topic logs (domain/bridge/mq.decider.ts): appending a message and reading
 * a topic after an offset. A message's offset is its revision in `mqTopic-<tenant>.<topic>`.
 *
 * An enqueue does not read the topic: the decider validates, and the single event is appended with
 * expected revision `any` and an id derived from the delivery id, so concurrent deliveries to one topic
 * never conflict and a repeated delivery id answers the message already stored (SQLite: the event id is
 * unique; EventStoreDB: its idempotent-write check on event ids).
 */
export type MqMessage = MessageEnqueuedData & { offset: number };

/** the topic's tenant is the context's */
export type EnqueueInput = Omit<EnqueueMessage, 'type' | 'tenant' | 'now' | 'bodyBytes'>;

export type MqTopics = {
  /** appends one message; the same deliveryId again answers the stored one (`duplicate: true`) */
  enqueue(input: EnqueueInput, ctx: CommandContext): Promise<{ offset: number; duplicate: boolean }>;
  /** up to `limit` messages with offsets greater than `after` (-1: from the start), oldest first */
  read(tenant: string, topic: string, after: number, limit: number): Promise<MqMessage[]>;
  /** offset of the newest message, -1 for an empty (or unknown) topic */
  head(tenant: string, topic: string): Promise<number>;
};

export const toMqMessage = (e: RecordedEvent): MqMessage => ({
  ...(e.data as MessageEnqueuedData),
  offset: e.revision,
});

export function createMqTopics({ eventStore, clock }: { eventStore: EventStore; clock: Clock }): MqTopics {
  const enqueue = commandHandler(eventStore, mqTopicDecider);
  const checked = (topic: string) => {
    if (!MQ_TOPIC.test(topic))
      throw bridgeError(
        'MQ.TOPIC_INVALID',
        'TOPIC: a topic is 1-200 letters, digits or _ . : - starting with a letter or digit',
        [{ field: 'TOPIC', message: 'must be 1-200 letters, digits or _ . : - starting with a letter or digit' }],
      );
    return topic;
  };

  return {
    async enqueue(input, ctx) {
      const now = clock.now().toISOString();
      const bodyBytes = Buffer.byteLength(JSON.stringify(input.body) ?? '', 'utf8');
      const before = await eventStore.headPosition();
      // `append`: a message goes to the end of its topic whatever is there (no read); the command id is the
      // delivery's, so a retried enqueue appends nothing and answers the stored message
      const result = await enqueue({
        stream: mqTopicStream(ctx.tenant, checked(input.topic)),
        command: { type: 'EnqueueMessage', ...input, tenant: ctx.tenant, bodyBytes, now },
        commandId: `mq/${input.deliveryId}`,
        now,
        context: ctx,
        from: 'append',
      });
      // an idempotent retry answers the stored event, which was written before this call began
      return { offset: result.revision, duplicate: (result.position ?? '') <= before };
    },

    async read(tenant, topic, after, limit) {
      if (limit <= 0) return [];
      const events = await eventStore.readStream(mqTopicStream(tenant, checked(topic)), {
        fromRevision: Math.max(0, after + 1),
        limit,
      });
      return events.map(toMqMessage);
    },

    async head(tenant, topic) {
      const [last] = await eventStore.readStream(mqTopicStream(tenant, checked(topic)), {
        direction: 'backwards',
        limit: 1,
      });
      return last === undefined ? -1 : last.revision;
    },
  };
}
