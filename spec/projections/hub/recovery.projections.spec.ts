// The hub's recovery projections on the embedded read store: hub.tcc (a READY command's due item, removed when
// materialized or cancelled; a rebuild keeps the item's lease count at the highest fence claimed), hub.sweep
// (open work per message with the notification's ExpiresAt) and hub.alerts (one outbox item per alert).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { NotificationEvent } from '../../../domain/hub/notification.model.ts';
import type { TccEvent } from '../../../domain/hub/tcc.decider.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { ensureGeneration } from '../../../projections/core/checkpoints.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { projectionStore } from '../../../projections/core/projection-store.ts';
import { alertsProjection } from '../../../projections/hub/alerts.projection.ts';
import { dispatchProjection } from '../../../projections/hub/dispatch.projection.ts';
import { sweepProjection } from '../../../projections/hub/sweep.projection.ts';
import { tccProjection } from '../../../projections/hub/tcc.projection.ts';
import { acceptedEvent, mid, T0 } from '../../domain/hub/notification-fixtures.ts';
import { applyCountingReads as countingReads } from '../core/fixtures/counting-reads.ts';

const test = suite('hub recovery projections');
let dir: string;
let store: ReadStore;
let position = 0;
const recorded = (e: { type: string; data: unknown }, stream: string): RecordedEvent =>
  ({
    id: `e${++position}`,
    type: e.type,
    data: e.data,
    stream,
    revision: 0,
    position: String(position).padStart(20, '0'),
    metadata: { tenant: 'acme', occurredAt: T0, schemaVersion: 1 },
  }) as RecordedEvent;
const apply = async (projection: Projection, events: RecordedEvent[], generation = 1) => {
  await ensureGeneration(store, projection, generation);
  await store.transaction((tx) => projection.apply(events, projectionStore(tx, projection, generation)));
};
const applyCountingReads = (projection: Projection, events: RecordedEvent[], o: { late?: true } = {}) =>
  countingReads(store, projection, events, o);
const col = (projection: Projection, name: string, generation = 1) =>
  store.collection<any>(`${projection.name}__${name}__g${generation}`);

