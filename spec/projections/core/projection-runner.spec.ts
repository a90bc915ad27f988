import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import type { EventEnvelope } from '../../../domain/core/event.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { readCheckpoint } from '../../../projections/core/checkpoints.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { physicalName } from '../../../projections/core/projection.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { rebuildProjection } from '../../../projections/core/rebuild.ts';
import { eventually } from '../../core/eventually.ts';
import { type Balance, ledgerProjection } from '../../core/fixtures/ledger.projection.ts';

type Ctx = { dir: string; eventStore: EventStore; readStore: ReadStore };
const it = suite<Ctx>('projection runner', {} as Ctx);

it.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'runner-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite'), pollIntervalMs: 20 });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
});
it.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let seq = 0;
async function deposit(store: EventStore, account: string, amount: number, open = false) {
  const command = `c${++seq}`;
  const events: EventEnvelope[] = [];
  if (open)
    events.push({
      id: eventIdFor(command, 9),
      type: 'AccountOpened',
      data: { owner: `o-${account}` },
      metadata: { tenant: 't', occurredAt: 'x', schemaVersion: 1 },
    });
  events.push({
    id: eventIdFor(command, 0),
    type: 'MoneyDeposited',
    data: { amount },
    metadata: { tenant: 't', occurredAt: 'x', schemaVersion: 1 },
  });
  await store.append(`account-t.${account}`, events, 'any');
}
/** noise in another category: the projection must skip it but still report no lag */
async function noise(store: EventStore) {
  await store.append(
    `other-t.n${++seq}`,
    [
      {
        id: eventIdFor(`n${seq}`, 0),
        type: 'Noise',
        data: {},
        metadata: { tenant: 't', occurredAt: 'x', schemaVersion: 1 },
      },
    ],
    'any',
  );
}

it('catches up, goes live, keeps the checkpoint with the read model, reports lag 0 when done', async ({
  eventStore,
  readStore,
}) => {
  await deposit(eventStore, 'a', 10, true);
  await deposit(eventStore, 'b', 5, true);
  const runner = createProjectionRunner({ eventStore, readStore, projection: ledgerProjection(), clock: systemClock });
  runner.start();
  const balances = readModel<Balance>(readStore, 'test.ledger', 'balances');
  await eventually(async () => (await balances.get('account-t.b'))?.balance === 5, 'catch-up');
  await deposit(eventStore, 'a', 7);
  await noise(eventStore);
  await eventually(async () => (await balances.get('account-t.a'))?.balance === 17, 'live event');
  await eventually(async () => (await runner.status()).lag === 0, 'lag 0');
  const s = await runner.status();
  assert.is(s.state, 'running');
  assert.is(s.generation, 1);
  await runner.stop();
  assert.is((await runner.status()).state, 'stopped');
});

it('lag counts pending events of its own categories only', async ({ eventStore, readStore }) => {
  const runner = createProjectionRunner({ eventStore, readStore, projection: ledgerProjection(), clock: systemClock });
  await deposit(eventStore, 'a', 1, true);
  await noise(eventStore);
  const before = await runner.status();
  assert.ok(before.lag > 0, 'pending account events show as lag');
  runner.start();
  await eventually(async () => (await runner.status()).lag === 0, 'lag 0');
  await noise(eventStore);
  assert.is((await runner.status()).lag, 0, 'noise in other categories is not lag');
  await runner.stop();
});

it('a failing apply is retried from the checkpoint: nothing lost, nothing doubled', async ({
  eventStore,
  readStore,
}) => {
  let failures = 2;
  const base = ledgerProjection();
  const flaky: Projection = {
    ...base,
    async apply(events, store) {
      await base.apply(events, store); // writes happen, then the transaction must roll them back
      if (failures-- > 0) throw new Error('boom');
    },
  };
  for (let i = 0; i < 20; i++) await deposit(eventStore, 'a', 1, i === 0);
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projection: flaky,
    clock: systemClock,
    retryDelayMs: 5,
  });
  runner.start();
  const balances = readModel<Balance>(readStore, 'test.ledger', 'balances');
  await eventually(async () => (await runner.status()).lag === 0, 'recovery');
  const a = await balances.get('account-t.a');
  assert.is(a!.balance, 20);
  assert.is(a!.events, 21);
  await runner.stop();
});

it('a version bump rebuilds beside the live collections, then readers switch', async ({ eventStore, readStore }) => {
  for (let i = 0; i < 30; i++) await deposit(eventStore, `x${i % 3}`, 2, i < 3);
  const v1 = createProjectionRunner({ eventStore, readStore, projection: ledgerProjection(1), clock: systemClock });
  v1.start();
  await eventually(async () => (await v1.status()).lag === 0, 'v1');
  await v1.stop();
  const balances = readModel<Balance>(readStore, 'test.ledger', 'balances');
  const before = await balances.find({}, { sort: { id: 1 } });

  const v2 = createProjectionRunner({ eventStore, readStore, projection: ledgerProjection(2), clock: systemClock });
  v2.start();
  await eventually(async () => (await v2.status()).version === 2 && (await v2.status()).lag === 0, 'v2');
  const s = await v2.status();
  assert.is(s.generation, 2);
  assert.equal(await balances.find({}, { sort: { id: 1 } }), before, 'same content read from the new generation');
  // the old generation is still there beside it until the next rebuild
  assert.is(await readStore.collection(physicalName('test.ledger', 'balances', 1)).count({}), 3);
  await v2.stop();
});

it('rebuild while the live runner runs and events keep coming: the switch loses and doubles nothing', async ({
  eventStore,
  readStore,
}) => {
  for (let i = 0; i < 300; i++) await deposit(eventStore, `k${i % 10}`, 1, i < 10);
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projection: ledgerProjection(),
    clock: systemClock,
    batchSize: 7,
  });
  runner.start();
  let writing = true;
  const writer = (async () => {
    let i = 0;
    while (writing) {
      await deposit(eventStore, `k${i++ % 10}`, 1);
      await new Promise((r) => setImmediate(r));
    }
  })();
  const r = await rebuildProjection({
    eventStore,
    readStore,
    projection: ledgerProjection(),
    clock: systemClock,
    pageSize: 25,
  });
  assert.is(r.generation, 2);
  await new Promise((res) => setTimeout(res, 30));
  writing = false;
  await writer;
  await eventually(async () => (await runner.status()).lag === 0, 'catch-up after switch');
  const cp = await readCheckpoint(readStore, 'test.ledger');
  assert.is(cp!.generation, 2);
  const total = (await eventStore.readAll({ filter: { categories: ['account'] }, limit: 100_000 })).length;
  const live = await readStore.collection(physicalName('test.ledger', 'entries', 2)).count({});
  assert.is(live, total, 'one entry per event in the switched generation');
  const counted = (await readStore.collection<Balance>(physicalName('test.ledger', 'balances', 2)).find({})).reduce(
    (n, b) => n + b.events,
    0,
  );
  assert.is(counted, total, 'no event counted twice');
  await runner.stop();
});

it.run();
