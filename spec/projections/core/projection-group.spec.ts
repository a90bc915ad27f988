import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createLogReader } from '../../../infra/core/log-reader.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { readCheckpoint } from '../../../projections/core/checkpoints.ts';
import { listParked, retryParked } from '../../../projections/core/parked-events.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { createProjectionGroup } from '../../../projections/core/projection-group.ts';
import { readModel } from '../../../projections/core/read-model.ts';

type Ctx = { dir: string; eventStore: EventStore; readStore: ReadStore };
const test = suite<Ctx>('projection group: one transaction per page, a savepoint each, parked events', {} as Ctx);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'group-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let n = 0;
const meta = { tenant: 't', occurredAt: '2026-11-23T00:00:00.000Z', schemaVersion: 1 };
async function emit(store: EventStore, type: string) {
  const id = `e${++n}`;
  await store.append(
    `item-t.${id}`,
    [{ id: eventIdFor(id, 0), type, data: { n } }].map((e) => ({ ...e, metadata: meta })),
    'no_stream',
  );
}

/** counts items per event; `poisoned` throws on Poison events after writing (the write must be undone) */
const counter = (name: string, o: { poisoned?: () => boolean } = {}): Projection => ({
  name,
  version: 1,
  categories: ['item'],
  collections: { items: {} },
  async apply(events, store) {
    const items = store.collection<{ id: string; type: string; applied: number }>('items');
    for (const e of events) {
      const prev = await items.get(e.stream);
      await items.upsert({ id: e.stream, type: e.type, applied: (prev?.applied ?? 0) + 1 });
      if (e.type === 'Poison' && o.poisoned?.()) throw new Error(`${name} cannot apply ${e.type}`);
    }
  },
});

test('a projection that throws on one event parks it and goes on; the others of the group never notice', async ({
  eventStore,
  readStore,
}) => {
  let poisoned = true;
  const healthy = counter('test.healthy');
  const fragile = counter('test.fragile', { poisoned: () => poisoned });
  const group = createProjectionGroup({
    eventStore,
    readStore,
    projections: [healthy, fragile],
    clock: systemClock,
    maxAttempts: 2,
  });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  reader.start();
  await reader.reached(await eventStore.headPosition());

  for (let i = 0; i < 5; i++) await emit(eventStore, 'Plain');
  await emit(eventStore, 'Poison');
  for (let i = 0; i < 5; i++) await emit(eventStore, 'Plain');
  const head = await eventStore.headPosition();
  await reader.reached(head);

  const count = async (p: string) =>
    (await readModel<{ id: string; applied: number }>(readStore, p, 'items').find({})).map((d) => d.applied);
  assert.equal(await count('test.healthy'), Array(11).fill(1), 'the healthy projection applied all 11 events once');
  assert.equal(
    await count('test.fragile'),
    Array(10).fill(1),
    'the fragile one: 10 applied once, the poisoned event left no write behind',
  );
  assert.is((await readCheckpoint(readStore, 'test.fragile'))!.position, head, 'it moved past the parked event');
  const parked = await listParked(readStore);
  assert.is(parked.length, 1);
  assert.is(parked[0]!.projection, 'test.fragile');
  assert.is(parked[0]!.type, 'Poison');
  assert.match(parked[0]!.error, /cannot apply Poison/);
  assert.equal(
    reader.status().map((s) => s.state),
    ['joined', 'joined'],
  );

  // the operator's retry after a fix, clicked twice (or sent by two processes): applied once, off the list
  await reader.stop();
  poisoned = false;
  const retry = () =>
    retryParked({ eventStore, readStore, projection: fragile, now: () => systemClock.now().toISOString() });
  const [first, second] = await Promise.all([retry(), retry()]);
  assert.is(first.applied + second.applied, 1, 'one of the two applied it');
  assert.is(first.failed + second.failed, 0);
  assert.equal(await listParked(readStore), []);
  assert.equal(await count('test.fragile'), Array(11).fill(1), 'the parked event applied once');
});

test('a failing retry keeps the event parked with the new error and a count', async ({ eventStore, readStore }) => {
  const fragile = counter('test.fragile', { poisoned: () => true });
  const group = createProjectionGroup({
    eventStore,
    readStore,
    projections: [fragile],
    clock: systemClock,
    maxAttempts: 1,
  });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  await emit(eventStore, 'Poison');
  reader.start();
  await reader.reached(await eventStore.headPosition());
  await reader.stop();
  const r = await retryParked({
    eventStore,
    readStore,
    projection: fragile,
    now: () => systemClock.now().toISOString(),
  });
  assert.equal(r, { applied: 0, failed: 1 });
  const [p] = await listParked(readStore, 'test.fragile');
  assert.is(p!.retries, 1);
});

