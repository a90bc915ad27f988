// Dispatch through the whole platform: real HTTP receivers on loopback answering 2xx, 400, 429, 500, timing
// out, resetting the connection, refusing it, and calling the receipt endpoint; the manual clock reaches
// retries and receipt deadlines; FALLBACK and ACCEPTANCE_ONLY; receipts fenced to the active attempt; an
// attempt whose worker died during the call.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { notificationDecider, notificationStream } from '../../../domain/hub/notification.decider.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { DISPATCH_PROJECTION, type HubDueDoc } from '../../../projections/hub/dispatch.projection.ts';
import { caughtUp } from '../../core/eventually.ts';
import {
  type Behaviour,
  type Submission,
  sendReceipt,
  startWebhookReceiver,
  type WebhookReceiver,
} from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
/** per RequestId, how the receiver answers its n-th submission */
const script = new Map<string, Behaviour[]>();

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver((s) => {
    const plan = script.get(s.body.RequestId);
    return plan?.shift() ?? 200;
  });
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const send = async (code: string, answers: Behaviour[], extra: Record<string, unknown> = {}) => {
  const body = aSend(code, extra);
  script.set(body.RequestId, answers);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body as { NotificationId: string; RequestId: string; Messages: Array<{ MessageId: string; State: string }> };
};
const progress = async (requestId: string) =>
  (await p.call('GET', `${HUB}/send-requests/getById?requestId=${requestId}`, { token: await p.token('acme') })).body;
const message = async (messageId: string) =>
  (await p.call('GET', `${HUB}/messages/getById?messageId=${messageId}`, { token: await p.token('acme') })).body;
const until = <T>(what: string, probe: () => Promise<T | undefined>) => p.eventually(probe, what);
const messageWhere = (messageId: string, what: string, pred: (m: any) => boolean) =>
  until(what, async () => {
    const m = await message(messageId);
    return pred(m) ? m : undefined;
  });
/** the message's due item (automatic work scheduled for it), once the projection caught up with the log */
const dueItem = async (messageId: string) => {
  await caughtUp(...p.platform.runners);
  return readModel<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due').get(messageId);
};
const submissions = (requestId: string): Submission[] => rx.received.filter((s) => s.body.RequestId === requestId);

test('2xx then a DELIVERED receipt: ACCEPTED, then DELIVERED; the same receipt again changes nothing and is recorded', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send(s.code, [200]);
  const id = ack.Messages[0]!.MessageId;
  const accepted = await messageWhere(id, 'ACCEPTED', (m) => m.State === 'ACCEPTED');
  assert.ok(accepted.ReceiptDeadline, 'FINAL_RESULT starts the receipt deadline');
  const [sub] = submissions(ack.RequestId);
  const r = await sendReceipt(p.base, sub!.body.CallbackId, { Status: 'DELIVERED', ProviderRef: 'smtp-42' });
  assert.equal(r, { status: 200, body: { Applied: true, MessageId: id, State: 'DELIVERED' } });
  const again = await sendReceipt(p.base, sub!.body.CallbackId, { Status: 'FAILED' });
  assert.equal(again.body, { Applied: false, MessageId: id, State: 'DELIVERED', Ignored: 'ALREADY_FINAL' });
  const g = await progress(ack.RequestId);
  assert.is(g.Completed, true);
  const tl = (await p.call('GET', `${HUB}/messages/timeline?messageId=${id}`, { token: await p.token('acme') })).body;
  assert.equal(
    tl.Events.map((e: any) => e.Type),
    ['MessagePrepared', 'AttemptStarted', 'MessageAccepted', 'MessageDelivered', 'ReceiptIgnored'],
  );
  assert.is(
    (
      await sendReceipt(p.base, 'acme.00000000-0000-0000-0000-000000000000.m1.a1.AAAAAAAAAAAAAAAAAAAAAA', {
        Status: 'DELIVERED',
      })
    ).status,
    404,
  );
});

