// The incident view across a hub send, against the whole platform on a loopback port: a send with its
// x-correlation-id whose message fails for good at a real webhook receiver (400, no retry, no fallback)
// raises a dead-letter alert the hub puts on the bridge's platform bus; `GET /ops/v1/timeline?correlation=`
// answers, in one timeline, the hub notification's events and the bridge's event of the alert, which
// carries the send's correlation id and the AlertRaised event as its cause.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ALERT_TYPE } from '../../../commands/hub/alert.publisher.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { eventually } from '../../core/eventually.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../hub/fixtures/webhook-receiver.ts';
import { aSend, configure, HUB } from '../hub/hub-harness.ts';
import { machineToken } from '../identity/machine-token.ts';
import { ADMIN, type PortalPlatform, startPortalPlatform } from '../portal/portal-harness.ts';

const test = suite('operations API: the incident timeline of a hub send');
const CORRELATION = 'hub-send-incident-correlation';
let p: PortalPlatform;
let rx: WebhookReceiver;
let token = '';

const call = async (method: string, path: string, o: { body?: unknown; headers?: Record<string, string> } = {}) => {
  const res = await fetch(`${p.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(o.body !== undefined && { 'content-type': 'application/json' }),
      ...o.headers,
    },
    ...(o.body !== undefined && { body: JSON.stringify(o.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers, text };
};

test.before(async () => {
  p = await startPortalPlatform({ env: { OUTBOUND_ALLOW: '127.0.0.1' } });
  rx = await startWebhookReceiver(() => 400);
  const directory = createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  });
  token = await machineToken({
    baseUrl: p.base,
    directory,
    tenant: ADMIN.tenant,
    clientId: 'incident-hub',
    scopes: ['hub:send', 'hub:admin', 'hub:operator', 'ops:admin'],
  });
});
test.after(async () => {
  await rx.close();
  await p.stop();
});

test('one timeline: the notification, its message and attempt, the AlertRaised and the bridge event of the alert', async () => {
  const s = await configure({ token: async () => token, call: (m, path, o = {}) => call(m, path, o) }, ADMIN.tenant, {
    receiverUrl: rx.url,
    preferencePolicy: 'BYPASS',
    retry: { MaxAttempts: 1, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 1 },
  });
  const sent = await call('POST', `${HUB}/notifications/send`, {
    body: aSend(s.code),
    headers: { 'x-correlation-id': CORRELATION },
  });
  assert.is(sent.status, 201, sent.text);
  const { NotificationId, Messages } = sent.body as { NotificationId: string; Messages: Array<{ MessageId: string }> };
  const timeline = await eventually(async () => {
    const r = await call('GET', `/ops/v1/timeline?correlation=${CORRELATION}&limit=200`);
    assert.is(r.status, 200, r.text);
    const items = r.body.items as Array<Record<string, any>>;
    return items.some((i) => i.service === 'bridge' && i.data?.event?.type === ALERT_TYPE) ? items : undefined;
  }, 'the alert on the bridge, in the send’s timeline');

  const hub = timeline.filter((i) => i.service === 'hub');
  const types = hub.map((i) => i.type);
  for (const t of ['NotificationAccepted', 'AlertRaised']) assert.ok(types.includes(t), `${t} in ${types.join(', ')}`);
  const notification = `hubNotification-${ADMIN.tenant}.${NotificationId}`;
  // the send's own streams: the notification and the configuration snapshot it was resolved against
  assert.ok(
    hub.every((i) => i.stream === notification || i.category === 'hubSnapshot'),
    hub.map((i) => i.stream).join(', '),
  );

  // the receiver itself refused it (not the outbound guard)
  assert.is(rx.received.length, 1, 'one submission reached the receiver');
  assert.is(hub.find((i) => i.type === 'MessageFailed')?.data.HttpStatus, 400);
  const raised = hub.find((i) => i.type === 'AlertRaised')!;
  assert.is(raised.data.MessageId, Messages[0]!.MessageId);

  const alert = timeline.find((i) => i.service === 'bridge' && i.data?.event?.type === ALERT_TYPE)!;
  assert.is(alert.correlationId, CORRELATION);
  assert.is(alert.causationId, raised.eventId, 'the AlertRaised event is its cause');
  assert.is(alert.data.event.data.NotificationId, NotificationId);
  assert.is(alert.data.event.eventBusName, 'platform', 'on the platform bus');
  assert.ok(timeline.indexOf(raised) < timeline.indexOf(alert), 'oldest first: the alert after what raised it');
});

test.run();
