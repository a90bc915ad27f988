import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { type TccCommand, type TccEvent, tccDecider, tccView } from '../../../domain/hub/tcc.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { acceptedEvent, T0 } from './notification-fixtures.ts';

const spec = deciderSpec(tccDecider);
const accepted = acceptedEvent().data as any;
const ids = { CommandId: 'cmd-1', Xid: 'xid-1', BranchId: 'b-1' };
const tryCmd: TccCommand = {
  type: 'Try',
  ...ids,
  RequestId: accepted.Notification.RequestId,
  NotificationId: accepted.Notification.NotificationId,
  RequestHash: 'h1',
  Prepared: {
    Notification: accepted.Notification,
    Messages: accepted.Messages,
    Acknowledgement: accepted.Acknowledgement,
  },
  now: T0,
};
const { type: _t, now: _n, ...tryData } = tryCmd as Extract<TccCommand, { type: 'Try' }>;
const tried: TccEvent = { type: 'TccTried', data: { ...tryData, At: T0 } };
const confirmed: TccEvent = { type: 'TccConfirmed', data: { CommandId: 'cmd-1', At: T0 } };
const claimed = (fence: number): TccEvent => ({
  type: 'TccClaimed',
  data: { CommandId: 'cmd-1', Fence: fence, Owner: `w${fence}`, At: T0 },
});
const materialized: TccEvent = {
  type: 'TccMaterialized',
  data: { CommandId: 'cmd-1', Fence: 2, Result: 'CREATED', Acknowledgement: accepted.Acknowledgement, At: T0 },
};
const cancel: TccCommand = { type: 'Cancel', ...ids, now: T0 };

test('Try persists the prepared command (PREPARED); the same Try again appends nothing; other content is a conflict', () => {
  spec.given([]).when(tryCmd).then([tried]);
  spec.given([tried]).when(tryCmd).then([]);
  spec
    .given([tried])
    .when({ ...tryCmd, RequestHash: 'h2' } as TccCommand)
    .thenThrows('TCC.CONFLICT', 409);
  assert.is(tccView(fold(tccDecider, [tried]) as any).Status, 'PREPARED');
});

test('Confirm marks it READY; a second Confirm answers the original (nothing appended); Confirm without Try is 404', () => {
  spec.given([tried]).when({ type: 'Confirm', now: T0 }).then([confirmed]);
  spec.given([tried, confirmed]).when({ type: 'Confirm', now: '2030-01-01T00:00:00.000Z' }).then([]);
  spec
    .given([tried, confirmed, claimed(1), materialized])
    .when({ type: 'Confirm', now: T0 })
    .then([]);
  spec.given([]).when({ type: 'Confirm', now: T0 }).thenThrows('TCC.NOT_FOUND', 404);
  assert.is(tccView(fold(tccDecider, [tried, confirmed]) as any).Status, 'READY');
});

test('Cancel prevents materialization; Confirm after Cancel is refused; Cancel after Confirm is refused', () => {
  const cancelled: TccEvent = { type: 'TccCancelled', data: { ...ids, Tombstone: false, At: T0 } };
  spec.given([tried]).when(cancel).then([cancelled]);
  spec.given([tried, cancelled]).when(cancel).then([]);
  spec.given([tried, cancelled]).when({ type: 'Confirm', now: T0 }).thenThrows('TCC.CANCELLED', 409);
  spec
    .given([tried, cancelled])
    .when({ type: 'Claim', Fence: 1, Owner: 'w', now: T0 })
    .thenThrows('TCC.STALE_FENCE', 409);
  spec.given([tried, confirmed]).when(cancel).thenThrows('TCC.ALREADY_CONFIRMED', 409);
});

test('an empty rollback (Cancel before any Try) leaves a tombstone that refuses the late Try', () => {
  const tombstone: TccEvent = { type: 'TccCancelled', data: { ...ids, Tombstone: true, At: T0 } };
  spec.given([]).when(cancel).then([tombstone]);
  spec.given([tombstone]).when(tryCmd).thenThrows('TCC.CANCELLED', 409);
  spec.given([tombstone]).when({ type: 'Confirm', now: T0 }).thenThrows('TCC.CANCELLED', 409);
  assert.is(tccView(fold(tccDecider, [tombstone]) as any).Status, 'TOMBSTONE');
});

test('fences: claims must rise; only the current fence completes, once', () => {
  spec
    .given([tried, confirmed])
    .when({ type: 'Claim', Fence: 1, Owner: 'w1', now: T0 })
    .then([claimed(1)]);
  spec
    .given([tried, confirmed, claimed(2)])
    .when({ type: 'Claim', Fence: 1, Owner: 'w1', now: T0 })
    .thenThrows('TCC.STALE_FENCE', 409);
  // the worker whose lease was lost (fence 1) may not complete after fence 2 claimed
  spec
    .given([tried, confirmed, claimed(1), claimed(2)])
    .when({ type: 'Materialize', Fence: 1, Result: 'CREATED', now: T0 })
    .thenThrows('TCC.STALE_FENCE', 409);
  spec
    .given([tried, confirmed, claimed(1), claimed(2)])
    .when({ type: 'Materialize', Fence: 2, Result: 'CREATED', Acknowledgement: accepted.Acknowledgement, now: T0 })
    .then([materialized]);
  spec
    .given([tried, confirmed, claimed(1), claimed(2), materialized])
    .when({ type: 'Materialize', Fence: 2, Result: 'CREATED', now: T0 })
    .thenThrows('TCC.STALE_FENCE', 409);
  spec.given([tried]).when({ type: 'Claim', Fence: 1, Owner: 'w1', now: T0 }).thenThrows('TCC.STALE_FENCE', 409);
  const view = tccView(fold(tccDecider, [tried, confirmed, claimed(1), claimed(2), materialized]) as any);
  assert.is(view.Status, 'MATERIALIZED');
  assert.is(view.Result, 'CREATED');
  assert.equal(view.Acknowledgement, accepted.Acknowledgement);
});

test.run();
