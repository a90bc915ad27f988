import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type EnqueueMessage,
  type MqTopicEvent,
  mqTopicDecider,
  mqTopicStream,
  parseAppNames,
  visibleTo,
} from '../../../domain/bridge/mq.decider.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(mqTopicDecider);
const now = '2026-03-01T10:00:00.000Z';
const enqueue = (o: Partial<EnqueueMessage> = {}): EnqueueMessage => ({
  type: 'EnqueueMessage',
  tenant: 'acme',
  topic: 'claims.created',
  sendType: 'APP',
  apps: ['claims-svc', 'audit-svc'],
  body: { claimId: 'C1' },
  deliveryId: 'd-1',
  bodyBytes: 17,
  now,
  ...o,
});
const enqueued = (o: Partial<MqTopicEvent['data']> = {}): MqTopicEvent => ({
  type: 'MessageEnqueued',
  data: {
    tenant: 'acme',
    topic: 'claims.created',
    sendType: 'APP',
    apps: ['claims-svc', 'audit-svc'],
    body: { claimId: 'C1' },
    deliveryId: 'd-1',
    enqueuedAt: now,
    ...o,
  },
});

test('stream: one per (tenant, topic); topics may hold dots and colons', () => {
  assert.is(mqTopicStream('acme', 'claims.created'), 'mqTopic-acme.claims.created');
});

test('enqueue: MessageEnqueued (BROADCAST records no apps)', () => {
  spec.given([]).when(enqueue()).then([enqueued()]);
  spec
    .given([enqueued()])
    .when(enqueue({ sendType: 'BROADCAST', apps: ['ignored'], deliveryId: 'd-2' }))
    .then([enqueued({ sendType: 'BROADCAST', apps: [], deliveryId: 'd-2' })]);
});

test('bad messages: 400 MQ.INVALID_MESSAGE', () => {
  spec
    .given([])
    .when(enqueue({ topic: 'a/b' }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
  spec
    .given([])
    .when(enqueue({ apps: [] }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
  spec
    .given([])
    .when(enqueue({ apps: ['bad name'] }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
  spec
    .given([])
    .when(enqueue({ sendType: 'MULTICAST' as never }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
  spec
    .given([])
    .when(enqueue({ bodyBytes: 256 * 1024 + 1 }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
  spec
    .given([])
    .when(enqueue({ body: undefined }))
    .thenThrows('MQ.INVALID_MESSAGE', 400);
});

test('the fold counts messages; visibility: APP to the named apps, BROADCAST to all', () => {
  assert.equal(fold(mqTopicDecider, [enqueued(), enqueued({ deliveryId: 'd-2' })]), {
    messages: 2,
    lastEnqueuedAt: now,
  });
  assert.ok(visibleTo(enqueued().data, 'claims-svc'));
  assert.not.ok(visibleTo(enqueued().data, 'billing-svc'));
  assert.ok(visibleTo(enqueued({ sendType: 'BROADCAST', apps: [] }).data, 'billing-svc'));
  assert.equal(parseAppNames(' claims-svc, audit-svc ,,claims-svc'), ['claims-svc', 'audit-svc']);
});

test.run();