test('a store outage is never parked: the page is retried until the store answers', async ({
  eventStore,
  readStore,
}) => {
  let down = 3;
  const base = counter('test.flaky-store');
  const flaky: Projection = {
    ...base,
    async apply(events, store) {
      if (down-- > 0) {
        const { StoreUnavailableError } = await import('../../../infra/core/store-errors.ts');
        throw new StoreUnavailableError('test', 'down for a moment');
      }
      await base.apply(events, store);
    },
  };
  const group = createProjectionGroup({
    eventStore,
    readStore,
    projections: [flaky],
    clock: systemClock,
    maxAttempts: 1,
  });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  await emit(eventStore, 'Plain');
  reader.start();
  await reader.reached(await eventStore.headPosition());
  await reader.stop();
  assert.equal(await listParked(readStore), []);
  assert.is((await readModel(readStore, 'test.flaky-store', 'items').find({})).length, 1);
});

test('outdated projections are rebuilt in one pass when the group starts, and readers switch', async ({
  eventStore,
  readStore,
}) => {
  for (let i = 0; i < 20; i++) await emit(eventStore, 'Plain');
  const v1 = [counter('test.a'), counter('test.b')];
  let group = createProjectionGroup({ eventStore, readStore, projections: v1, clock: systemClock });
  let reader = createLogReader({ eventStore, consumers: group.consumers });
  reader.start();
  await reader.reached(await eventStore.headPosition());
  await reader.stop();
  const v2 = v1.map((p) => ({ ...p, version: 2 }));
  group = createProjectionGroup({ eventStore, readStore, projections: v2, clock: systemClock });
  reader = createLogReader({ eventStore, consumers: group.consumers });
  reader.start();
  await reader.reached(await eventStore.headPosition());
  for (const p of v2) {
    const cp = await readCheckpoint(readStore, p.name);
    assert.is(cp!.version, 2);
    assert.is(cp!.generation, 2);
    assert.is((await readModel(readStore, p.name, 'items').find({})).length, 20);
  }
  await emit(eventStore, 'Plain');
  await reader.reached(await eventStore.headPosition());
  assert.is((await readModel(readStore, 'test.a', 'items').find({})).length, 21, 'live again on the new generation');
  await reader.stop();
});

test('a page whose events another process of the group has applied takes no write transaction here; a new event does', async ({
  dir,
  eventStore,
  readStore,
}) => {
  const projections = [counter('test.a'), counter('test.b')];
  const first = createProjectionGroup({ eventStore, readStore, projections, clock: systemClock });
  const reader = createLogReader({ eventStore, consumers: first.consumers });
  reader.start();
  for (let i = 0; i < 3; i++) await emit(eventStore, 'Plain');
  await reader.reached(await eventStore.headPosition());
  await reader.stop();
  // the second process: its own connection to the same read store, its write transactions counted
  const other = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  let transactions = 0;
  const transaction = other.transaction.bind(other);
  other.transaction = (fn) => (transactions++, transaction(fn));
  try {
    const second = createProjectionGroup({ eventStore, readStore: other, projections, clock: systemClock });
    // this process's page ends later than the first one's did: an event the group does not take
    await eventStore.append(
      'other-t.x',
      [{ id: eventIdFor('other', 0), type: 'Unrelated', data: {}, metadata: meta }],
      'no_stream',
    );
    const events = await eventStore.readAll({});
    const page = { events, position: events[events.length - 1]!.position };
    const handle = (p: typeof page) => second.consumers[0]!.batch!.handle(p, second.consumers);
    assert.equal(await handle(page), [{ position: page.position }, { position: page.position }]);
    assert.is(transactions, 0, 'its events applied by the first: nothing to write, no write lock taken');
    await emit(eventStore, 'Plain');
    const more = await eventStore.readAll({});
    await handle({ events: more, position: more[more.length - 1]!.position });
    assert.is(transactions, 1, 'a new event: applied here');
    assert.equal(
      (await readModel<{ id: string; applied: number }>(readStore, 'test.a', 'items').find({})).map((d) => d.applied),
      [1, 1, 1, 1],
      'each event applied once',
    );
  } finally {
    await other.close();
  }
});

test.run();
