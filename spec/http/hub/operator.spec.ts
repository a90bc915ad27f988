// Operator actions and housekeeping through the whole platform, with a real webhook receiver on loopback:
// a message failing permanently, then a manual retry that reaches the receiver exactly once (a resent
// request does not call it again), a retry denied by quiet hours (no attempt), cancel of a SCHEDULED
// message (its due item goes, nothing is ever sent), a manual receipt on an uncertain outcome, chain
// control, and housekeeping's dry run against its real run (what is removed, what stays).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCommands as createConfigCenterCommands } from '../../../commands/bridge/config-center.commands.ts';
import { notificationStream } from '../../../domain/hub/notification.decider.ts';
import { hubHousekeepingCommand } from '../../../infra/cli/hub-housekeeping.command.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { ALERTS_PROJECTION } from '../../../projections/hub/alerts.projection.ts';
import { DISPATCH_PROJECTION, type HubDueDoc } from '../../../projections/hub/dispatch.projection.ts';
import { SWEEP_PROJECTION } from '../../../projections/hub/sweep.projection.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { quiet } from '../../core/quiet.ts';
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
  rx = await startWebhookReceiver((s) => script.get(s.body.RequestId)?.shift() ?? 200);
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const acme = () => p.token('acme');
const send = async (tenant: string, code: string, answers: Behaviour[], extra: Record<string, unknown> = {}) => {
  const body = aSend(code, extra);
  script.set(body.RequestId, answers);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token(tenant), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body as {
    NotificationId: string;
    RequestId: string;
    SnapshotId: string;
    Messages: Array<{ MessageId: string; State: string }>;
  };
};
const message = async (messageId: string, tenant = 'acme') =>
  (await p.call('GET', `${HUB}/messages/getById?messageId=${messageId}`, { token: await p.token(tenant) })).body;
const messageWhere = (messageId: string, what: string, pred: (m: any) => boolean, tenant = 'acme') =>
  p.eventually(async () => {
    const m = await message(messageId, tenant);
    return pred(m) ? m : undefined;
  }, what);
const submissions = (requestId: string): Submission[] => rx.received.filter((s) => s.body.RequestId === requestId);
const caughtUp = () => caughtUpAll(...p.platform.runners);
const dueItem = async (messageId: string) => {
  await caughtUp();
  return readModel<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due').get(messageId);
};
const post = async (url: string, body: unknown, headers: Record<string, string> = {}, tenant = 'acme') =>
  p.call('POST', url, { token: await p.token(tenant), body, headers });
const timeline = async (messageId: string) =>
  (await p.call('GET', `${HUB}/messages/timeline?messageId=${messageId}`, { token: await acme() })).body
    .Events as Array<{ Type: string; Data: any; Actor?: string }>;

test('a message failing permanently, then a manual retry: exactly one MANUAL attempt reaches the receiver; a resent request calls nothing', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send('acme', s.code, [400, 200]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'FAILED', (m) => m.State === 'FAILED');
  assert.is(submissions(ack.RequestId).length, 1);

  const el = await p.call('GET', `${HUB}/messages/actionEligibility?messageId=${id}`, { token: await acme() });
  assert.is(el.status, 200);
  assert.equal(el.body.Actions.RETRY, { Eligible: true });
  assert.is(el.body.Actions.CANCEL.Eligible, false);
  assert.is(el.body.Actions.CANCEL.Reason, 'NOTHING_UNSENT');

  const first = await post(
    `${HUB}/messages/retry?messageId=${id}`,
    { Reason: 'address corrected by the customer' },
    { 'idempotency-key': 'retry-click-1' },
  );
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is(first.body.Kind, 'MANUAL');
  assert.is(first.body.AttemptNo, 2);
  assert.is(first.body.State, 'ACCEPTED');
  assert.is(first.body.Replayed, false);
  assert.is(submissions(ack.RequestId).length, 2);
  const [a1, a2] = submissions(ack.RequestId);
  assert.is.not(a2!.body.ClientRequestId, a1!.body.ClientRequestId, 'a new attempt has its own ClientRequestId');
  assert.is(a2!.body.AttemptNo, 2);

  // the same click resent: the same answer, no second call
  const again = await post(
    `${HUB}/messages/retry?messageId=${id}`,
    { Reason: 'address corrected by the customer' },
    { 'idempotency-key': 'retry-click-1' },
  );
  assert.is(again.status, 200);
  assert.is(again.body.AttemptId, first.body.AttemptId);
  assert.is(again.body.Replayed, true);
  await quiet(p.platform);
  assert.is(submissions(ack.RequestId).length, 2);

  // another explicit retry now: the message is ACCEPTED, not FAILED
  const refused = await post(
    `${HUB}/messages/retry?messageId=${id}`,
    { Reason: 'again' },
    { 'idempotency-key': 'retry-click-2' },
  );
  assert.is(refused.status, 409);
  assert.is(refused.body.code, 'OPERATOR.NOT_ELIGIBLE');
  assert.is(refused.body.details.Reason, 'AWAITING_RECEIPT');

  const tl = await timeline(id);
  const manual = tl.filter((e) => e.Type === 'AttemptStarted').at(-1)!;
  assert.is(manual.Data.Kind, 'MANUAL');
  assert.is(manual.Data.Reason, 'address corrected by the customer');
  assert.match(manual.Actor ?? '', /@acme$/);
  assert.is((await message(id)).AutoAttempts, 1, 'the manual attempt is not counted against the automatic budget');
});