test('400: FAILED, definite permanent, no retry (the clock moving on changes nothing)', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send(s.code, [{ status: 400, body: '{"error":"bad recipient"}' }]);
  const m = await messageWhere(ack.Messages[0]!.MessageId, 'FAILED', (x) => x.State === 'FAILED');
  assert.is(m.NextRetryTime, undefined);
  assert.match(m.LastError, /400.*bad recipient/);
  assert.is(await dueItem(m.MessageId), null, 'no automatic work is scheduled');
  assert.is(submissions(ack.RequestId).length, 1);
});

test('429: FAILED with NextRetryTime 300 s later; at that time a new attempt (new ClientRequestId and CallbackId) goes out', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send(s.code, [429, 202]);
  const id = ack.Messages[0]!.MessageId;
  const failed = await messageWhere(
    id,
    'FAILED with a retry',
    (x) => x.State === 'FAILED' && x.NextRetryTime !== undefined,
  );
  const wait = Date.parse(failed.NextRetryTime) - Date.parse(failed.UpdatedAt);
  assert.is(wait, 300_000);
  assert.equal((await dueItem(id))?.kind, 'retry');
  p.advance(299_000);
  p.advance(1000);
  const second = await messageWhere(id, 'the retry', (x) => x.State === 'ACCEPTED');
  assert.is(second.Attempts, 2);
  const [a, b] = submissions(ack.RequestId);
  assert.is.not(a!.body.ClientRequestId, b!.body.ClientRequestId);
  assert.is.not(a!.body.CallbackId, b!.body.CallbackId);
  assert.is(b!.headers['webhook-id'], b!.body.ClientRequestId);
  // the first attempt's receipt is superseded
  const late = await sendReceipt(p.base, a!.body.CallbackId, { Status: 'DELIVERED' });
  assert.equal(late.body.Ignored, 'SUPERSEDED');
});

test('500: outcome unknown — SUBMITTED with DeliveryUncertain, no automatic retry; a late DELIVERED receipt settles it', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send(s.code, [500]);
  const id = ack.Messages[0]!.MessageId;
  const m = await messageWhere(id, 'uncertain', (x) => x.DeliveryUncertain === true);
  assert.is(m.State, 'SUBMITTED');
  assert.is(await dueItem(id), null, 'automatic retry is held');
  assert.is(submissions(ack.RequestId).length, 1);
  const r = await sendReceipt(p.base, submissions(ack.RequestId)[0]!.body.CallbackId, { Status: 'DELIVERED' });
  assert.is(r.body.State, 'DELIVERED');
  const tl = (await p.call('GET', `${HUB}/messages/timeline?messageId=${id}`, { token: await p.token('acme') })).body;
  assert.ok(tl.Events.some((e: any) => e.Type === 'AlertRaised' && e.Data.Classification === 'UNCERTAIN'));
});

test('a read timeout and a reset connection are unknown outcomes too', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, settings: { ReadTimeoutMs: 150 } });
  const hang = await send(s.code, ['hang']);
  const reset = await send(s.code, ['reset']);
  const h = await messageWhere(hang.Messages[0]!.MessageId, 'read timeout', (x) => x.DeliveryUncertain === true);
  assert.match(h.LastError, /read timeout/);
  const r = await messageWhere(reset.Messages[0]!.MessageId, 'reset', (x) => x.DeliveryUncertain === true);
  assert.match(r.LastError, /connection failure after submission/);
});

test('a refused connection is a definite retryable failure (nothing was submitted)', async () => {
  const closed = await startWebhookReceiver();
  const url = closed.url;
  await closed.close();
  const s = await configure(p, 'acme', { receiverUrl: url });
  const ack = await send(s.code, []);
  const m = await messageWhere(ack.Messages[0]!.MessageId, 'FAILED retryable', (x) => x.State === 'FAILED');
  assert.ok(m.NextRetryTime);
  assert.match(m.LastError, /connect failure/);
});

