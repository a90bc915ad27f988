// Customer policies through the whole platform (docs/hub.md#customer-policies): the preference, interaction,
// frequency-cap and quiet-hours APIs, and sends through the dispatch gate to a real webhook receiver:
// suppressed by an opt-out (the receiver sees nothing), by the default (comm-hub.preference.default-allow
// false), by a frequency cap under 20 concurrent sends (exactly the limit reaches the receiver), and held
// by quiet hours until the manual clock passes the window (a fixed instant, an overnight window in the
// tenant's zone Europe/Berlin set through the configuration center), or expired at ExpiresAt.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BRIDGE_ADMIN_BASE } from '../../../http/bridge/bridge.paths.ts';
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
/** per customer id, how the receiver answers its n-th submission (default 200) */
const script = new Map<string, Behaviour[]>();

test.before(async () => {
  // the spec's default: nothing allows → not sent
  p = await startHubPlatform({ env: { HUB_PREFERENCE_DEFAULT_ALLOW: 'false' } });
  rx = await startWebhookReceiver((s) => script.get(s.body.Recipient?.RecipientId)?.shift() ?? 200);
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const admin = (tenant = 'acme') => p.token(tenant);
const sendFor = async (tenant: string, code: string, customerId: string, extra: Record<string, unknown> = {}) => {
  const body = aSend(code, {
    Payload: {
      amount: 1,
      policyNo: 'P-1',
      customer: { id: customerId, name: 'Jane Roe', email: 'jane@example.com', phone: '+4917012345' },
    },
    ...extra,
  });
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await admin(tenant), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body as { NotificationId: string; RequestId: string; Messages: Array<{ MessageId: string; State: string }> };
};
const message = async (tenant: string, id: string) =>
  (await p.call('GET', `${HUB}/messages/getById?messageId=${id}`, { token: await admin(tenant) })).body;
const messageWhere = (tenant: string, id: string, what: string, pred: (m: any) => boolean) =>
  p.eventually(async () => {
    const m = await message(tenant, id);
    return pred(m) ? m : undefined;
  }, what);
const submissions = (requestId: string): Submission[] => rx.received.filter((s) => s.body.RequestId === requestId);
const settle = () => quiet(p.platform);
const CONFIG_SECRET = 'config-spec-secret-0123456789';
/** a token of acme's bridge:admin client (registered by the test that writes configuration) */
async function configToken(): Promise<string> {
  p.syncClock();
  const res = await fetch(`${p.base}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`acme-config:${CONFIG_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'bridge:admin' }),
  });
  const body = (await res.json()) as { access_token?: string };
  assert.is(res.status, 200, JSON.stringify(body));
  return body.access_token!;
}