test('two operators retrying at once (different requests): one MANUAL attempt, the other is refused', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send('acme', s.code, [400, 200, 200]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'FAILED', (m) => m.State === 'FAILED');
  const results = await Promise.all(
    ['op-a', 'op-b', 'op-c'].map((k) =>
      post(`${HUB}/messages/retry?messageId=${id}`, { Reason: k }, { 'idempotency-key': k }),
    ),
  );
  const ok = results.filter((r) => r.status === 200);
  assert.is(ok.length, 1, JSON.stringify(results.map((r) => [r.status, r.body])));
  for (const r of results.filter((x) => x.status !== 200)) {
    assert.is(r.status, 409);
    assert.ok(['ATTEMPT_IN_FLIGHT', 'AWAITING_RECEIPT'].includes(r.body.details.Reason), JSON.stringify(r.body));
  }
  await quiet(p.platform);
  assert.is(submissions(ack.RequestId).length, 2, 'the receiver saw the first attempt and exactly one manual one');
});

test('a failed manual attempt never restarts the automatic cycle: no NextRetryTime, no due work', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send('acme', s.code, [404, 429]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'FAILED', (m) => m.State === 'FAILED');
  const r = await post(`${HUB}/messages/retry?messageId=${id}`, { Reason: 'try once more' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.State, 'FAILED');
  assert.is(r.body.Outcome, 'RETRYABLE');
  const m = await message(id);
  assert.is(m.NextRetryTime, undefined);
  assert.is(await dueItem(id), null);
  assert.is(submissions(ack.RequestId).length, 2);
});

test('a manual retry during quiet hours is denied with the reason and makes no attempt', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['PUSH'] });
  const ack = await send('acme', s.code, [400]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'FAILED', (m) => m.State === 'FAILED');
  // a window around the current time (UTC, the tenant's default zone)
  const now = p.clock.now().getTime();
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const put = await p.call('PUT', `${HUB}/quiet-hours/PUSH`, {
    token: await acme(),
    body: { Windows: [{ Start: hhmm(now - 3_600_000), End: hhmm(now + 3_600_000) }] },
  });
  assert.ok(put.status < 300, JSON.stringify(put.body));
  try {
    const r = await post(`${HUB}/messages/retry?messageId=${id}`, { Reason: 'customer asked' });
    assert.is(r.status, 409, JSON.stringify(r.body));
    assert.is(r.body.code, 'OPERATOR.DENIED_BY_POLICY');
    assert.is(r.body.details.Reason, 'QUIET_HOURS');
    const m = await message(id);
    assert.is(m.State, 'FAILED');
    assert.is(m.Attempts, 1, 'no attempt was created');
    assert.is(submissions(ack.RequestId).length, 1);
  } finally {
    await p.call('DELETE', `${HUB}/quiet-hours/PUSH`, { token: await acme() });
  }
});

