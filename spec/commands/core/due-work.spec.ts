import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { claimDueItem, createDueWorkScheduler, type DueItem } from '../../../commands/core/due-work.ts';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { caughtUp as caughtUpAll, eventually } from '../../core/eventually.ts';

/** Test-only: reminders become due items; a sent reminder leaves the read model. */
const reminders: Projection = {
  name: 'test.reminders',
  version: 1,
  categories: ['reminder'],
  collections: { due: { indexes: [{ name: 'by_due', fields: { dueAt: 1 } }] } },
  async apply(events, store) {
    const due = store.collection<DueItem>('due');
    for (const e of events) {
      if (e.type === 'ReminderScheduled')
        await due.upsert({ id: e.stream, dueAt: (e.data as { dueAt: string }).dueAt, leaseUntil: '' });
      if (e.type === 'ReminderSent') await due.delete(e.stream);
    }
  },
};

const dir = mkdtempSync(path.join(tmpdir(), 'due-'));
const clock = manualClock('2026-11-22T10:00:00.000Z');
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 10 });
const readStoreA = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const readStoreB = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') }); // as a second process would
const runner = createProjectionRunner({ eventStore, readStore: readStoreA, projection: reminders, clock });
const handled: string[] = [];
const meta = { tenant: 't', occurredAt: 'x', schemaVersion: 1 };

async function send(item: DueItem) {
  handled.push(item.id);
  await eventStore.append(
    item.id,
    [{ id: eventIdFor(`sent:${item.id}`, 0), type: 'ReminderSent', data: {}, metadata: meta }],
    'any',
  );
}
const scheduler = (readStore: typeof readStoreA, owner: string) =>
  createDueWorkScheduler({
    items: liveCollection<DueItem>(readStore, 'test.reminders', 'due'),
    clock,
    owner,
    leaseMs: 60_000,
    handle: send,
  });

const caughtUp = () => caughtUpAll(runner);

test.before(async () => {
  for (let i = 0; i < 10; i++) {
    const dueAt = new Date(Date.parse('2026-11-22T10:00:00.000Z') + (i < 5 ? -1000 * i : 3_600_000)).toISOString();
    await eventStore.append(
      `reminder-t.r${i}`,
      [{ id: eventIdFor(`r${i}`, 0), type: 'ReminderScheduled', data: { dueAt }, metadata: meta }],
      'no_stream',
    );
  }
  runner.start();
  await caughtUp();
});
test.after(async () => {
  await runner.stop();
  await eventStore.close();
  await readStoreA.close();
  await readStoreB.close();
  rmSync(dir, { recursive: true, force: true });
});

test('two schedulers on two store connections run each due item exactly once, oldest first', async () => {
  const [a, b] = await Promise.all([scheduler(readStoreA, 'a').runDue(), scheduler(readStoreB, 'b').runDue()]);
  assert.is(a + b, 5);
  assert.equal([...handled].sort(), [
    'reminder-t.r0',
    'reminder-t.r1',
    'reminder-t.r2',
    'reminder-t.r3',
    'reminder-t.r4',
  ]);
});

test('once the outcome event is projected the item is gone; items not yet due wait for the clock', async () => {
  await caughtUp();
  assert.is(await scheduler(readStoreA, 'a').runDue(), 0);
  clock.advance(3_600_000);
  assert.is(await scheduler(readStoreA, 'a').runDue(), 5);
  assert.is(handled.length, 10);
});

test('a worker that dies holding a lease: the item comes back after the lease expires', async () => {
  await eventStore.append(
    'reminder-t.crash',
    [
      {
        id: eventIdFor('crash', 0),
        type: 'ReminderScheduled',
        data: { dueAt: clock.now().toISOString() },
        metadata: meta,
      },
    ],
    'no_stream',
  );
  await caughtUp();
  const items = await liveCollection<DueItem>(readStoreA, 'test.reminders', 'due')();
  const claimed = await claimDueItem(items, clock.now(), 'doomed-worker', 60_000);
  assert.is(claimed!.id, 'reminder-t.crash');
  assert.is(claimed!.leases, 1);
  assert.is(await scheduler(readStoreB, 'b').runDue(), 0, 'leased: nobody else runs it');
  clock.advance(60_001);
  assert.is(await scheduler(readStoreB, 'b').runDue(), 1);
  assert.is(handled[handled.length - 1], 'reminder-t.crash');
});

test('start/stop: the loop picks up work that becomes due', async () => {
  const s = scheduler(readStoreA, 'loop');
  await eventStore.append(
    'reminder-t.loop',
    [
      {
        id: eventIdFor('loop', 0),
        type: 'ReminderScheduled',
        data: { dueAt: clock.now().toISOString() },
        metadata: meta,
      },
    ],
    'no_stream',
  );
  await caughtUp();
  s.start();
  await eventually(() => handled.includes('reminder-t.loop'), 'the loop ran the item');
  await s.stop();
  assert.ok(handled.includes('reminder-t.loop'));
});

test.run();
