import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type CommandEnvelope, commandHandler } from '../../../commands/core/command-handler.ts';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { DomainError } from '../../../domain/core/domain-error.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { WrongExpectedRevisionError } from '../../../infra/core/store-errors.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { type AccountCommand, accountDecider } from '../../core/fixtures/account.decider.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cmd-'));
const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const handle = commandHandler(store, accountDecider);
let n = 0;
const cmd = (stream: string, command: AccountCommand, commandId = `c${++n}`): CommandEnvelope<AccountCommand> => ({
  stream,
  command,
  commandId,
  now: '2026-11-22T10:00:00.000Z',
  context: { tenant: 'acme', actor: 'user:ann', correlationId: 'corr-1', causationId: 'req-1' },
});

test.after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a new stream: decide, append with no_stream, metadata from the envelope, ids from the command id', async () => {
  const r = await handle(
    cmd('account-acme.1', { type: 'OpenAccount', owner: 'ann', at: '2026-11-22T10:00:00.000Z' }, 'open-1'),
  );
  assert.is(r.revision, 0);
  assert.is(r.replayed, false);
  const [e] = await store.readStream('account-acme.1');
  assert.is(e!.id, eventIdFor('open-1', 0, 'account-acme.1'));
  assert.is(e!.type, 'AccountOpened');
  assert.equal(e!.metadata, {
    tenant: 'acme',
    actor: 'user:ann',
    correlationId: 'corr-1',
    causationId: 'req-1',
    commandId: 'open-1',
    occurredAt: '2026-11-22T10:00:00.000Z',
    schemaVersion: 1,
  });
});

test('the same command id again appends nothing and answers the earlier events', async () => {
  await handle(cmd('account-acme.2', { type: 'OpenAccount', owner: 'bob', at: 'x' }));
  const first = await handle(cmd('account-acme.2', { type: 'Deposit', amount: 5 }, 'dep-x'));
  const again = await handle(cmd('account-acme.2', { type: 'Deposit', amount: 5 }, 'dep-x'));
  assert.is(again.replayed, true);
  assert.equal(
    again.events.map((e) => e.id),
    first.events.map((e) => e.id),
  );
  assert.is((await store.readStream('account-acme.2')).length, 2);
  assert.equal(again.state, { status: 'open', owner: 'bob', balance: 5 });
});

test('a rejected command appends nothing and surfaces the typed error', async () => {
  await handle(cmd('account-acme.3', { type: 'OpenAccount', owner: 'cy', at: 'x' }));
  try {
    await handle(cmd('account-acme.3', { type: 'Withdraw', amount: 1 }));
    assert.unreachable();
  } catch (err) {
    assert.instance(err, DomainError);
    assert.is((err as DomainError).code, 'ACCOUNT.INSUFFICIENT_FUNDS');
  }
  assert.is((await store.readStream('account-acme.3')).length, 1);
});

test('concurrent writers: every command lands once through re-read and retry, no lost update', async () => {
  await handle(cmd('account-acme.4', { type: 'OpenAccount', owner: 'dee', at: 'x' }));
  const racing = commandHandler(store, accountDecider, { maxAttempts: 20 });
  await Promise.all(
    Array.from({ length: 10 }, (_, i) => racing(cmd('account-acme.4', { type: 'Deposit', amount: i + 1 }))),
  );
  const events = await store.readStream('account-acme.4');
  assert.is(events.length, 11);
  const total = events.slice(1).reduce((s, e) => s + (e.data as { amount: number }).amount, 0);
  assert.is(total, 55);
});

test('a conflict that persists past the bounded retries becomes a 409 DomainError', async () => {
  await handle(cmd('account-acme.5', { type: 'OpenAccount', owner: 'eve', at: 'x' }));
  // a store whose every append loses the race
  const losing: EventStore = {
    ...store,
    append: async (stream, _events, expected) => {
      throw new WrongExpectedRevisionError(stream, expected, 99);
    },
  };
  const h = commandHandler(losing, accountDecider, { maxAttempts: 3 });
  try {
    await h(cmd('account-acme.5', { type: 'Deposit', amount: 1 }));
    assert.unreachable();
  } catch (err) {
    assert.instance(err, DomainError);
    assert.is((err as DomainError).status, 409);
    assert.is((err as DomainError).code, 'CONCURRENCY.CONFLICT');
    assert.equal((err as DomainError).details, { stream: 'account-acme.5', expected: 0, actual: 99 });
  }
});

test('one command id on two streams: both appends land, each idempotent', async () => {
  await handle(cmd('account-acme.7', { type: 'OpenAccount', owner: 'gus', at: 'x' }, 'shared-id'));
  await handle(cmd('account-acme.8', { type: 'OpenAccount', owner: 'gus', at: 'x' }, 'shared-id'));
  const again = await handle(cmd('account-acme.8', { type: 'OpenAccount', owner: 'gus', at: 'x' }, 'shared-id'));
  assert.is(again.replayed, true);
  assert.is((await store.readStream('account-acme.7')).length, 1);
  assert.is((await store.readStream('account-acme.8')).length, 1);
});

test('two events from one command get consecutive revisions and distinct derived ids', async () => {
  await handle(cmd('account-acme.6', { type: 'OpenAccount', owner: 'fay', at: 'x' }));
  await handle(cmd('account-acme.6', { type: 'Deposit', amount: 3 }));
  const r = await handle(cmd('account-acme.6', { type: 'CloseAccount' }, 'close-6'));
  assert.equal(
    r.events.map((e) => [e.type, e.revision, e.id]),
    [
      ['MoneyWithdrawn', 2, eventIdFor('close-6', 0, 'account-acme.6')],
      ['AccountClosed', 3, eventIdFor('close-6', 1, 'account-acme.6')],
    ],
  );
});

test.run();