test("a manual receipt on an uncertain outcome: DELIVERED with the operator evidence; the receiver's late receipt is not counted again", async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await send('acme', s.code, [500]);
  const id = ack.Messages[0]!.MessageId;
  await messageWhere(id, 'uncertain', (m) => m.DeliveryUncertain === true);
  const el = await p.call('GET', `${HUB}/messages/actionEligibility?messageId=${id}`, { token: await acme() });
  assert.equal(el.body.Actions.MANUAL_RECEIPT, { Eligible: true });
  assert.is(el.body.Actions.RETRY.Reason, 'UNCERTAIN_VERIFY_FIRST');
  const bad = await post(`${HUB}/messages/manualReceipt?messageId=${id}`, {
    Status: 'ACCEPTED',
    VerificationReason: 'x',
  });
  assert.is(bad.status, 400);
  const r = await post(`${HUB}/messages/manualReceipt?messageId=${id}`, {
    Status: 'DELIVERED',
    VerificationReason: 'the customer confirmed by phone',
    EvidenceReference: 'TICKET-4711',
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.Messages, [{ MessageId: id, State: 'DELIVERED' }]);
  const m = await message(id);
  assert.is(m.State, 'DELIVERED');
  assert.is(m.DeliveryUncertain, false);
  const delivered = (await timeline(id)).find((e) => e.Type === 'MessageDelivered')!;
  assert.equal(delivered.Data.Verification, {
    VerificationReason: 'the customer confirmed by phone',
    EvidenceReference: 'TICKET-4711',
  });
  assert.is(delivered.Data.Source, 'MANUAL');
  const late = await sendReceipt(p.base, submissions(ack.RequestId)[0]!.body.CallbackId, { Status: 'DELIVERED' });
  assert.equal(late.body, { Applied: false, MessageId: id, State: 'DELIVERED', Ignored: 'ALREADY_FINAL' });
  const twice = await post(`${HUB}/messages/manualReceipt?messageId=${id}`, {
    Status: 'FAILED',
    VerificationReason: 'changed my mind',
  });
  assert.is(twice.status, 409);
});

test('chain control: completing a FALLBACK role suppresses its waiting candidates (ROLE_COMPLETED_BY_OPERATOR)', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['EMAIL', 'SMS'], strategy: 'FALLBACK' });
  const ack = await send('acme', s.code, [200]);
  const [m1, m2] = ack.Messages.map((m) => m.MessageId);
  await messageWhere(m1!, 'ACCEPTED', (m) => m.State === 'ACCEPTED');
  const r = await post(`${HUB}/messages/completeRole?messageId=${m1}`, { Reason: 'reached the customer by phone' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.Messages, [{ MessageId: m2, State: 'SUPPRESSED' }]);
  const w = await message(m2!);
  assert.is(w.Reason, 'ROLE_COMPLETED_BY_OPERATOR');
  assert.is((await message(m1!)).State, 'ACCEPTED', 'the sent candidate keeps its evidence');
});

test('operator actions need the scope hub:operator; unknown messages are 404; bad input 400', async () => {
  const sendOnly = await p.token('acme', ['hub:send']);
  const r = await p.call('POST', `${HUB}/messages/retry?messageId=x`, { token: sendOnly, body: { Reason: 'x' } });
  assert.is(r.status, 403);
  const unknown = await post(`${HUB}/messages/cancel?messageId=00000000-0000-0000-0000-000000000000.m1`, {
    Reason: 'x',
  });
  assert.is(unknown.status, 404);
  const noReason = await post(`${HUB}/messages/retry?messageId=00000000-0000-0000-0000-000000000000.m1`, {});
  assert.is(noReason.status, 400);
  const badKey = await post(
    `${HUB}/messages/retry?messageId=00000000-0000-0000-0000-000000000000.m1`,
    { Reason: 'x' },
    { 'idempotency-key': 'not a token!' },
  );
  assert.is(badKey.status, 400);
  // the routes are in the OpenAPI group connecthub
  const doc = (await p.call('GET', '/v3/api-docs/connecthub')).body;
  for (const path of [
    '/comm/v1/messages/retry',
    '/comm/v1/messages/actionEligibility',
    '/comm/v1/messages/cancel',
    '/comm/v1/notifications/cancel',
    '/comm/v1/messages/manualReceipt',
    '/comm/v1/messages/completeRole',
    '/comm/v1/housekeeping/run',
  ]) {
    assert.ok(doc.paths[path], `${path} in the OpenAPI document`);
  }
});

