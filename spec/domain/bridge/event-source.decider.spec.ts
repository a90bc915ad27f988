import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  eventSourceDecider,
  eventSourceStream,
  type SourceCommand,
  type SourceEvent,
} from '../../../domain/bridge/event-source.decider.ts';
import type { Bus } from '../../../domain/bridge/model.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(eventSourceDecider);
const test = suite('event source decider');
const T0 = '2026-01-01T00:00:00.000Z';

const platformBus: Bus = { name: 'platform', kind: 'platform', tenant: 'platform' };
const baselineBus: Bus = { name: 'baseline-claim', kind: 'baseline', tenant: 'platform' };
const orders: Bus = { name: 'orders', kind: 'custom', tenant: 'acme' };

const register = (bus: Bus, o: Partial<SourceCommand> = {}): SourceCommand => ({
  type: 'RegisterSource',
  bus,
  name: 'shop:checkout',
  kind: 'sdk',
  eventTypes: ['shop:Order:Placed'],
  actorTenant: bus.tenant,
  now: T0,
  ...o,
});
const registered = (bus: Bus, o: Partial<SourceEvent['data']> = {}): SourceEvent => ({
  type: 'SourceRegistered',
  data: {
    bus: bus.name,
    name: 'shop:checkout',
    kind: 'sdk',
    tenant: bus.tenant,
    eventTypes: ['shop:Order:Placed'],
    registeredAt: T0,
    ...o,
  },
});

test('stream', () => {
  assert.is(eventSourceStream('platform', 'platform', 'batchv2:Alter'), 'eventSource-platform.platform~batchv2:Alter');
});

test('a tenant registers an sdk or webhook source on its custom bus', () => {
  spec
    .given([])
    .when(register(orders))
    .then([registered(orders)]);
  spec
    .given([])
    .when(register(orders, { kind: 'webhook' }))
    .then([registered(orders, { kind: 'webhook' })]);
});

test('platform sources only on platform buses, and with a schema', () => {
  spec
    .given([])
    .when(
      register(platformBus, {
        name: 'batchv2:Alter',
        kind: 'platform',
        eventTypes: ['batchv2:Alter:JobAlter'],
        schemaId: '100000000000003',
      }),
    )
    .then([
      registered(platformBus, {
        name: 'batchv2:Alter',
        kind: 'platform',
        eventTypes: ['batchv2:Alter:JobAlter'],
        schemaId: '100000000000003',
      }),
    ]);
  spec
    .given([])
    .when(register(platformBus, { kind: 'platform' }))
    .thenThrows('SOURCE.INVALID', 400);
  spec
    .given([])
    .when(register(orders, { kind: 'platform', schemaId: '1', actorTenant: 'platform' }))
    .thenThrows('SOURCE.PLATFORM_BUS_ONLY', 400);
  spec
    .given([])
    .when(register(baselineBus, { kind: 'platform', schemaId: '1' }))
    .thenThrows('SOURCE.PLATFORM_BUS_ONLY', 400);
});

test('sources of platform and baseline buses are registered by the platform only; custom by the owner', () => {
  spec
    .given([])
    .when(register(platformBus, { actorTenant: 'acme' }))
    .thenThrows('SOURCE.FORBIDDEN', 403);
  spec
    .given([])
    .when(register(baselineBus, { actorTenant: 'acme' }))
    .thenThrows('SOURCE.FORBIDDEN', 403);
  spec
    .given([])
    .when(register(orders, { actorTenant: 'beta' }))
    .thenThrows('SOURCE.FORBIDDEN', 403);
  spec
    .given([])
    .when(register(baselineBus))
    .then([registered(baselineBus)]);
});

test('registering again: same content appends nothing, other content replaces', () => {
  spec
    .given([registered(orders)])
    .when(register(orders))
    .then([]);
  spec
    .given([registered(orders)])
    .when(register(orders, { eventTypes: ['shop:Order:Placed', 'shop:Order:Cancelled'] }))
    .then([registered(orders, { eventTypes: ['shop:Order:Placed', 'shop:Order:Cancelled'] })]);
});

test('event types are deduplicated and checked; names checked', () => {
  spec
    .given([])
    .when(register(orders, { eventTypes: ['a', 'a', 'b'] }))
    .then([registered(orders, { eventTypes: ['a', 'b'] })]);
  spec
    .given([])
    .when(register(orders, { eventTypes: [''] }))
    .thenThrows('SOURCE.INVALID', 400);
  spec
    .given([])
    .when(register(orders, { eventTypes: Array.from({ length: 101 }, (_, i) => `t${i}`) }))
    .thenThrows('SOURCE.INVALID', 400);
  spec
    .given([])
    .when(register(orders, { name: 'has space' }))
    .thenThrows('SOURCE.INVALID', 400);
  spec
    .given([])
    .when(register(orders, { name: 'a~b' }))
    .thenThrows('SOURCE.INVALID', 400);
  spec
    .given([])
    .when(register(orders, { kind: 'bogus' as never }))
    .thenThrows('SOURCE.INVALID', 400);
});

test.run();