test('preferences API: set, read, effective answer, remove; validation and scopes', async () => {
  const t = await admin();
  const put = await p.call('PUT', `${HUB}/preferences`, {
    token: t,
    body: { RecipientId: 'C-api', Channel: 'EMAIL', NotificationClass: 'MARKETING', Decision: 'DENY' },
  });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.is(put.body.Decision, 'DENY');
  assert.is(put.body.Source, 'API');
  const eff = await p.call(
    'GET',
    `${HUB}/preferences/effective?recipientId=C-api&channel=EMAIL&notificationClass=MARKETING`,
    { token: t },
  );
  assert.equal(
    { Allowed: eff.body.Allowed, Source: eff.body.Source, Decision: eff.body.Decision },
    { Allowed: false, Source: 'EXACT', Decision: 'DENY' },
  );
  const other = await p.call(
    'GET',
    `${HUB}/preferences/effective?recipientId=C-api&channel=EMAIL&notificationClass=TRANSACTIONAL`,
    { token: t },
  );
  assert.equal(other.body, { Allowed: false, Source: 'DEFAULT' }, 'default-allow false');
  const list = await p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/preferences?recipientId=C-api`, { token: t });
    return r.body.Items.length === 1 ? r.body : undefined;
  }, 'the listing');
  assert.is(list.Items[0].NotificationClass, 'MARKETING');
  // a customer-facing application (hub:send) may set preferences too
  const send = await p.token('acme', ['hub:send']);
  assert.is(
    (
      await p.call('PUT', `${HUB}/preferences`, {
        token: send,
        body: { RecipientId: 'C-api', Channel: 'SMS', Decision: 'ALLOW' },
      })
    ).body.NotificationClass,
    '*',
  );
  const bad = await p.call('PUT', `${HUB}/preferences`, {
    token: t,
    body: { RecipientId: 'C-api', Channel: 'email', Decision: 'MAYBE' },
  });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'REQUEST.INVALID');
  assert.is(
    (
      await p.call('DELETE', `${HUB}/preferences?recipientId=C-api&channel=EMAIL&notificationClass=MARKETING`, {
        token: t,
      })
    ).status,
    204,
  );
  const gone = await p.call(
    'DELETE',
    `${HUB}/preferences?recipientId=C-api&channel=EMAIL&notificationClass=MARKETING`,
    { token: t },
  );
  assert.is(gone.status, 404);
  assert.is(gone.body.code, 'PREFERENCE.NOT_FOUND');
  assert.is((await p.call('GET', `${HUB}/preferences?recipientId=C-api`)).status, 401);
  assert.is(
    (await p.call('PUT', `${HUB}/preferences`, { body: { Decision: 'MAYBE' } })).status,
    401,
    'authentication before validation',
  );
  assert.is(
    (await p.call('PUT', `${HUB}/quiet-hours/SMS`, { token: send, body: { Windows: 'x' } })).status,
    403,
    'scope before validation',
  );
  // tenant isolation: beta sees nothing of acme's
  assert.equal(
    (await p.call('GET', `${HUB}/preferences/effective?recipientId=C-api&channel=SMS`, { token: await admin('beta') }))
      .body,
    { Allowed: false, Source: 'DEFAULT' },
  );
});

test('interactions API: an OPT_OUT sets DENY; resent once; other content 409; handling lifecycle; scopes', async () => {
  const send = await p.token('acme', ['hub:send']);
  const body = { InteractionId: 'sms-stop-1', Type: 'OPT_OUT', RecipientId: 'C-int', Channel: 'SMS', Text: 'STOP' };
  const r = await p.call('POST', `${HUB}/interactions`, { token: send, body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(r.body.Interaction.Status, 'RECEIVED');
  assert.equal(
    {
      d: r.body.Preference.Decision,
      c: r.body.Preference.NotificationClass,
      s: r.body.Preference.Source,
      i: r.body.Preference.InteractionId,
    },
    { d: 'DENY', c: '*', s: 'INTERACTION', i: 'sms-stop-1' },
  );
  const again = await p.call('POST', `${HUB}/interactions`, { token: send, body });
  assert.is(again.status, 200);
  const conflict = await p.call('POST', `${HUB}/interactions`, { token: send, body: { ...body, Type: 'REPLY' } });
  assert.is(conflict.status, 409);
  assert.is(conflict.body.code, 'INTERACTION.EXISTS');
  assert.is(
    (
      await p.call('POST', `${HUB}/interactions`, {
        token: send,
        body: { ...body, InteractionId: 'x', Type: 'BOUNCE' },
      })
    ).status,
    400,
  );
  // reading and handling are operator work
  assert.is((await p.call('GET', `${HUB}/interactions/sms-stop-1`, { token: send })).status, 403);
  const op = await admin();
  assert.is((await p.call('GET', `${HUB}/interactions/sms-stop-1`, { token: op })).body.Text, 'STOP');
  const listed = await p.eventually(async () => {
    const l = await p.call('GET', `${HUB}/interactions?recipientId=C-int&status=RECEIVED`, { token: op });
    return l.body.Total === 1 ? l.body : undefined;
  }, 'the interaction listed');
  assert.is(listed.Items[0].InteractionId, 'sms-stop-1');
  const handled = await p.call('POST', `${HUB}/interactions/sms-stop-1/handle`, {
    token: op,
    body: { Resolution: 'HANDLED', Note: 'confirmed by SMS' },
  });
  assert.is(handled.status, 200, JSON.stringify(handled.body));
  assert.is(handled.body.Status, 'HANDLED');
  const dismiss = await p.call('POST', `${HUB}/interactions/sms-stop-1/handle`, {
    token: op,
    body: { Resolution: 'DISMISSED' },
  });
  assert.is(dismiss.status, 409);
  assert.is(dismiss.body.code, 'INTERACTION.STATE_CONFLICT');
  assert.is(
    (await p.call('POST', `${HUB}/interactions/nope/handle`, { token: op, body: { Resolution: 'HANDLED' } })).status,
    404,
  );
  // a reply links to a message and changes no consent
  const reply = await p.call('POST', `${HUB}/interactions`, {
    token: send,
    body: { Type: 'REPLY', RecipientId: 'C-int', Channel: 'EMAIL', Text: 'thanks' },
  });
  assert.is(reply.status, 201);
  assert.is(reply.body.Preference, undefined);
});

test('frequency caps and quiet hours APIs: set, list, read, remove; invalid input 400 changing nothing', async () => {
  const t = await admin('beta');
  const put = await p.call('PUT', `${HUB}/frequency-caps/*`, { token: t, body: { Limit: 10, WindowSeconds: 86400 } });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.is(
    (await p.call('PUT', `${HUB}/frequency-caps/marketing`, { token: t, body: { Limit: 1, WindowSeconds: 60 } }))
      .status,
    400,
  );
  assert.is(
    (await p.call('PUT', `${HUB}/frequency-caps/MARKETING`, { token: t, body: { Limit: -1, WindowSeconds: 60 } }))
      .status,
    400,
  );
  assert.equal(
    (await p.call('GET', `${HUB}/frequency-caps`, { token: t })).body.Items.map((c: any) => c.Category),
    ['*'],
  );
  assert.is((await p.call('GET', `${HUB}/frequency-caps/*`, { token: t })).body.Limit, 10);
  assert.is((await p.call('DELETE', `${HUB}/frequency-caps/*`, { token: t })).status, 204);
  const gone = await p.call('GET', `${HUB}/frequency-caps/*`, { token: t });
  assert.is(gone.status, 404);
  assert.is(gone.body.code, 'FREQUENCY_CAP.NOT_FOUND');
  assert.is(
    (
      await p.call('PUT', `${HUB}/frequency-caps/*`, {
        token: await p.token('beta', ['hub:send']),
        body: { Limit: 1, WindowSeconds: 60 },
      })
    ).status,
    403,
  );

  const q = await p.call('PUT', `${HUB}/quiet-hours/SMS`, {
    token: t,
    body: { Windows: [{ Start: '22:00', End: '07:00' }] },
  });
  assert.is(q.status, 200, JSON.stringify(q.body));
  const bad = await p.call('PUT', `${HUB}/quiet-hours/SMS`, {
    token: t,
    body: { Windows: [{ Start: '25:00', End: '07:00' }] },
  });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'QUIET_HOURS.INVALID');
  const list = await p.call('GET', `${HUB}/quiet-hours`, { token: t });
  assert.equal(
    list.body.Items.map((h: any) => [h.Channel, h.Windows]),
    [['SMS', [{ Start: '22:00', End: '07:00' }]]],
  );
  assert.is(list.body.TimeZone, 'UTC');
  assert.is((await p.call('DELETE', `${HUB}/quiet-hours/SMS`, { token: t })).status, 204);
  assert.is((await p.call('GET', `${HUB}/quiet-hours/SMS`, { token: t })).status, 404);
  const doc = (await p.call('GET', '/v3/api-docs/connecthub')).body;
  for (const path of [
    '/comm/v1/preferences',
    '/comm/v1/interactions',
    '/comm/v1/frequency-caps',
    '/comm/v1/quiet-hours',
  ])
    assert.ok(doc.paths[path], `${path} in the connecthub group`);
});

test('end to end: allowed → sent; a bounce keeps consent; an OPT_OUT suppresses the next send and the receiver sees nothing', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const t = await admin();
  await p.call('PUT', `${HUB}/preferences`, {
    token: t,
    body: { RecipientId: 'C-opt', Channel: 'EMAIL', Decision: 'ALLOW' },
  });
  const first = await sendFor('acme', s.code, 'C-opt');
  await messageWhere('acme', first.Messages[0]!.MessageId, 'ACCEPTED', (m) => m.State === 'ACCEPTED');
  const [sub] = submissions(first.RequestId);
  // the provider reports a bounce: the message fails, consent does not change
  const bounce = await sendReceipt(p.base, sub!.body.CallbackId, {
    Status: 'FAILED',
    ProviderRef: 'bounce 5.1.1',
    Retryable: false,
  });
  assert.is(bounce.body.State, 'FAILED');
  assert.is(
    (
      await p.call(
        'GET',
        `${HUB}/preferences/effective?recipientId=C-opt&channel=EMAIL&notificationClass=TRANSACTIONAL`,
        { token: t },
      )
    ).body.Allowed,
    true,
  );

  const out = await p.call('POST', `${HUB}/interactions`, {
    token: t,
    body: { Type: 'OPT_OUT', RecipientId: 'C-opt', Channel: 'EMAIL', MessageId: first.Messages[0]!.MessageId },
  });
  assert.is(out.status, 201);
  const second = await sendFor('acme', s.code, 'C-opt');
  const m = await messageWhere('acme', second.Messages[0]!.MessageId, 'SUPPRESSED', (x) => x.State === 'SUPPRESSED');
  assert.is(m.Reason, 'PREFERENCE_OPTED_OUT');
  assert.is(m.Attempts, 0, 'no attempt');
  await settle();
  assert.is(submissions(second.RequestId).length, 0, 'the receiver saw nothing');
  const tl = (await p.call('GET', `${HUB}/messages/timeline?messageId=${m.MessageId}`, { token: t })).body;
  assert.equal(
    tl.Events.map((e: any) => e.Type),
    ['MessagePrepared', 'MessageSuppressed'],
  );
  // the interaction did not touch the first message's delivery evidence
  assert.is((await message('acme', first.Messages[0]!.MessageId)).State, 'FAILED');
});

test('end to end: nothing allows and default-allow is false → SUPPRESSED PREFERENCE_NOT_ALLOWED; BYPASS sends', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  const ack = await sendFor('acme', s.code, 'C-nobody');
  const m = await messageWhere('acme', ack.Messages[0]!.MessageId, 'SUPPRESSED', (x) => x.State === 'SUPPRESSED');
  assert.is(m.Reason, 'PREFERENCE_NOT_ALLOWED');
  const bypass = await configure(p, 'acme', { receiverUrl: rx.url, preferencePolicy: 'BYPASS' });
  const sent = await sendFor('acme', bypass.code, 'C-nobody');
  await messageWhere('acme', sent.Messages[0]!.MessageId, 'ACCEPTED', (x) => x.State === 'ACCEPTED');
  assert.is(submissions(sent.RequestId).length, 1);
  await settle();
  assert.is(submissions(ack.RequestId).length, 0);
});

test('end to end: 20 concurrent sends to one recipient under a cap of 3: exactly 3 reach the receiver, 17 FREQUENCY_CAP_EXCEEDED', async () => {
  const t = await admin('beta');
  const s = await configure(p, 'beta', { receiverUrl: rx.url });
  assert.is(
    (await p.call('PUT', `${HUB}/frequency-caps/TRANSACTIONAL`, { token: t, body: { Limit: 3, WindowSeconds: 3600 } }))
      .status,
    200,
  );
  await p.call('PUT', `${HUB}/preferences`, {
    token: t,
    body: { RecipientId: 'C-cap', Channel: 'EMAIL', Decision: 'ALLOW' },
  });
  const acks = await Promise.all(Array.from({ length: 20 }, () => sendFor('beta', s.code, 'C-cap')));
  const finals = await Promise.all(
    acks.map((a) =>
      messageWhere(
        'beta',
        a.Messages[0]!.MessageId,
        'settled',
        (m) => m.State === 'ACCEPTED' || m.State === 'SUPPRESSED',
      ),
    ),
  );
  assert.is(finals.filter((m) => m.State === 'ACCEPTED').length, 3);
  assert.is(finals.filter((m) => m.State === 'SUPPRESSED' && m.Reason === 'FREQUENCY_CAP_EXCEEDED').length, 17);
  await settle();
  assert.is(
    acks.reduce((n, a) => n + submissions(a.RequestId).length, 0),
    3,
    'exactly 3 webhook calls',
  );
  const usage = (await p.call('GET', `${HUB}/frequency-caps/usage?recipientId=C-cap`, { token: t })).body;
  assert.equal(usage.Caps, [{ Category: 'TRANSACTIONAL', Limit: 3, WindowSeconds: 3600, Used: 3 }]);
  assert.is(usage.Reservations.length, 3);
  await p.call('DELETE', `${HUB}/frequency-caps/TRANSACTIONAL`, { token: t });
});

test('end to end: a retry takes no new slot; a cancelled message with a pending retry gives its slot back', async () => {
  const t = await admin();
  const s = await configure(p, 'acme', {
    receiverUrl: rx.url,
    retry: { MaxAttempts: 3, RetryInitialDelaySeconds: 60, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 60 },
  });
  assert.is(
    (await p.call('PUT', `${HUB}/frequency-caps/TRANSACTIONAL`, { token: t, body: { Limit: 1, WindowSeconds: 3600 } }))
      .status,
    200,
  );
  for (const c of ['C-retry', 'C-cancel'])
    await p.call('PUT', `${HUB}/preferences`, {
      token: t,
      body: { RecipientId: c, Channel: 'EMAIL', Decision: 'ALLOW' },
    });
  const usage = async (c: string) =>
    (await p.call('GET', `${HUB}/frequency-caps/usage?recipientId=${c}`, { token: t })).body.Caps[0].Used;

  // 429, then 200 on the retry: one slot for both attempts
  script.set('C-retry', [429]);
  const a = await sendFor('acme', s.code, 'C-retry');
  const failed = await messageWhere(
    'acme',
    a.Messages[0]!.MessageId,
    'FAILED with a retry',
    (m) => m.State === 'FAILED' && m.NextRetryTime !== undefined,
  );
  p.advance(Date.parse(failed.NextRetryTime) - p.clock.now().getTime() + 1000);
  await messageWhere('acme', a.Messages[0]!.MessageId, 'ACCEPTED on the retry', (m) => m.State === 'ACCEPTED');
  assert.is(submissions(a.RequestId).length, 2);
  assert.is(await usage('C-retry'), 1, 'the retry took no new slot');
  const b = await sendFor('acme', s.code, 'C-retry');
  assert.is(
    (await messageWhere('acme', b.Messages[0]!.MessageId, 'SUPPRESSED', (m) => m.State === 'SUPPRESSED')).Reason,
    'FREQUENCY_CAP_EXCEEDED',
  );

  // 429: the pending retry holds the slot; the operator cancels it: the slot comes back
  script.set('C-cancel', [429]);
  const c = await sendFor('acme', s.code, 'C-cancel');
  await messageWhere(
    'acme',
    c.Messages[0]!.MessageId,
    'FAILED with a retry',
    (m) => m.State === 'FAILED' && m.NextRetryTime !== undefined,
  );
  assert.is(await usage('C-cancel'), 1);
  const cancel = await p.call('POST', `${HUB}/messages/cancel?messageId=${c.Messages[0]!.MessageId}`, {
    token: t,
    body: { Reason: 'customer called' },
  });
  assert.is(cancel.status, 200, JSON.stringify(cancel.body));
  await p.eventually(
    async () => ((await usage('C-cancel')) === 0 ? true : undefined),
    'the cancelled message released its slot',
  );
  const d = await sendFor('acme', s.code, 'C-cancel');
  await messageWhere('acme', d.Messages[0]!.MessageId, 'ACCEPTED', (m) => m.State === 'ACCEPTED');
  await p.call('DELETE', `${HUB}/frequency-caps/TRANSACTIONAL`, { token: t });
});

test('end to end: quiet hours keep the message SCHEDULED until the window ends (a fixed instant on the manual clock, an overnight window in Europe/Berlin); a release past ExpiresAt expires it', async () => {
  const _t = await admin();
  const s = await configure(p, 'acme', { receiverUrl: rx.url, channels: ['PUSH'], preferencePolicy: 'BYPASS' });
  // the tenant's zone (comm-hub.time-zone) through the configuration center, written by a bridge:admin client
  await p.commands.registerClient(
    {
      clientId: 'acme-config',
      grantTypes: ['client_credentials'],
      defaultUser: 'hub-svc',
      scopes: ['bridge:admin'],
      clientSecret: CONFIG_SECRET,
    },
    { tenant: 'acme', actor: 'spec' },
    'spec/client/acme-config',
  );
  const zone = await p.call('PUT', `${BRIDGE_ADMIN_BASE}/config/comm-hub.time-zone`, {
    token: await configToken(),
    body: { value: 'Europe/Berlin' },
  });
  assert.ok(zone.status < 300, JSON.stringify(zone.body));
  // a fixed instant (the clock only moves forward: far ahead of any real run): 21:30 UTC = 22:30 in Berlin (winter, UTC+1)
  const AT = Date.parse('2040-01-15T21:30:00.000Z');
  p.advance(AT - p.clock.now().getTime());
  assert.is(p.clock.now().toISOString(), '2040-01-15T21:30:00.000Z');
  // overnight in Berlin: 22:00 → 07:00 (21:00Z → 06:00Z next day)
  assert.is(
    (
      await p.call('PUT', `${HUB}/quiet-hours/PUSH`, {
        token: await admin(),
        body: { Windows: [{ Start: '22:00', End: '07:00' }] },
      })
    ).status,
    200,
  );
  const ack = await sendFor('acme', s.code, 'C-quiet');
  const m = await messageWhere('acme', ack.Messages[0]!.MessageId, 'deferred', (x) => x.State === 'SCHEDULED');
  assert.is(
    m.DueAt,
    '2040-01-16T07:00:00.000+01:00',
    'the due time moved to the window end: 07:00 in Berlin the next morning (shown in the tenant zone)',
  );
  assert.is(Date.parse(m.DueAt), Date.parse('2040-01-16T06:00:00.000Z'));
  const expiring = await sendFor('acme', s.code, 'C-quiet', { ExpiresAt: '2040-01-15T22:00:00.000Z' });
  await messageWhere('acme', expiring.Messages[0]!.MessageId, 'deferred', (x) => x.State === 'SCHEDULED');
  await settle();
  assert.is(submissions(ack.RequestId).length, 0, 'nothing sent during quiet hours');

  p.advance(35 * 60_000); // 22:05Z: past ExpiresAt, still inside the window
  const expired = await messageWhere('acme', expiring.Messages[0]!.MessageId, 'EXPIRED', (x) => x.State === 'EXPIRED');
  assert.is(expired.Attempts, 0, 'no attempt');
  p.advance(8 * 3_600_000 - 4 * 60_000); // 06:01Z = 07:01 in Berlin: the window ended
  await messageWhere('acme', ack.Messages[0]!.MessageId, 'sent after the window', (x) => x.State === 'ACCEPTED');
  assert.is(submissions(ack.RequestId).length, 1);
  assert.is(submissions(expiring.RequestId).length, 0);
  await p.call('DELETE', `${HUB}/quiet-hours/PUSH`, { token: await admin() });
  await p.call('DELETE', `${BRIDGE_ADMIN_BASE}/config/comm-hub.time-zone`, { token: await configToken() });
});

test.run();