test('housekeeping: a dry run reports and changes nothing; the real run archives and removes only the completed one', async () => {
  // tenant beta holds only this test's notifications
  const s = await configure(p, 'beta', {
    receiverUrl: rx.url,
    retry: {
      MaxAttempts: 3,
      RetryInitialDelaySeconds: 604_800,
      RetryBackoffMultiplier: 1,
      RetryMaxDelaySeconds: 604_800,
    },
    receiptMode: 'ACCEPTANCE_ONLY',
  });
  // fixed RequestIds: their NotificationIds (derived from tenant and RequestId) sort retrying < done < uncertain
  const doneExtra = {
    RequestId: 'hk-done',
    ExpiresAt: new Date(p.clock.now().getTime() + 30 * 86_400_000).toISOString(),
  };
  const done = await send('beta', s.code, [200], doneExtra); // accepted, handed off: completed
  const uncertain = await send('beta', s.code, [500], { RequestId: 'hk-uncertain' }); // uncertain outcome
  const retrying = await send('beta', s.code, [429], { RequestId: 'hk-retrying' }); // a retry pending in 7 days
  assert.equal(
    [retrying, done, uncertain].map((x) => x.NotificationId),
    [retrying, done, uncertain].map((x) => x.NotificationId).sort(),
    'the scan order this test assumes',
  );
  await messageWhere(done.Messages[0]!.MessageId, 'handed off', (m) => m.TrackingCompleted === true, 'beta');
  await messageWhere(uncertain.Messages[0]!.MessageId, 'uncertain', (m) => m.DeliveryUncertain === true, 'beta');
  await messageWhere(retrying.Messages[0]!.MessageId, 'retry pending', (m) => m.NextRetryTime !== undefined, 'beta');
  const listed = async () => {
    await caughtUp();
    const r = await p.call(
      'GET',
      `${HUB}/configuration-snapshots/notifications?snapshotId=${done.SnapshotId}&pageSize=50`,
      { token: await p.token('beta') },
    );
    return (r.body.Items as Array<{ NotificationId: string }>).map((x) => x.NotificationId).sort();
  };
  const all = [done, uncertain, retrying].map((x) => x.NotificationId).sort();
  assert.equal(await listed(), all);
  const run = async (body: Record<string, unknown>) => {
    const r = await p.call('POST', `${HUB}/housekeeping/run`, { token: await p.token('beta'), body });
    assert.is(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  // a configured retention out of range (more than 36 500 days, as HUB_HOUSEKEEPING_RETENTION_DAYS) is
  // ignored like every numeric comm-hub setting: the default applies
  await createConfigCenterCommands({ eventStore: p.platform.stores.eventStore, clock: p.clock }).set(
    { key: 'comm.hub.housekeeping.retention-days', value: '100000' },
    { tenant: 'beta', actor: 'spec' },
    'spec/retention',
  );
  assert.is(
    (await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub', { token: await p.token('beta') })).status,
    200,
  );
  // within the retention (the configured default, 90 days): nothing is eligible
  const fresh = await run({});
  assert.is(fresh.DryRun, true);
  assert.is(fresh.RetentionSource, 'CONFIGURATION');
  assert.is(fresh.RetentionDays, 90);
  assert.equal(fresh.Removed, []);

  p.advance(2 * 86_400_000);
  const dry = await run({ days: 1 });
  assert.is(dry.DryRun, true);
  assert.is(dry.Scanned, 3);
  assert.equal(
    dry.Removed.map((x: any) => x.NotificationId),
    [done.NotificationId],
  );
  assert.equal(dry.Kept, { UNCERTAIN: 1, PENDING_RETRY: 1 });
  assert.equal(await listed(), all, 'a dry run removes nothing');

  const limited = await run({ days: 1, limit: 1, pageSize: 2 });
  assert.equal(
    limited.Removed.map((x: any) => x.NotificationId),
    [done.NotificationId],
  );
  // the three share AcceptedAt (a frozen clock): their order is by NotificationId (retrying, done, uncertain);
  // the limit is reached at done, so the third candidate is never scanned
  assert.is(limited.LimitReached, true, 'the limit stops the scan after the first removable one');
  assert.is(limited.Scanned, 2);
  assert.is((await run({ days: -1, dryRun: false })).Disabled, true);
  assert.equal(await listed(), all, 'retention -1 disables the job');

  const real = await run({ days: 1, dryRun: false, archiveBeforeDelete: true, pageSize: 1 });
  assert.equal(
    real.Removed.map((x: any) => x.NotificationId),
    [done.NotificationId],
  );
  assert.equal(real.Kept, { UNCERTAIN: 1, PENDING_RETRY: 1 });
  assert.is(real.ArchivedTo.length, 1);
  const file = path.join(p.config.dataDir, real.ArchivedTo[0]);
  assert.ok(existsSync(file), file);
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(
    lines.map((l) => l.NotificationId),
    [done.NotificationId],
  );
  assert.is(lines[0].ReadSide['hub.snapshots.uses'][0].NotificationId, done.NotificationId);
  assert.is(lines[0].Messages[0].State, 'ACCEPTED');
  assert.is(lines[0].ReadSide['hub.sweep.expiries'].length, 1, 'its ExpiresAt row is archived');

  assert.equal(
    await listed(),
    [uncertain.NotificationId, retrying.NotificationId].sort(),
    'only the completed one left the read side',
  );
  assert.is(
    await readModel(p.platform.stores.readStore, SWEEP_PROJECTION, 'expiries').get(
      notificationStream('beta', done.NotificationId),
    ),
    null,
    'and its hub.sweep row',
  );
  // every hub read-model row of the removed one is gone; the kept ones keep theirs
  await caughtUp();
  const doneMessages = done.Messages.map((m) => m.MessageId);
  const rs = p.platform.stores.readStore;
  const byStream = async (projection: string, collection: string, stream: string) =>
    (await readModel<{ id: string; stream: string }>(rs, projection, collection).find({ stream })).length;
  const doneStream = notificationStream('beta', done.NotificationId);
  assert.equal(
    [
      await byStream(DISPATCH_PROJECTION, 'due', doneStream),
      await byStream(SWEEP_PROJECTION, 'open', doneStream),
      await byStream(ALERTS_PROJECTION, 'outbox', doneStream),
    ],
    [0, 0, 0],
    'no due item, open work or alert outbox item',
  );
  for (const id of doneMessages) assert.is(await readModel(rs, SWEEP_PROJECTION, 'open').get(id), null);
  assert.ok(
    (
      await readModel<{ id: string }>(rs, SWEEP_PROJECTION, 'open').find({
        stream: notificationStream('beta', retrying.NotificationId),
      })
    ).length > 0,
    'the kept retry still has its open work',
  );
  // the views a user sees answer 404, saying when it was housekept and where it was archived
  const beta = await p.token('beta');
  const progress = await p.call('GET', `${HUB}/send-requests/getById?requestId=${done.RequestId}`, { token: beta });
  assert.is(progress.status, 404, JSON.stringify(progress.body));
  assert.is(progress.body.code, 'NOTIFICATION.NOT_FOUND');
  assert.match(progress.body.message, /housekept at \S+/);
  assert.ok(progress.body.message.includes(real.ArchivedTo[0]), progress.body.message);
  assert.is(progress.body.details.ArchivedTo, real.ArchivedTo[0]);
  assert.is(
    (await p.call('GET', `${HUB}/send-requests/getById?notificationId=${done.NotificationId}`, { token: beta })).status,
    404,
  );
  for (const view of ['messages/getById', 'messages/timeline']) {
    const r = await p.call('GET', `${HUB}/${view}?messageId=${doneMessages[0]}`, { token: beta });
    assert.is(r.status, 404, `${view}: ${JSON.stringify(r.body)}`);
    assert.is(r.body.code, 'MESSAGE.NOT_FOUND');
    assert.match(r.body.message, /housekept at/);
  }
  for (const kept of [uncertain, retrying]) {
    assert.is(
      (await p.call('GET', `${HUB}/send-requests/getById?requestId=${kept.RequestId}`, { token: beta })).status,
      200,
    );
    for (const view of ['messages/getById', 'messages/timeline'])
      assert.is(
        (await p.call('GET', `${HUB}/${view}?messageId=${kept.Messages[0]!.MessageId}`, { token: beta })).status,
        200,
        view,
      );
  }
  // the log is kept: a replay of the RequestId keeps its idempotency answer (the stored acknowledgement)
  const replay = await p.call('POST', `${HUB}/notifications/send`, { token: beta, body: aSend(s.code, doneExtra) });
  assert.is(replay.status, 200, JSON.stringify(replay.body));
  assert.equal(replay.body, done, 'the stored acknowledgement');
  assert.is(submissions('hk-done').length, 1, 'nothing sent again');
  // a second run finds nothing more; the limit caps a run
  assert.equal((await run({ days: 1, dryRun: false })).Removed, []);
  const bad = await p.call('POST', `${HUB}/housekeeping/run`, { token: await p.token('beta'), body: { days: -2 } });
  assert.is(bad.status, 400);
  const noAdmin = await p.call('POST', `${HUB}/housekeeping/run`, {
    token: await p.token('beta', ['hub:operator']),
    body: {},
  });
  assert.is(noAdmin.status, 403);
});

test('platform hub-housekeeping: the same job from the CLI over the same stores (dry run, JSON report)', async () => {
  // the CLI runs on the real clock (behind this platform's advanced manual clock): with --days 0 the
  // notifications accepted before now are candidates; the two the previous test kept are kept again
  const out: string[] = [];
  const io = {
    out: (l: string) => out.push(l),
    err: (l: string) => out.push(l),
    env: { DATA_DIR: p.config.dataDir, LOG_LEVEL: 'silent' },
  };
  const code = await hubHousekeepingCommand.run!(['--tenant', 'beta', '--days', '0', '--json'], io);
  assert.is(code, 0, out.join('\n'));
  const [report] = JSON.parse(out.join('\n')) as Array<{
    Tenant: string;
    DryRun: boolean;
    Scanned: number;
    Kept: Record<string, number>;
    Removed: unknown[];
  }>;
  assert.is(report!.Tenant, 'beta');
  assert.is(report!.DryRun, true);
  assert.is(report!.Scanned, 2);
  assert.equal(report!.Kept, { UNCERTAIN: 1, PENDING_RETRY: 1 });
  assert.equal(report!.Removed, []);
  const usage = await hubHousekeepingCommand.run!(['--days', '1'], io).catch((e: Error) => e);
  assert.ok(usage instanceof Error && /--tenant/.test(usage.message));
});

// last: it moves the clock past SendAt
test('cancel of a SCHEDULED message: CANCELLED, its due item goes, nothing is sent when SendAt comes', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const sendAt = new Date(p.clock.now().getTime() + 3_600_000).toISOString();
  const ack = await send('acme', s.code, [200], { SendAt: sendAt });
  const id = ack.Messages[0]!.MessageId;
  assert.is(ack.Messages[0]!.State, 'SCHEDULED');
  assert.ok(await dueItem(id), 'the scheduled dispatch is due work');
  const r = await post(
    `${HUB}/messages/cancel?messageId=${id}`,
    { Reason: 'order withdrawn' },
    { 'idempotency-key': 'cancel-1' },
  );
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.Messages, [{ MessageId: id, State: 'CANCELLED' }]);
  const again = await post(
    `${HUB}/messages/cancel?messageId=${id}`,
    { Reason: 'order withdrawn' },
    { 'idempotency-key': 'cancel-1' },
  );
  assert.is(again.body.Replayed, true);
  assert.is(await dueItem(id), null);
  const other = await post(`${HUB}/messages/cancel?messageId=${id}`, { Reason: 'twice' });
  assert.is(other.status, 409);
  assert.is(other.body.details.Reason, 'TERMINAL');
  p.advance(2 * 3_600_000);
  await quiet(p.platform);
  assert.is(submissions(ack.RequestId).length, 0);
  assert.is((await message(id)).State, 'CANCELLED');
  const tl = await timeline(id);
  assert.equal(tl.at(-1)!.Type, 'MessageCancelled');
  assert.is(tl.at(-1)!.Data.Reason, 'order withdrawn');
});

test('cancel of a whole notification: every unsent message (a FALLBACK chain, scheduled and waiting)', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['EMAIL', 'SMS'], strategy: 'FALLBACK' });
  const ack = await send('acme', s.code, [200], {
    SendAt: new Date(p.clock.now().getTime() + 3_600_000).toISOString(),
  });
  assert.equal(
    ack.Messages.map((m) => m.State),
    ['SCHEDULED', 'WAITING'],
  );
  const r = await post(`${HUB}/notifications/cancel?notificationId=${ack.NotificationId}`, {
    Reason: 'customer deceased',
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(
    r.body.Messages.map((m: any) => m.State),
    ['CANCELLED', 'CANCELLED'],
  );
  const nothing = await post(`${HUB}/notifications/cancel?notificationId=${ack.NotificationId}`, { Reason: 'again' });
  assert.is(nothing.status, 409);
  assert.is(nothing.body.details.Reason, 'NOTHING_UNSENT');
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${ack.RequestId}`, { token: await acme() });
  assert.is(g.body.Completed, true);
});

test.run();
