import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type BusEvent,
  busDecider,
  busStream,
  reservedKind,
  resolveBusRef,
} from '../../../domain/bridge/bus.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(busDecider);
const test = suite('bus decider');
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';

const created = (name: string, kind: 'platform' | 'baseline' | 'custom', tenant: string): BusEvent => ({
  type: 'BusCreated',
  data: { name, kind, tenant, createdAt: T0 },
});
const create = (
  name: string,
  kind: 'platform' | 'baseline' | 'custom',
  tenant: string,
  actorTenant = tenant,
  description?: string,
) => ({
  type: 'CreateBus' as const,
  name,
  kind,
  tenant,
  actorTenant,
  now: T0,
  ...(description !== undefined && { description }),
});

test('stream name and reserved names', () => {
  assert.is(busStream('acme', 'orders'), 'bus-acme.orders');
  assert.is(busStream('platform', 'platform'), 'bus-platform.platform');
  assert.is(reservedKind('platform'), 'platform');
  assert.is(reservedKind('platform-batch'), 'platform');
  assert.is(reservedKind('Platform'), 'platform');
  assert.is(reservedKind('platforms'), 'custom');
  assert.is(reservedKind('baseline-claim'), 'baseline');
  assert.is(reservedKind('baseline'), 'custom');
  assert.is(reservedKind('orders'), 'custom');
});

test('resolveBusRef: plain names in the caller tenant, reserved names on the platform, qualified names', () => {
  assert.equal(resolveBusRef('orders', 'acme'), { tenant: 'acme', name: 'orders' });
  assert.equal(resolveBusRef('platform', 'acme'), { tenant: 'platform', name: 'platform' });
  assert.equal(resolveBusRef('baseline-claim', 'acme'), { tenant: 'platform', name: 'baseline-claim' });
  assert.equal(resolveBusRef('beta/orders', 'acme'), { tenant: 'beta', name: 'orders' });
  assert.equal(resolveBusRef('platform/platform', 'acme'), { tenant: 'platform', name: 'platform' });
  assert.is(resolveBusRef('beta/platform', 'acme'), null);
  assert.is(resolveBusRef('bad name', 'acme'), null);
  assert.is(resolveBusRef('BAD TENANT/orders', 'acme'), null);
  assert.is(resolveBusRef('', 'acme'), null);
});

test('a tenant creates a custom bus', () => {
  spec
    .given([])
    .when(create('orders', 'custom', 'acme', 'acme', 'order events'))
    .then([
      {
        type: 'BusCreated',
        data: { name: 'orders', kind: 'custom', tenant: 'acme', description: 'order events', createdAt: T0 },
      },
    ]);
});

test('names are unique per tenant: 409 when it exists', () => {
  spec
    .given([created('orders', 'custom', 'acme')])
    .when(create('orders', 'custom', 'acme'))
    .thenThrows('BUS.EXISTS', 409);
});

test('a deleted bus may be created again', () => {
  spec
    .given([
      created('orders', 'custom', 'acme'),
      { type: 'BusDeleted', data: { name: 'orders', tenant: 'acme', kind: 'custom', deletedAt: T1 } },
    ])
    .when(create('orders', 'custom', 'acme'))
    .then([created('orders', 'custom', 'acme')]);
});

test('reserved names cannot be custom buses', () => {
  spec
    .given([])
    .when(create('platform', 'custom', 'acme'))
    .thenThrows('BUS.NAME_RESERVED', 400);
  spec
    .given([])
    .when(create('platform-x', 'custom', 'acme'))
    .thenThrows('BUS.NAME_RESERVED', 400);
  spec
    .given([])
    .when(create('baseline-x', 'custom', 'acme'))
    .thenThrows('BUS.NAME_RESERVED', 400);
});

test('platform and baseline buses: only the platform tenant, with a matching name', () => {
  spec
    .given([])
    .when(create('platform', 'platform', 'platform'))
    .then([created('platform', 'platform', 'platform')]);
  spec
    .given([])
    .when(create('baseline-claim', 'baseline', 'platform'))
    .then([created('baseline-claim', 'baseline', 'platform')]);
  spec
    .given([])
    .when(create('platform-x', 'platform', 'platform', 'acme'))
    .thenThrows('BUS.FORBIDDEN', 403);
  spec
    .given([])
    .when(create('orders', 'platform', 'platform'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('platform-x', 'baseline', 'platform'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('platform-x', 'platform', 'acme', 'platform'))
    .thenThrows('BUS.INVALID', 400);
});

test('invalid names and descriptions', () => {
  spec
    .given([])
    .when(create('bad name', 'custom', 'acme'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('a~b', 'custom', 'acme'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('a/b', 'custom', 'acme'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('x'.repeat(65), 'custom', 'acme'))
    .thenThrows('BUS.INVALID', 400);
  spec
    .given([])
    .when(create('orders', 'custom', 'acme', 'acme', 'd'.repeat(501)))
    .thenThrows('BUS.INVALID', 400);
});

test('delete: the owner deletes a custom bus; platform buses only by the platform', () => {
  spec
    .given([created('orders', 'custom', 'acme')])
    .when({ type: 'DeleteBus', actorTenant: 'acme', now: T1 })
    .then([{ type: 'BusDeleted', data: { name: 'orders', tenant: 'acme', kind: 'custom', deletedAt: T1 } }]);
  spec
    .given([created('orders', 'custom', 'acme')])
    .when({ type: 'DeleteBus', actorTenant: 'beta', now: T1 })
    .thenThrows('BUS.FORBIDDEN', 403);
  spec
    .given([created('platform', 'platform', 'platform')])
    .when({ type: 'DeleteBus', actorTenant: 'acme', now: T1 })
    .thenThrows('BUS.FORBIDDEN', 403);
  spec
    .given([created('platform-x', 'platform', 'platform')])
    .when({ type: 'DeleteBus', actorTenant: 'platform', now: T1 })
    .then([{ type: 'BusDeleted', data: { name: 'platform-x', tenant: 'platform', kind: 'platform', deletedAt: T1 } }]);
  spec.given([]).when({ type: 'DeleteBus', actorTenant: 'acme', now: T1 }).thenThrows('BUS.NOT_FOUND', 404);
  spec
    .given([
      created('orders', 'custom', 'acme'),
      { type: 'BusDeleted', data: { name: 'orders', tenant: 'acme', kind: 'custom', deletedAt: T1 } },
    ])
    .when({ type: 'DeleteBus', actorTenant: 'acme', now: T1 })
    .thenThrows('BUS.NOT_FOUND', 404);
});

test('evolve: state after create and delete', () => {
  let s = busDecider.initialState();
  s = busDecider.evolve(s, created('orders', 'custom', 'acme'));
  assert.is(s.status, 'active');
  s = busDecider.evolve(s, {
    type: 'BusDeleted',
    data: { name: 'orders', tenant: 'acme', kind: 'custom', deletedAt: T1 },
  });
  assert.is(s.status, 'deleted');
});

test.run();
