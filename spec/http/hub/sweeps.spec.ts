// The recovery sweeps: in the whole platform (sweeps on, as `platform start` ships them), a SCHEDULED
// message whose due item went missing is found by the scheduled sweep once its time passed and reaches a
// real webhook receiver exactly once; one past its ExpiresAt is expired by the sweeps without a call. Then
// two sweep instances (two worker processes) on the same read store: each sweep runs once per interval
// and each repair runs once, never doubled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ALERT_PUBLICATIONS } from '../../../commands/hub/alert.publisher.ts';
import { createSweeps, SWEEP_RUNS, SWEEPS } from '../../../commands/hub/sweeps.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { ALERTS_PROJECTION } from '../../../projections/hub/alerts.projection.ts';
import { DISPATCH_PROJECTION, type HubDueDoc } from '../../../projections/hub/dispatch.projection.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { quiet } from '../../core/quiet.ts';
import { sweepCollections } from './fixtures/sweep-collections.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let s: Setup;
const script = new Map<string, number[]>();

test.before(async () => {
  p = await startHubPlatform({ env: { HUB_SWEEP_ENABLED: 'true' } });
  rx = await startWebhookReceiver((x) => script.get(x.body.RequestId)?.shift() ?? 200);
  s = await configure(p, 'acme', {
    receiverUrl: rx.url,
    receiptMode: 'ACCEPTANCE_ONLY',
    retry: { MaxAttempts: 2, RetryInitialDelaySeconds: 60, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 60 },
  });
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const caughtUp = () => caughtUpAll(...p.platform.runners);
const message = async (id: string) =>
  (await p.call('GET', `${HUB}/messages/getById?messageId=${id}`, { token: await p.token('acme') })).body;
const submissions = (requestId: string) => rx.received.filter((x) => x.body.RequestId === requestId);
const inMinutes = (m: number) => new Date(p.clock.now().getTime() + m * 60_000).toISOString();

/** a send whose dispatch due item is then lost (deleted behind the projection's back) */
async function sendWithLostItem(extra: Record<string, unknown>) {
  const body = aSend(s.code, extra);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  const id = r.body.Messages[0].MessageId as string;
  assert.is(r.body.Messages[0].State, 'SCHEDULED');
  await caughtUp();
  const due = await readModel<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due').get(id);
  assert.ok(due, 'the projection wrote the due item');
  const live = await liveCollection<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due')();
  assert.ok(await live.delete(id), 'the due item is lost');
  return { requestId: body.RequestId, id };
}

test('scheduled sweep: a SCHEDULED message past due whose item was lost is put back on the work engine and sent once', async () => {
  const lost = await sendWithLostItem({ SendAt: inMinutes(2) });
  p.advance(3 * 60_000);
  await p.eventually(
    async () => (submissions(lost.requestId).length > 0 ? true : undefined),
    'the sweep recovered the send',
  );
  const m = await p.eventually(async () => {
    const x = await message(lost.id);
    return x.State === 'ACCEPTED' ? x : undefined;
  }, 'accepted');
  assert.is(m.AttemptDetails.length, 1);
  const run = await p.platform.stores.readStore.collection<any>(SWEEP_RUNS).get('scheduled');
  assert.ok(run.lastFound >= 1, JSON.stringify(run));
  await quiet(p.platform);
  assert.is(submissions(lost.requestId).length, 1, 'exactly once');
});

test('expiry sweep: a message past ExpiresAt whose item was lost is EXPIRED without any call', async () => {
  const lost = await sendWithLostItem({ SendAt: inMinutes(2), ExpiresAt: inMinutes(3) });
  p.advance(5 * 60_000);
  const m = await p.eventually(async () => {
    const x = await message(lost.id);
    return x.State === 'EXPIRED' ? x : undefined;
  }, 'expired by the sweep');
  assert.is(m.AttemptDetails.length, 0);
  assert.is(submissions(lost.requestId).length, 0);
});

test('retry sweep: a FAILED message whose retry item was lost gets its retry once NextRetryTime passed', async () => {
  const body = aSend(s.code);
  script.set(body.RequestId, [429, 202]);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  assert.is(r.status, 201);
  const id = r.body.Messages[0].MessageId as string;
  const failed = await p.eventually(async () => {
    const x = await message(id);
    return x.State === 'FAILED' && x.NextRetryTime !== undefined ? x : undefined;
  }, 'failed with a retry');
  assert.ok(failed);
  await caughtUp();
  const live = await liveCollection<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due')();
  assert.is((await live.get(id))?.kind, 'retry');
  assert.ok(await live.delete(id), 'the retry item is lost');
  p.advance(2 * 60_000);
  const m = await p.eventually(async () => {
    const x = await message(id);
    return x.State === 'ACCEPTED' ? x : undefined;
  }, 'the retry sweep recovered the retry');
  assert.is(m.AttemptDetails.length, 2);
  await quiet(p.platform);
  assert.is(submissions(body.RequestId).length, 2, 'the first attempt and one retry');
});

test('receipt-timeout sweep: an ACCEPTED (FINAL_RESULT) message whose deadline item was lost becomes uncertain with its alert', async () => {
  const final = await configure(p, 'acme', {
    receiverUrl: rx.url,
    receiptMode: 'FINAL_RESULT',
    receiptTimeoutSeconds: 60,
  });
  const body = aSend(final.code);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  const id = r.body.Messages[0].MessageId as string;
  await p.eventually(async () => ((await message(id)).State === 'ACCEPTED' ? true : undefined), 'accepted');
  await caughtUp();
  const live = await liveCollection<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due')();
  assert.is((await live.get(id))?.kind, 'receipt-deadline');
  assert.ok(await live.delete(id), 'the deadline item is lost');
  p.advance(2 * 60_000);
  const m = await p.eventually(async () => {
    const x = await message(id);
    return x.DeliveryUncertain === true ? x : undefined;
  }, 'the receipt-timeout sweep passed the deadline');
  assert.is(m.State, 'ACCEPTED');
  const publications = p.platform.stores.readStore.collection<any>(ALERT_PUBLICATIONS);
  const outbox = await liveCollection<any>(p.platform.stores.readStore, ALERTS_PROJECTION, 'outbox')();
  await caughtUp();
  const alerts = (
    await p.platform.stores.eventStore.readStream(`hubNotification-acme.${r.body.NotificationId}`)
  ).filter((e) => e.type === 'AlertRaised');
  assert.is(alerts.length, 1);
  assert.is((alerts[0]!.data as any).Classification, 'UNCERTAIN');
  await p.eventually(
    async () =>
      (await publications.get(alerts[0]!.id)) !== null && (await outbox.get(alerts[0]!.id)) === null ? true : undefined,
    'alert published',
  );
});

test('alert sweep: an alert whose outbox item was lost before publication is put back and published', async () => {
  const publisher = p.platform.services
    .find((x) => x.name === 'hub')!
    .engines.find((e) => e.name === 'hub.alert-publisher')!;
  await publisher.stop();
  const body = aSend(s.code);
  script.set(body.RequestId, [400]);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  const id = r.body.Messages[0].MessageId as string;
  await p.eventually(async () => ((await message(id)).State === 'FAILED' ? true : undefined), 'failed for good');
  await caughtUp();
  const { readStore, eventStore } = p.platform.stores;
  const outbox = await liveCollection<any>(readStore, ALERTS_PROJECTION, 'outbox')();
  const [item] = await outbox.find({ messageId: id });
  assert.ok(item, 'the alert has its outbox item');
  assert.ok(await outbox.delete(item.id), 'the outbox item is lost');
  publisher.start();
  await quiet(p.platform);
  const publications = readStore.collection<any>(ALERT_PUBLICATIONS);
  assert.is(await publications.get(item.id), null, 'nothing publishes it without the sweep');
  p.advance(3 * 60_000);
  const published = await p.eventually(
    async () => (await publications.get(item.id)) ?? undefined,
    'the alert sweep recovered the publication',
  );
  assert.is(published.duplicate, false);
  const accepted = (await eventStore.readAll({ filter: { eventTypes: ['EventAccepted'] } })).filter(
    (e) => (e.data as any).event?.id === item.id,
  );
  assert.is(accepted.length, 1, 'on the bridge once');
  assert.is((accepted[0]!.data as any).event.type, 'commhub:alert:DeadLetter');
  assert.is((accepted[0]!.data as any).bus, 'platform');
});

test('two worker processes: each sweep runs once per interval, each repair once', async () => {
  const { readStore, eventStore } = p.platform.stores;
  const tag = `spec_${process.pid}`;
  await readStore.ensureCollection(`${tag}_open`);
  const open = readStore.collection<any>(`${tag}_open`);
  const past = new Date(p.clock.now().getTime() - 1000).toISOString();
  for (let i = 0; i < 5; i++)
    await open.upsert({
      id: `n${i}.m1`,
      stream: `hubNotification-acme.n${i}`,
      tenant: 'acme',
      kind: 'retry',
      at: past,
    });
  // a sixth whose dispatch item is there and due: the dispatch worker's, not the sweep's
  await open.upsert({ id: 'n5.m1', stream: 'hubNotification-acme.n5', tenant: 'acme', kind: 'retry', at: past });
  await readStore.ensureCollection(`${tag}_due`);
  await readStore.collection<any>(`${tag}_due`).upsert({ id: 'n5.m1', kind: 'retry', dueAt: past, leaseUntil: '' });
  const advanced: string[] = [];
  let scans = 0;
  const collections = await sweepCollections(readStore, tag);
  const make = (owner: string) =>
    createSweeps({
      eventStore,
      clock: p.clock,
      settings: { get: async () => undefined },
      ...collections,
      open: async () => {
        scans++;
        return open;
      },
      advance: async (_stream, id) => {
        advanced.push(id);
        await new Promise((r) => setTimeout(r, 5));
      },
      enabledByDefault: true,
      owner,
    });
  const a = make('worker-a');
  const b = make('worker-b');
  await Promise.all([a.ensureRuns(), b.ensureRuns()]);
  const [ra, rb] = await Promise.all([a.runsEngine.runDue(), b.runsEngine.runDue()]);
  assert.is(ra + rb, SWEEPS.length, 'each sweep ran once across both');
  assert.is(scans, SWEEPS.length - 1, 'the message sweeps scanned once each (the alert sweep reads the log)');
  const [xa, xb] = await Promise.all([a.repairEngine.runDue(), b.repairEngine.runDue()]);
  assert.is(xa + xb, 5);
  assert.equal(
    [...advanced].sort(),
    ['n0.m1', 'n1.m1', 'n2.m1', 'n3.m1', 'n4.m1'],
    'each repair ran once; n5 was left to the dispatch worker',
  );
  // nothing is due again before the interval
  assert.is(
    (await Promise.all([a.runsEngine.runDue(), b.runsEngine.runDue()])).reduce((x, y) => x + y),
    0,
  );
  // after the retry interval (60 s) only the 60 s sweeps are due again, once
  p.clock.advance(61_000);
  const again = await Promise.all([a.runsEngine.runDue(), b.runsEngine.runDue()]);
  assert.is(
    again[0] + again[1],
    3,
    'retry, scheduled and receipt-timeout (60 s); expiry, alert (120 s) and stale (300 s) not yet',
  );
  await Promise.all([a.repairEngine.runDue(), b.repairEngine.runDue()]);
  assert.is(advanced.length, 10, 'the still-open work was repaired once more, not twice');
  const runs = await readStore.collection<any>(`${tag}_runs`).find({}, { sort: { id: 1 } });
  assert.equal(
    runs.map((r: any) => [r.id, r.runs]),
    [
      ['alert', 1],
      ['expiry', 1],
      ['receipt-timeout', 2],
      ['retry', 2],
      ['scheduled', 2],
      ['stale', 1],
    ],
    'one scan per sweep per interval across both workers',
  );
});

test.run();
