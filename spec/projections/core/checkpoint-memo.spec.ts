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
  runner.start();
  try {
    await deposit(eventStore, 'a', 10);
    // asked right after the append: the projection may not have read it yet, the answer waits for it
    assert.is(await balanceOf('a'), 10);
    assert.is(await balanceOf('a'), 10);
    assert.is(queries, 1, 'the second answer is the kept one');
    await deposit(eventStore, 'a', 5);
    assert.is(await balanceOf('a'), 15);
    assert.is(queries, 2, 'a new checkpoint asks again');
  } finally {
    await runner.stop();
  }
});

it('a projection that does not run: the change is waited for a bounded time, then the read model answers as it is', async ({
  eventStore,
  readStore,
}) => {
  const projection = ledgerProjection();
  const balances = readModel<Balance>(readStore, projection.name, 'balances');
  const balanceOf = checkpointMemo({ readStore, eventStore }, projection, async (id) => {
    return (await balances.get(`account-t.${id}`))?.balance ?? 0;
  });
  await deposit(eventStore, 'b', 7);
  const started = performance.now();
  assert.is(await balanceOf('b'), 0);
  const waited = performance.now() - started;
  assert.ok(waited >= 1900, `waited ${waited} ms`);
  // started now, the projection catches up and the next answer has the deposit
  const runner = createProjectionRunner({ eventStore, readStore, projection, clock: systemClock });
  runner.start();
  try {
    await eventually(async () => ((await balanceOf('b')) === 7 ? true : undefined), 'the deposit counted');
  } finally {
    await runner.stop();
  }
});

it.run();
