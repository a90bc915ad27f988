import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type UserMessageDelivered,
  type UserMessageDeliveredData,
  type UserMessageEvent,
  userMessageDecider,
  userMessageStream,
} from '../../../domain/bridge/user-message.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const test = suite('user message decider');
const spec = deciderSpec(userMessageDecider);
const NOW = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T11:00:00.000Z';

const message: Omit<UserMessageDeliveredData, 'deliveredAt'> = {
  tenant: 'acme',
  messageId: 'a'.repeat(64),
  userId: 'alice',
  messageType: 'NOTICE',
  messageLevel: 'HIGH',
  body: { text: 'Your claim 42 was approved' },
};
const delivered: UserMessageDelivered = { type: 'UserMessageDelivered', data: { ...message, deliveredAt: NOW } };

test('the stream is userMessage-<tenant>.<messageId>', () => {
  assert.is(userMessageStream('acme', 'abc'), 'userMessage-acme.abc');
});

test('delivering into an empty stream records the message', () => {
  spec.given([]).when({ type: 'DeliverUserMessage', data: message, now: NOW }).then([delivered]);
});

test('a redelivery of the same delivery is a no-op', () => {
  spec
    .given([delivered])
    .when({ type: 'DeliverUserMessage', data: { ...message, body: 'changed' }, now: LATER })
    .then([]);
});

test('a message needs a user id and a body; attributes are short strings', () => {
  spec
    .given([])
    .when({ type: 'DeliverUserMessage', data: { ...message, userId: ' ' }, now: NOW })
    .thenThrows('USER_MESSAGE.INVALID', 400);
  spec
    .given([])
    .when({ type: 'DeliverUserMessage', data: { ...message, body: undefined }, now: NOW })
    .thenThrows('USER_MESSAGE.INVALID', 400);
  spec
    .given([])
    .when({ type: 'DeliverUserMessage', data: { ...message, productLine: 'x'.repeat(257) }, now: NOW })
    .thenThrows('USER_MESSAGE.INVALID', 400);
});

test('the owner marks it read once; again is a no-op', () => {
  const read: UserMessageEvent = {
    type: 'UserMessageRead',
    data: { tenant: 'acme', messageId: message.messageId, userId: 'alice', at: LATER },
  };
  spec.given([delivered]).when({ type: 'MarkUserMessageRead', userId: 'alice', now: LATER }).then([read]);
  spec.given([delivered, read]).when({ type: 'MarkUserMessageRead', userId: 'alice', now: LATER }).then([]);
});

test('another user, or no message: not found', () => {
  spec
    .given([delivered])
    .when({ type: 'MarkUserMessageRead', userId: 'bob', now: LATER })
    .thenThrows('USER_MESSAGE.NOT_FOUND', 404);
  spec
    .given([])
    .when({ type: 'MarkUserMessageRead', userId: 'alice', now: LATER })
    .thenThrows('USER_MESSAGE.NOT_FOUND', 404);
});

test('evolve keeps the read time', () => {
  let s = userMessageDecider.initialState();
  s = userMessageDecider.evolve(s, delivered);
  s = userMessageDecider.evolve(s, {
    type: 'UserMessageRead',
    data: { tenant: 'acme', messageId: message.messageId, userId: 'alice', at: LATER },
  });
  assert.equal(s, { status: 'delivered', message: { ...message, deliveredAt: NOW }, readAt: LATER });
});

test.run();
