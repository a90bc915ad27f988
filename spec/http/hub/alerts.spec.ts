// Dead-letter alerts through the whole platform and the real event bridge in it: a message failing for good
// at a real webhook receiver (400, no retry, no fallback) and one whose outcome is unknown (500) each publish
// a CloudEvent `commhub:alert:DeadLetter` on the platform bus, seen on the bridge's trace, classified apart;
// a repeated publication (the outbox item put back, as the alert sweep does) is the bridge's duplicate;
// housekeeping removes a notification's publication records and its outbox items are not published again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ALERT_PUBLICATIONS } from '../../../commands/hub/alert.publisher.ts';
import { BRIDGE_ADMIN_BASE } from '../../../http/bridge/bridge.paths.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { ALERTS_PROJECTION } from '../../../projections/hub/alerts.projection.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

const SECRET = 'alerts-spec-secret-0123456789';
let p: HubPlatform;
let rx: WebhookReceiver;
let s: Setup;
const answers = new Map<string, number>();
let bridgeToken = '';

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver((x) => answers.get(x.body.RequestId) ?? 200);
  s = await configure(p, 'acme', {
    receiverUrl: rx.url,
    retry: { MaxAttempts: 1, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 1 },
  });
  await p.commands.registerClient(
    {
      clientId: 'acme-bridge-admin',
      grantTypes: ['client_credentials'],
      defaultUser: 'hub-svc',
      scopes: ['bridge:admin'],
      clientSecret: SECRET,
    },
    { tenant: 'acme', actor: 'spec' },
    'spec/client/acme-bridge-admin',
  );
  p.syncClock();
  const res = await fetch(`${p.base}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`acme-bridge-admin:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'bridge:admin' }),
  });
  bridgeToken = ((await res.json()) as { access_token: string }).access_token;
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const send = async (answer: number) => {
  const body = aSend(s.code, { RefType: 'policy', RefNumber: 'P-42' });
  answers.set(body.RequestId, answer);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token('acme'), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body as { NotificationId: string; RequestId: string; Messages: Array<{ MessageId: string }> };
};
/** the bridge's trace of the alert events of one message */
const traces = async (messageId: string) => {
  const r = await p.call(
    'GET',
    `${BRIDGE_ADMIN_BASE}/trace/events?source=commhub:alert&type=commhub:alert:DeadLetter&limit=200`,
    { token: bridgeToken },
  );
  assert.is(r.status, 200, JSON.stringify(r.body));
  return (r.body.items as any[]).filter((t) => t.event?.data?.MessageId === messageId);
};
const alertTrace = (messageId: string) =>
  p.eventually(
    async () => ((await traces(messageId)).length > 0 ? (await traces(messageId))[0] : undefined),
    `alert of ${messageId} on the bridge`,
  );

test('definite final failure (400, no retry, no fallback): a DeadLetter CloudEvent on the platform bus, on the bridge trace', async () => {
  const ack = await send(400);
  const id = ack.Messages[0]!.MessageId;
  const t = await alertTrace(id);
  assert.is(t.bus, 'platform');
  const e = t.event;
  assert.is(e.source, 'commhub:alert');
  assert.is(e.type, 'commhub:alert:DeadLetter');
  assert.is(e.data.Classification, 'DEFINITE_FINAL_FAILURE');
  assert.is(e.data.Cause, undefined);
  assert.is(e.data.Tenant, 'acme');
  assert.is(e.data.NotificationId, ack.NotificationId);
  assert.is(e.data.RequestId, ack.RequestId);
  assert.is(e.data.NotificationCode, s.code);
  assert.is(e.data.Role, 'Customer');
  assert.is(e.data.Channel, 'EMAIL');
  assert.is(e.data.State, 'FAILED');
  assert.is(e.data.HttpStatus, 400);
  assert.is(e.data.AttemptNo, 1);
  assert.is(e.data.RefNumber, 'P-42');
  assert.is(e.id, e.data.AlertId, 'the CloudEvent id is the alert id');
});

test('an uncertain outcome (500) is published separately classified (UNCERTAIN, its Cause)', async () => {
  const ack = await send(500);
  const t = await alertTrace(ack.Messages[0]!.MessageId);
  assert.is(t.event.data.Classification, 'UNCERTAIN');
  assert.is(t.event.data.Cause, 'SERVER_ERROR');
  assert.is(t.event.data.State, 'SUBMITTED');
});

test('at-least-once: the outbox item put back publishes again as the bridge duplicate: one event on the trace', async () => {
  const ack = await send(400);
  const id = ack.Messages[0]!.MessageId;
  const first = await alertTrace(id);
  const { readStore } = p.platform.stores;
  const publications = readStore.collection<any>(ALERT_PUBLICATIONS);
  const published = await p.eventually(
    async () => (await publications.get(first.event.id)) ?? undefined,
    'publication recorded',
  );
  assert.is(published.duplicate, false);
  const outbox = await liveCollection<any>(readStore, ALERTS_PROJECTION, 'outbox')();
  assert.is(await outbox.get(first.event.id), null, 'the outbox item is gone once published');
  await publications.delete(first.event.id);
  await outbox.upsert({
    id: first.event.id,
    stream: `hubNotification-acme.${ack.NotificationId}`,
    tenant: 'acme',
    kind: 'alert',
    messageId: id,
    dueAt: p.clock.now().toISOString(),
    leaseUntil: '',
  });
  p.advance(0);
  const again = await p.eventually(
    async () => (await publications.get(first.event.id)) ?? undefined,
    'published again',
  );
  assert.is(again.duplicate, true, 'the bridge recognized the repeat');
  assert.is((await traces(id)).length, 1, 'routed once');
});

test("housekeeping removes a notification's alert publications; an outbox item of it put back (as a rebuild does) is dropped, not published", async () => {
  const ack = await send(400);
  const id = ack.Messages[0]!.MessageId;
  const first = await alertTrace(id);
  const { readStore } = p.platform.stores;
  const publications = readStore.collection<any>(ALERT_PUBLICATIONS);
  await p.eventually(async () => (await publications.get(first.event.id)) ?? undefined, 'publication recorded');
  p.advance(2 * 86_400_000);
  const run = await p.call('POST', `${HUB}/housekeeping/run`, {
    token: await p.token('acme'),
    body: { days: 1, dryRun: false },
  });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.ok(
    run.body.Removed.some((x: { NotificationId: string }) => x.NotificationId === ack.NotificationId),
    JSON.stringify(run.body),
  );
  assert.is(await publications.get(first.event.id), null, 'its publication record is gone');
  const outbox = await liveCollection<any>(readStore, ALERTS_PROJECTION, 'outbox')();
  await outbox.upsert({
    id: first.event.id,
    stream: `hubNotification-acme.${ack.NotificationId}`,
    tenant: 'acme',
    kind: 'alert',
    messageId: id,
    dueAt: p.clock.now().toISOString(),
    leaseUntil: '',
  });
  p.advance(0);
  await p.eventually(async () => ((await outbox.get(first.event.id)) === null ? true : undefined), 'the item dropped');
  assert.is(await publications.get(first.event.id), null, 'no publication recorded again');
});

test.run();
