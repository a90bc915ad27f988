import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import type { Violation } from './violation.ts';

/**
 * The platform message queue (TypeId 2): one topic log per (tenant, topic), kept in the event store as
 * the stream `mqTopic-<tenant>.<topic>`. A message's offset is its revision in that stream (0, 1, 2 …),
 * so "the messages of topic T after offset N" is one indexed stream read from revision N+1, whatever
 * else the log holds. Consumers keep their committed offset per consumer group (commands/bridge/
 * mq-consumers.commands.ts).
 *
 * - sendType APP: visible only to the receiving services named in `apps` (the target's APP_NAME,
 *   a comma-separated list); BROADCAST: visible to every consumer of the topic.
 * - Idempotent per delivery id: the event id is derived from the delivery id (and the stream), so a
 *   delivery attempted twice appends one message (the store answers the stored one). The topic's state is
 *   therefore never needed to decide, and an enqueue never reads the topic: the decider only validates.
 */
export const MQ_TOPIC_CATEGORY = 'mqTopic';
/** topic names: letters, digits and `_ . : -`, 1-200, starting with a letter or digit (no `/`: it is a path segment) */
export const MQ_TOPIC = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;
/** receiving service names are client ids: letters, digits and `_ . : @ -` */
export const MQ_APP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,199}$/;
export const MQ_SEND_TYPES = ['APP', 'BROADCAST'] as const;
export type MqSendType = (typeof MQ_SEND_TYPES)[number];
export const MAX_MQ_APPS = 50;
/** a message body's JSON size limit (the bridge's event size limit) */
export const MAX_MQ_BODY_BYTES = 256 * 1024;

export const mqTopicStream = (tenant: string, topic: string): string => streamName(MQ_TOPIC_CATEGORY, tenant, topic);

export type EnqueueMessage = {
  type: 'EnqueueMessage';
  tenant: string;
  topic: string;
  sendType: MqSendType;
  /** APP: the receiving services; BROADCAST: ignored (recorded empty) */
  apps: string[];
  body: unknown;
  deliveryId: string;
  /** the body's JSON size in bytes, measured by the caller (domain/ has no byte counter of its own) */
  bodyBytes: number;
  now: string;
};

export type MessageEnqueuedData = {
  tenant: string;
  topic: string;
  sendType: MqSendType;
  apps: string[];
  body: unknown;
  deliveryId: string;
  enqueuedAt: string;
};
export type MessageEnqueued = DomainEvent<'MessageEnqueued', MessageEnqueuedData>;
export type MqTopicEvent = MessageEnqueued;
export const MQ_EVENT_TYPES: ReadonlyArray<MqTopicEvent['type']> = ['MessageEnqueued'];

/** How many messages the topic holds and when the last arrived (what a fold of the stream says). */
export type MqTopicState = { messages: number; lastEnqueuedAt?: string };

/** `a, b ,a` → [a, b]: trimmed, empties dropped, first occurrence kept. */
export const parseAppNames = (list: string): string[] => [
  ...new Set(
    list
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
];

/** Is a message visible to the consuming service `app`? */
export const visibleTo = (m: Pick<MessageEnqueuedData, 'sendType' | 'apps'>, app: string): boolean =>
  m.sendType === 'BROADCAST' || m.apps.includes(app);

export function checkEnqueue(c: Omit<EnqueueMessage, 'type' | 'now'>): Violation[] {
  const v: Violation[] = [];
  if (typeof c.topic !== 'string' || !MQ_TOPIC.test(c.topic)) {
    v.push({ field: 'TOPIC', message: 'must be 1-200 letters, digits or _ . : - starting with a letter or digit' });
  }
  if (!MQ_SEND_TYPES.includes(c.sendType)) v.push({ field: 'SEND_TYPE', message: 'must be APP or BROADCAST' });
  if (c.sendType === 'APP') {
    if (!Array.isArray(c.apps) || c.apps.length === 0)
      v.push({ field: 'APP_NAME', message: 'must name at least one receiving service when SEND_TYPE is APP' });
    else if (c.apps.length > MAX_MQ_APPS)
      v.push({ field: 'APP_NAME', message: `at most ${MAX_MQ_APPS} receiving services` });
    else {
      const bad = c.apps.filter((a) => !MQ_APP_NAME.test(a));
      if (bad.length > 0) v.push({ field: 'APP_NAME', message: `not service names: ${bad.slice(0, 5).join(', ')}` });
    }
  }
  if (c.body === undefined) v.push({ field: 'BODY', message: 'is required' });
  else if (c.bodyBytes > MAX_MQ_BODY_BYTES)
    v.push({ field: 'BODY', message: `must be at most ${MAX_MQ_BODY_BYTES} bytes as JSON` });
  if (typeof c.deliveryId !== 'string' || c.deliveryId.length === 0)
    v.push({ field: 'deliveryId', message: 'is required' });
  return v;
}

export const mqTopicDecider: Decider<EnqueueMessage, MqTopicEvent, MqTopicState> = {
  initialState: () => ({ messages: 0 }),

  evolve(state, event) {
    switch (event.type) {
      case 'MessageEnqueued':
        return { messages: state.messages + 1, lastEnqueuedAt: event.data.enqueuedAt };
      default:
        return assertNever(event.type);
    }
  },

  decide(command) {
    const v = checkEnqueue(command);
    if (v.length > 0) {
      throw bridgeError(
        'MQ.INVALID_MESSAGE',
        `invalid message: ${v.map((x) => `${x.field} ${x.message}`).join('; ')}`,
        v,
      );
    }
    return [
      {
        type: 'MessageEnqueued',
        data: {
          tenant: command.tenant,
          topic: command.topic,
          sendType: command.sendType,
          apps: command.sendType === 'APP' ? command.apps : [],
          body: command.body,
          deliveryId: command.deliveryId,
          enqueuedAt: command.now,
        },
      },
    ];
  },
};