test('receipt deadline (FINAL_RESULT): past it the message stays ACCEPTED, uncertain, with an alert', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, receiptTimeoutSeconds: 60 });
  const ack = await send(s.code, [200]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'ACCEPTED', (x) => x.State === 'ACCEPTED');
  p.advance(60_000);
  const m = await messageWhere(id, 'deadline passed', (x) => x.DeliveryUncertain === true);
  assert.is(m.State, 'ACCEPTED');
});

test('ACCEPTANCE_ONLY: a 2xx completes tracking (Completed, no deadline)', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, receiptMode: 'ACCEPTANCE_ONLY' });
  const ack = await send(s.code, [202]);
  const m = await messageWhere(ack.Messages[0]!.MessageId, 'handed off', (x) => x.TrackingCompleted === true);
  assert.is(m.State, 'ACCEPTED');
  assert.is(m.ReceiptDeadline, undefined);
  assert.is((await progress(ack.RequestId)).Completed, true);
});

test('FALLBACK: EMAIL rejected (400) → SMS promoted and sent; its DELIVERED receipt completes the role', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['EMAIL', 'SMS'], strategy: 'FALLBACK' });
  const ack = await send(s.code, [400, 200]);
  assert.equal(
    ack.Messages.map((m) => m.State),
    ['PLANNED', 'WAITING'],
  );
  const sms = ack.Messages[1]!.MessageId;
  await messageWhere(sms, 'SMS accepted', (x) => x.State === 'ACCEPTED');
  const subs = submissions(ack.RequestId);
  assert.equal(
    subs.map((x) => x.body.Channel),
    ['EMAIL', 'SMS'],
  );
  assert.is(subs[1]!.body.Recipient.Address, '+4917012345');
  await sendReceipt(p.base, subs[1]!.body.CallbackId, { Status: 'DELIVERED' });
  const g = await progress(ack.RequestId);
  assert.equal(
    g.Messages.map((m: any) => m.State),
    ['FAILED', 'DELIVERED'],
  );
  assert.is(g.Completed, true);
});

test('FALLBACK: an uncertain first candidate holds the turn (the second is not sent)', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['EMAIL', 'SMS'], strategy: 'FALLBACK' });
  const ack = await send(s.code, [503]);
  await messageWhere(ack.Messages[0]!.MessageId, 'uncertain', (x) => x.DeliveryUncertain === true);
  assert.is(await dueItem(ack.Messages[0]!.MessageId), null);
  assert.is(await dueItem(ack.Messages[1]!.MessageId), null, 'the waiting candidate has no work');
  assert.is((await message(ack.Messages[1]!.MessageId)).State, 'WAITING');
  assert.is(submissions(ack.RequestId).length, 1);
});

test('an attempt whose worker died during the call becomes uncertain once its outcome is overdue', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const hub = p.platform.services.find((x) => x.name === 'hub')!;
  const engine = hub.engines[0]!;
  await engine.stop();
  try {
    const ack = await send(s.code, []);
    const id = ack.Messages[0]!.MessageId;
    // what a worker writes before its call, and then it dies
    const now = p.clock.now().toISOString();
    await commandHandler(
      p.platform.stores.eventStore,
      notificationDecider,
    )({
      stream: notificationStream('acme', ack.NotificationId),
      command: {
        type: 'StartAttempt',
        MessageId: id,
        AttemptId: 'dead-1',
        ClientRequestId: 'dead-crid',
        CallbackId: `acme.${id}.a1.DEADDEADDEADDEADDEADDE`,
        Kind: 'AUTO',
        OutcomeDueBy: new Date(Date.parse(now) + 60_000).toISOString(),
        now,
      },
      commandId: 'spec/dead-worker',
      now,
      context: { tenant: 'acme' },
    });
    engine.start();
    p.advance(61_000);
    const m = await messageWhere(id, 'lost', (x) => x.DeliveryUncertain === true);
    assert.is(m.State, 'SUBMITTED');
    assert.is(m.AttemptDetails[0].Outcome, 'LOST');
    assert.is(submissions(ack.RequestId).length, 0);
  } finally {
    engine.start();
  }
});

test.run();
