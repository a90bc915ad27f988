import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { checkpointMemo } from '../../../projections/core/checkpoint-memo.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { rebuildProjection } from '../../../projections/core/rebuild.ts';
import { eventually } from '../../core/eventually.ts';
import { type Balance, ledgerProjection } from '../../core/fixtures/ledger.projection.ts';

type Ctx = { dir: string; eventStore: EventStore; readStore: ReadStore };
const it = suite<Ctx>('checkpoint memo', {} as Ctx);

it.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'memo-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite'), pollIntervalMs: 5 });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
});
it.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let seq = 0;
const deposit = (store: EventStore, account: string, amount: number) =>
  store.append(
    `account-t.${account}`,
    [
      {
        id: eventIdFor(`c${++seq}`, 0),
        type: 'MoneyDeposited',
        data: { owner: `o-${account}`, amount },
        metadata: { tenant: 't', occurredAt: 'x', schemaVersion: 1 },
      },
    ],
    'any',
  );

it('answers as of the log: waits for the projection to apply a change, keeps the answer while nothing changes', async ({
  eventStore,
  readStore,
}) => {
  const projection = ledgerProjection();
  const balances = readModel<Balance>(readStore, projection.name, 'balances');
  let queries = 0;
  const balanceOf = checkpointMemo({ readStore, eventStore }, projection, async (id) => {
    queries += 1;
    return (await balances.get(`account-t.${id}`))?.balance ?? 0;
  });
  const runner = createProjectionRunner({ eventStore, readStore, projection, clock: systemClock });
  try {
    await deposit(eventStore, 'a', 10);
    // asked before the projection runs at all: the answer waits for it to apply the deposit
    const first = balanceOf('a');
    runner.start();
    assert.is(await first, 10);
    assert.is(await balanceOf('a'), 10);
    assert.is(queries, 1, 'the second answer is the kept one');
    await deposit(eventStore, 'a', 5);
    assert.is(await balanceOf('a'), 15);
    assert.is(queries, 2, 'a new checkpoint asks again');
  } finally {
    await runner.stop();
  }
});

it('a projection that does not run: waited for once, for a bounded time; the read model answers as it is until it runs', async ({
  eventStore,
  readStore,
}) => {
  const projection = ledgerProjection();
  const balances = readModel<Balance>(readStore, projection.name, 'balances');
  const balanceOf = checkpointMemo(
    { readStore, eventStore },
    projection,
    async (id) => (await balances.get(`account-t.${id}`))?.balance ?? 0,
    { catchUpMs: 200 },
  );
  await deposit(eventStore, 'b', 7);
  assert.is(await balanceOf('b'), 0, 'answered from the read model as it is');
  assert.is(await balanceOf('b'), 0, 'and again, without waiting a second time');
  // started now, the projection catches up and the next answer has the deposit
  const runner = createProjectionRunner({ eventStore, readStore, projection, clock: systemClock });
  runner.start();
  try {
    await eventually(async () => ((await balanceOf('b')) === 7 ? true : undefined), 'the deposit counted');
  } finally {
    await runner.stop();
  }
});

it('a rebuild switched by another process: the next answer reads the new generation at once', async ({
  dir,
  eventStore,
  readStore,
}) => {
  const projection = ledgerProjection();
  // a second read store on the same file: another process's view
  const other = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const balances = readModel<Balance>(other, projection.name, 'balances');
  const balanceOf = checkpointMemo({ readStore: other, eventStore }, projection, async (id) => {
    return (await balances.get(`account-t.${id}`))?.balance ?? 0;
  });
  const runner = createProjectionRunner({ eventStore, readStore, projection, clock: systemClock });
  runner.start();
  try {
    await deposit(eventStore, 'c', 10);
    assert.is(await balanceOf('c'), 10, 'generation 1, its readers primed');
    const r = await rebuildProjection({ eventStore, readStore, projection, clock: systemClock });
    assert.is(r.generation, 2);
    await deposit(eventStore, 'c', 5); // applied to generation 2 only: generation 1 stays at 10
    assert.is(await balanceOf('c'), 15);
  } finally {
    await runner.stop();
    await other.close();
  }
});

it.run();
