import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type EventAcceptedData,
  type EventRoutedData,
  type PublishedEvent,
  publishedEventDecider,
  publishedStream,
} from '../../../domain/bridge/published-event.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(publishedEventDecider);
const test = suite('published event decider');
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';

const acceptedData: Omit<EventAcceptedData, 'receivedAt'> = {
  key: 'k1',
  event: {
    id: 'e1',
    source: 'shop:checkout',
    type: 'shop:Order:Placed',
    time: '2026-01-01T08:00:00',
    dataContentType: 'application/json',
    eventBusName: 'orders',
    data: { orderId: 1 },
  },
  bus: 'orders',
  busTenant: 'acme',
  busKind: 'custom',
  tenant: 'acme',
  publisher: { tenant: 'acme', subject: 'svc', clientId: 'shop' },
};
const accepted: PublishedEvent = { type: 'EventAccepted', data: { ...acceptedData, receivedAt: T0 } };
const routing: Omit<EventRoutedData, 'routedAt' | 'key'> = {
  evaluated: ['r1'],
  matched: [
    {
      ruleId: 'r1',
      ruleTenant: 'acme',
      platform: false,
      targets: [{ targetId: 1, typeId: 3, conversion: { ok: true, missing: [] }, payload: { a: 1 } }],
    },
  ],
  skipped: [],
  matcherVersion: 'v1',
};
const routed: PublishedEvent = { type: 'EventRouted', data: { key: 'k1', ...routing, routedAt: T1 } };

test('stream', () => {
  assert.is(publishedStream('acme', 'abc'), 'published-acme.abc');
});

test('accept once; a duplicate (source, id) is refused', () => {
  spec.given([]).when({ type: 'AcceptEvent', data: acceptedData, now: T0 }).then([accepted]);
  spec.given([accepted]).when({ type: 'AcceptEvent', data: acceptedData, now: T1 }).thenThrows('EVENT.DUPLICATE', 409);
  spec
    .given([accepted, routed])
    .when({ type: 'AcceptEvent', data: acceptedData, now: T1 })
    .thenThrows('EVENT.DUPLICATE', 409);
});

test('route once: a second routing appends nothing', () => {
  spec.given([accepted]).when({ type: 'RouteEvent', data: routing, now: T1 }).then([routed]);
  spec.given([accepted, routed]).when({ type: 'RouteEvent', data: routing, now: T1 }).then([]);
  spec.given([]).when({ type: 'RouteEvent', data: routing, now: T1 }).thenThrows('EVENT.NOT_FOUND', 404);
});

test.run();