test.before.each(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hub-recovery-proj-'));
  store = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
});
test.after.each(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const TCC = 'hubTcc-acme.c1';
const tcc = (e: TccEvent) => recorded(e, TCC);
const confirmed = tcc({ type: 'TccConfirmed', data: { CommandId: 'c1', At: T0 } });
const claimed = (fence: number) =>
  tcc({ type: 'TccClaimed', data: { CommandId: 'c1', Fence: fence, Owner: 'w', At: T0 } });

test('hub.tcc: Confirm writes a free due item, a claim leaves its lease, materialization removes it', async () => {
  await apply(tccProjection, [confirmed]);
  const due = col(tccProjection, 'due');
  assert.equal(await due.get('c1'), {
    id: 'c1',
    stream: TCC,
    tenant: 'acme',
    kind: 'materialize',
    dueAt: T0,
    leaseUntil: '',
  });
  await due.patch('c1', { $set: { leaseUntil: '2099-01-01T00:00:00.000Z', leaseOwner: 'w' }, $inc: { leases: 1 } });
  await apply(tccProjection, [claimed(1)]);
  assert.equal([(await due.get('c1')).leaseUntil, (await due.get('c1')).leases], ['2099-01-01T00:00:00.000Z', 1]);
  await apply(tccProjection, [
    tcc({ type: 'TccMaterialized', data: { CommandId: 'c1', Fence: 1, Result: 'CREATED', At: T0 } }),
  ]);
  assert.is(await due.get('c1'), null);
});

test('hub.tcc: a rebuild keeps the lease count at the highest fence claimed (new claims stay above it)', async () => {
  await apply(tccProjection, [confirmed, claimed(1), claimed(2)], 2);
  assert.is((await col(tccProjection, 'due', 2).get('c1')).leases, 2);
  await apply(
    tccProjection,
    [tcc({ type: 'TccCancelled', data: { CommandId: 'c1', Xid: 'x', BranchId: 'b', Tombstone: false, At: T0 } })],
    2,
  );
  assert.is(await col(tccProjection, 'due', 2).get('c1'), null);
});

test('hub.sweep: open work per message with the notification ExpiresAt; settled work leaves', async () => {
  const accepted = acceptedEvent() as NotificationEvent & { data: any };
  accepted.data.Notification.ExpiresAt = '2026-03-02T00:00:00.000Z';
  const stream = `hubNotification-acme.${accepted.data.Notification.NotificationId}`;
  await apply(sweepProjection, [recorded(accepted, stream)]);
  const open = col(sweepProjection, 'open');
  const doc = await open.get(mid(1));
  assert.equal(
    [doc.kind, doc.at, doc.expiresAt, doc.stream],
    ['dispatch', accepted.data.Messages[0].DueAt, '2026-03-02T00:00:00.000Z', stream],
  );
  await apply(sweepProjection, [
    recorded(
      {
        type: 'MessageFailed',
        data: {
          MessageId: mid(1),
          AttemptId: 'a',
          Source: 'RESPONSE',
          Definite: 'RETRYABLE',
          Error: 'x',
          NextRetryTime: '2026-03-01T01:00:00.000Z',
          Final: false,
          At: T0,
        },
      },
      stream,
    ),
  ]);
  assert.equal(
    [(await open.get(mid(1))).kind, (await open.get(mid(1))).expiresAt],
    ['retry', '2026-03-02T00:00:00.000Z'],
  );
  await apply(sweepProjection, [recorded({ type: 'MessageExpired', data: { MessageId: mid(1), At: T0 } }, stream)]);
  assert.is(await open.get(mid(1)), null);
});

test('hub.dispatch and hub.sweep: an acceptance reads nothing (its messages have no items yet, it carries ExpiresAt); a later event with work reads', async () => {
  const accepted = acceptedEvent({ count: 2, expiresAt: '2026-03-02T00:00:00.000Z' });
  const stream = `hubNotification-acme.${(accepted.data as any).Notification.NotificationId}`;
  for (const projection of [dispatchProjection, sweepProjection])
    assert.is(await applyCountingReads(projection, [recorded(accepted, stream)]), 0, projection.name);
  assert.equal((await col(sweepProjection, 'open').get(mid(2))).expiresAt, '2026-03-02T00:00:00.000Z');
  assert.equal((await col(dispatchProjection, 'due').get(mid(2))).kind, 'dispatch');
  const failed = recorded(
    {
      type: 'MessageFailed',
      data: {
        MessageId: mid(1),
        AttemptId: 'a',
        Source: 'RESPONSE',
        Definite: 'RETRYABLE',
        Error: 'x',
        NextRetryTime: '2026-03-01T01:00:00.000Z',
        Final: false,
        At: T0,
      },
    },
    stream,
  );
  for (const projection of [dispatchProjection, sweepProjection])
    assert.is(await applyCountingReads(projection, [failed]), 1, projection.name);
  assert.equal(
    [(await col(sweepProjection, 'open').get(mid(1))).kind, (await col(sweepProjection, 'open').get(mid(1))).expiresAt],
    ['retry', '2026-03-02T00:00:00.000Z'],
  );
  // work settled (no item left): the sweep needs no ExpiresAt for it
  const expired = recorded({ type: 'MessageExpired', data: { MessageId: mid(2), At: T0 } }, stream);
  assert.is(await applyCountingReads(sweepProjection, [expired]), 0);
  assert.is(await col(sweepProjection, 'open').get(mid(2)), null);
});

test('hub.dispatch: a parked acceptance applied late reads the items and keeps one that is as it says (its lease too)', async () => {
  const accepted = acceptedEvent();
  const stream = `hubNotification-acme.${(accepted.data as any).Notification.NotificationId}`;
  await applyCountingReads(dispatchProjection, [recorded(accepted, stream)]);
  const due = col(dispatchProjection, 'due');
  await due.patch(mid(1), { $set: { leaseUntil: '2099-01-01T00:00:00.000Z', leaseOwner: 'w' } });
  assert.is(await applyCountingReads(dispatchProjection, [recorded(accepted, stream)], { late: true }), 1);
  assert.is((await due.get(mid(1))).leaseUntil, '2099-01-01T00:00:00.000Z');
});

test('hub.sweep: a page that holds the acceptance and later events of a notification reads its ExpiresAt nowhere', async () => {
  const accepted = acceptedEvent({ expiresAt: '2026-03-02T00:00:00.000Z' });
  const stream = `hubNotification-acme.${(accepted.data as any).Notification.NotificationId}`;
  const failed = recorded(
    {
      type: 'MessageFailed',
      data: {
        MessageId: mid(1),
        AttemptId: 'a',
        Source: 'RESPONSE',
        Definite: 'RETRYABLE',
        Error: 'x',
        NextRetryTime: '2026-03-01T01:00:00.000Z',
        Final: false,
        At: T0,
      },
    },
    stream,
  );
  assert.is(await applyCountingReads(sweepProjection, [recorded(accepted, stream), failed]), 0);
  assert.equal(
    [(await col(sweepProjection, 'open').get(mid(1))).kind, (await col(sweepProjection, 'open').get(mid(1))).expiresAt],
    ['retry', '2026-03-02T00:00:00.000Z'],
  );
});

test('hub.alerts: one outbox item per AlertRaised, keyed by the event id', async () => {
  const e = recorded(
    { type: 'AlertRaised', data: { MessageId: mid(1), Classification: 'DEFINITE_FINAL_FAILURE', Reason: 'r', At: T0 } },
    'hubNotification-acme.n',
  );
  await apply(alertsProjection, [e]);
  assert.equal(await col(alertsProjection, 'outbox').get(e.id), {
    id: e.id,
    stream: 'hubNotification-acme.n',
    tenant: 'acme',
    kind: 'alert',
    messageId: mid(1),
    dueAt: T0,
    leaseUntil: '',
  });
});

test.run();
