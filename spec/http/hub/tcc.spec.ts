// TCC branches of sends through the whole platform: a real webhook receiver on loopback sees nothing at Try
// and exactly one submission after Confirm; Cancel before Try leaves a tombstone that refuses the late Try;
// a command worker that claimed a READY command and died after accepting it: the command is claimed again
// after its lease (comm-hub.command-worker.stale-interval-ms) and materialized exactly once with the
// original result, and the dead worker's late completion is refused by its fence.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { claimDueItem } from '../../../commands/core/due-work.ts';
import type { CommandDueItem } from '../../../commands/hub/command.worker.ts';
import { createSender } from '../../../commands/hub/send.commands.ts';
import { createTccCommands, tccCommandId } from '../../../commands/hub/tcc.commands.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { notificationStream } from '../../../domain/hub/notification.decider.ts';
import { tccDecider, tccStream } from '../../../domain/hub/tcc.decider.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { TCC_PROJECTION } from '../../../projections/hub/tcc.projection.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { quiet } from '../../core/quiet.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

const STALE_MS = 5000;
let p: HubPlatform;
let rx: WebhookReceiver;
let s: Setup;
let xid = 0;

test.before(async () => {
  p = await startHubPlatform({
    env: { HUB_COMMAND_WORKER_STALE_INTERVAL_MS: String(STALE_MS), HUB_COMMAND_WORKER_INTERVAL_MS: '20' },
  });
  rx = await startWebhookReceiver(() => 200);
  s = await configure(p, 'acme', { receiverUrl: rx.url, receiptMode: 'ACCEPTANCE_ONLY' });
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const call = async (op: string, body: unknown) =>
  p.call('POST', `${HUB}/notifications/tcc/${op}`, { token: await p.token('acme'), body });
const branch = () => ({ Xid: `xid-${process.pid}-${++xid}`, BranchId: 'hub-send' });
const caughtUp = () => caughtUpAll(...p.platform.runners);
const submissions = (requestId: string) => rx.received.filter((x) => x.body.RequestId === requestId);
const settle = () => quiet(p.platform);
const hubService = () => p.platform.services.find((x) => x.name === 'hub')!;
const commandWorker = () => hubService().engines.find((e) => e.name === 'hub.command-worker')!;

test('Try prepares (202) and calls no provider; Confirm makes it READY and the worker materializes and dispatches it once; a second Confirm answers the original', async () => {
  const b = branch();
  const send = aSend(s.code);
  const tried = await call('try', { ...b, ...send });
  assert.is(tried.status, 202, JSON.stringify(tried.body));
  assert.is(tried.body.Status, 'PREPARED');
  assert.is(tried.body.RequestId, send.RequestId);
  // the same Try again: the same answer
  const again = await call('try', { ...b, ...send });
  assert.is(again.status, 202);
  assert.equal(again.body, tried.body);
  await settle();
  assert.is(submissions(send.RequestId).length, 0, 'Try makes no provider call');
  const before = await p.call('GET', `${HUB}/send-requests/getById?requestId=${send.RequestId}`, {
    token: await p.token('acme'),
  });
  assert.is(before.status, 404, 'no notification before Confirm');

  const confirmed = await call('confirm', b);
  assert.is(confirmed.status, 200, JSON.stringify(confirmed.body));
  assert.ok(['READY', 'MATERIALIZED'].includes(confirmed.body.Status));
  await rx.waitFor(rx.received.length + 1);
  const done = await p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/notifications/tcc/getById?xid=${b.Xid}&branchId=${b.BranchId}`, {
      token: await p.token('acme'),
    });
    return r.body.Status === 'MATERIALIZED' ? r.body : undefined;
  }, 'materialized');
  assert.is(done.Result, 'CREATED');
  assert.is(done.Acknowledgement.RequestId, send.RequestId);
  assert.is(done.Acknowledgement.SnapshotId, tried.body.Acknowledgement?.SnapshotId ?? done.Acknowledgement.SnapshotId);
  const second = await call('confirm', b);
  assert.is(second.status, 200);
  assert.is(second.body.Status, 'MATERIALIZED');
  const retriedTry = await call('try', { ...b, ...send });
  assert.is(retriedTry.status, 202, 'a repeated Try after materialization answers the branch');
  assert.is(retriedTry.body.Status, 'MATERIALIZED');
  const otherTry = await call('try', { ...b, ...send, Payload: { other: true } });
  assert.is(otherTry.status, 409);
  assert.is(otherTry.body.code, 'TCC.CONFLICT');
  assert.equal(second.body.Acknowledgement, done.Acknowledgement, 'the original idempotency result');
  assert.is(second.body.ConfirmedAt, done.ConfirmedAt);
  await settle();
  assert.is(submissions(send.RequestId).length, 1, 'exactly one provider call');
  // a Cancel after Confirm is refused
  const late = await call('cancel', b);
  assert.is(late.status, 409);
  assert.is(late.body.code, 'TCC.ALREADY_CONFIRMED');
});

test('Cancel prevents materialization; Confirm after Cancel is refused; nothing reaches the receiver', async () => {
  const b = branch();
  const send = aSend(s.code);
  assert.is((await call('try', { ...b, ...send })).status, 202);
  const cancelled = await call('cancel', b);
  assert.is(cancelled.status, 200);
  assert.is(cancelled.body.Status, 'CANCELLED');
  assert.is((await call('cancel', b)).body.Status, 'CANCELLED', 'a second Cancel answers the same');
  const confirm = await call('confirm', b);
  assert.is(confirm.status, 409);
  assert.is(confirm.body.code, 'TCC.CANCELLED');
  await settle();
  assert.is(submissions(send.RequestId).length, 0);
  assert.is(
    (await p.call('GET', `${HUB}/send-requests/getById?requestId=${send.RequestId}`, { token: await p.token('acme') }))
      .status,
    404,
    'never materialized',
  );
});

test('Cancel before any Try leaves a tombstone: the late Try is refused and prepares nothing', async () => {
  const b = branch();
  const rollback = await call('cancel', b);
  assert.is(rollback.status, 200);
  assert.is(rollback.body.Status, 'TOMBSTONE');
  const send = aSend(s.code);
  const late = await call('try', { ...b, ...send });
  assert.is(late.status, 409, JSON.stringify(late.body));
  assert.is(late.body.code, 'TCC.CANCELLED');
  const view = await p.call('GET', `${HUB}/notifications/tcc/getById?xid=${b.Xid}&branchId=${b.BranchId}`, {
    token: await p.token('acme'),
  });
  assert.is(view.body.Status, 'TOMBSTONE');
  assert.is(view.body.RequestId, undefined);
  assert.is((await call('confirm', b)).body.code, 'TCC.CANCELLED');
  const unknown = await call('confirm', branch());
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'TCC.NOT_FOUND');
  const bad = await call('try', { ...branch(), RequestId: 'x' });
  assert.is(bad.status, 400, 'a Try is validated like a send');
  const doc = await p.call('GET', '/v3/api-docs/connecthub');
  for (const op of ['try', 'confirm', 'cancel', 'getById'])
    assert.ok(doc.body.paths[`${HUB}/notifications/tcc/${op}`], `${op} in the OpenAPI group connecthub`);
});

const materialized = (b: { Xid: string; BranchId: string }) =>
  p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/notifications/tcc/getById?xid=${b.Xid}&branchId=${b.BranchId}`, {
      token: await p.token('acme'),
    });
    return r.body.Status === 'MATERIALIZED' ? r.body : undefined;
  }, `branch ${b.Xid} materialized`);

test('branches preparing one RequestId: the first materializes it (CREATED), the same content later finds it (REPLAYED), other content is a CONFLICT; a Try after the send is refused', async () => {
  const [b1, b2, b3] = [branch(), branch(), branch()];
  const send = aSend(s.code);
  const other = { ...send, Payload: { ...send.Payload, amount: 999 } };
  for (const [b, body] of [
    [b1, send],
    [b2, send],
    [b3, other],
  ] as const)
    assert.is((await call('try', { ...b, ...body })).status, 202);
  assert.is((await call('confirm', b1)).status, 200);
  const first = await materialized(b1);
  assert.is(first.Result, 'CREATED');
  assert.is((await call('confirm', b2)).status, 200);
  const second = await materialized(b2);
  assert.is(second.Result, 'REPLAYED');
  assert.equal(second.Acknowledgement, first.Acknowledgement, 'the stored acknowledgement');
  assert.is((await call('confirm', b3)).status, 200);
  const third = await materialized(b3);
  assert.is(third.Result, 'CONFLICT');
  assert.is(third.Acknowledgement, undefined);
  assert.match(third.Error, /other content/);
  const late = await call('try', { ...branch(), ...send });
  assert.is(late.status, 409);
  assert.is(late.body.code, 'TCC.CONFLICT');
  await settle();
  assert.is(submissions(send.RequestId).length, 1, 'one notification, one provider call');
});

test('a worker that claimed a READY command and died after accepting it: re-claimed after its lease, materialized exactly once, the original result; the dead worker is fenced', async () => {
  const { eventStore, readStore } = p.platform.stores;
  await commandWorker().stop();
  const b = branch();
  const send = aSend(s.code);
  assert.is((await call('try', { ...b, ...send })).status, 202);
  assert.is((await call('confirm', b)).status, 200);
  await caughtUp();
  // the dead worker: claims the item (lease 1), claims the command with that fence, accepts the notification,
  // and dies before recording the materialization
  const items = liveCollection<CommandDueItem>(readStore, TCC_PROJECTION, 'due');
  const item = await claimDueItem(await items(), p.clock.now(), 'dead-worker', STALE_MS);
  assert.ok(item, 'the READY command has a due item');
  assert.is(item!.leases, 1);
  const real = createSender({
    eventStore,
    clock: p.clock,
    config: {} as never,
    snapshots: {} as never,
    settings: { get: async () => undefined },
    defaults: { timeZone: 'UTC', maxRenderedLength: 1000 },
  });
  const dying = createTccCommands({
    eventStore,
    clock: p.clock,
    sender: {
      prepare: real.prepare,
      accept: async (...args) => {
        await real.accept(...args);
        throw new Error('the worker process died');
      },
    },
  });
  const died = await dying.materialize(item!.stream, item!.leases!, 'dead-worker').then(
    () => 'survived',
    (err: Error) => err.message,
  );
  assert.is(died, 'the worker process died');
  const stream = tccStream('acme', tccCommandId('acme', b));
  assert.equal(
    (await eventStore.readStream(stream)).map((e) => e.type),
    ['TccTried', 'TccConfirmed', 'TccClaimed'],
  );

  // the real worker: nothing before the lease runs out, then the command is recovered
  commandWorker().start();
  await settle();
  assert.is((await eventStore.readStream(stream)).length, 3, 'the dead worker still holds the lease');
  p.advance(STALE_MS + 1000);
  const done = await p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/notifications/tcc/getById?xid=${b.Xid}&branchId=${b.BranchId}`, {
      token: await p.token('acme'),
    });
    return r.body.Status === 'MATERIALIZED' ? r.body : undefined;
  }, 'recovered');
  assert.is(done.Result, 'CREATED', 'reprocessing returns the original idempotency result');
  const events = await eventStore.readStream(stream);
  assert.equal(
    events.map((e) => [e.type, (e.data as any).Fence]),
    [
      ['TccTried', undefined],
      ['TccConfirmed', undefined],
      ['TccClaimed', 1],
      ['TccClaimed', 2],
      ['TccMaterialized', 2],
    ],
  );
  const notification = await eventStore.readStream(notificationStream('acme', done.NotificationId));
  assert.is(notification.filter((e) => e.type === 'NotificationAccepted').length, 1, 'materialized exactly once');
  await rx.waitFor(rx.received.length);
  await p.eventually(async () => (submissions(send.RequestId).length > 0 ? true : undefined), 'dispatched');
  await settle();
  assert.is(submissions(send.RequestId).length, 1, 'one provider call');

  // the dead worker wakes up and completes with its stale fence: refused, nothing recorded
  const handle = commandHandler(eventStore, tccDecider);
  try {
    await handle({
      stream,
      command: { type: 'Materialize', Fence: 1, Result: 'CREATED', now: p.clock.now().toISOString() },
      commandId: 'tcc-materialize/1',
      now: p.clock.now().toISOString(),
      context: { tenant: 'acme', actor: 'dead-worker' },
    });
    assert.unreachable('a stale completion must be refused');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.ok(isDomainError(err) && err.code === 'TCC.STALE_FENCE', String(err));
  }
  assert.is(await dying.materialize(stream, 1, 'dead-worker'), 'nothing');
  assert.is((await eventStore.readStream(stream)).length, 5);
  const second = await call('confirm', b);
  assert.is(second.body.Status, 'MATERIALIZED');
  assert.equal(second.body.Acknowledgement, done.Acknowledgement);
});

test.run();
