// POST /comm/v1/notifications/send through the whole platform (real SQLite stores, real tokens, a real
// receiver on loopback): acceptance and its acknowledgement, equivalent replay (200, stored ack), conflicts
// (409), no definition (404), nothing sendable (422, nothing stored), bad input (400), concurrent duplicate
// sends (one 201, the others 200, one notification), the masked payload, snapshots reused and renewed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { notificationStream } from '../../../domain/hub/notification.decider.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let setup: Setup;
let token: string;
const send = (body: unknown, t = token) => p.call('POST', `${HUB}/notifications/send`, { token: t, body });

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 202);
  setup = await configure(p, 'acme', { receiverUrl: rx.url });
  token = await p.token('acme');
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test('201: the acknowledgement lists NotificationId, RequestId, SnapshotId and each message; the receiver gets the rendered content', async () => {
  const body = aSend(setup.code);
  const r = await send(body);
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(r.body.RequestId, body.RequestId);
  assert.match(r.body.NotificationId, /^[0-9a-f-]{36}$/);
  assert.match(r.body.SnapshotId, /^snap-[0-9a-f]{32}$/);
  assert.equal(r.body.Messages, [
    { MessageId: `${r.body.NotificationId}.m1`, Role: 'Customer', Channel: 'EMAIL', State: 'PLANNED' },
  ]);
  const got = await p.eventually(
    async () => rx.received.find((s) => s.body.NotificationId === r.body.NotificationId),
    'the webhook',
  );
  assert.is(got.body.BodyText, 'Dear Jane Roe, you pay 120.');
  assert.is(got.body.Recipient.Address, 'jane@example.com');
});

test('the stored notification keeps the payload masked per the context definition', async () => {
  const r = await send(aSend(setup.code));
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${r.body.RequestId}`, { token });
  assert.is(g.status, 200);
  assert.equal(g.body.Payload.customer, {
    id: 'C-1',
    name: 'J*** R**',
    email: 'j***@example.com',
    phone: '+4917012345',
  });
  const events = await p.platform.stores.eventStore.readStream(notificationStream('acme', r.body.NotificationId));
  assert.is(
    JSON.stringify(events[0]!.data).includes('jane@example.com'),
    true,
    'the address to deliver to is kept on the message',
  );
  assert.is(JSON.stringify((events[0]!.data as any).Notification.Payload).includes('jane@'), false);
});

test('a context whose SensitiveFields name values as its Variables do (Context.…, Payload.…): saved, the stored payload and previews masked, the receiver unmasked', async () => {
  const named = await configure(p, 'acme', {
    receiverUrl: rx.url,
    sensitiveFields: [
      { Path: 'Context.customer.email', Method: 'EMAIL' },
      { Path: 'Payload.customer.name', Method: 'NAME' },
    ],
  });
  const r = await send(aSend(named.code));
  assert.is(r.status, 201, JSON.stringify(r.body));
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${r.body.RequestId}`, { token });
  assert.equal(g.body.Payload.customer, {
    id: 'C-1',
    name: 'J*** R**',
    email: 'j***@example.com',
    phone: '+4917012345',
  });
  const events = await p.platform.stores.eventStore.readStream(notificationStream('acme', r.body.NotificationId));
  assert.is(JSON.stringify((events[0]!.data as any).Notification.Payload).includes('jane@'), false);
  const got = await p.eventually(
    async () => rx.received.find((s) => s.body.NotificationId === r.body.NotificationId),
    'the webhook',
  );
  assert.equal(
    [got.body.BodyText, got.body.Recipient.Address],
    ['Dear Jane Roe, you pay 120.', 'jane@example.com'],
    'extraction and rendering use the original values',
  );
  const contextId = `ctx-${named.code.split('-')[1]}`;
  const preview = await p.call('POST', `${HUB}/templates/previewContent`, {
    token,
    body: {
      Channel: 'EMAIL',
      LanguageId: 'en_US',
      ContentType: 'TEXT',
      Body: '${Name} <${Email}>',
      ContextDefinitionId: contextId,
      SamplePayload: aSend(named.code).Payload,
    },
  });
  assert.is(preview.body.BodyText, 'J*** R** <j***@example.com>');
  const undeclared = await p.call('POST', `${HUB}/context-definitions`, {
    token,
    body: {
      ContextDefinitionId: `${contextId}-x`,
      Contexts: { customer: '$.customer' },
      SensitiveFields: [{ Path: 'Context.policy.holder.email', Method: 'EMAIL' }],
    },
  });
  assert.is(undeclared.status, 400);
  assert.equal(undeclared.body.details, [
    { field: 'SensitiveFields.0.Path', message: 'names the context alias policy, which Contexts does not declare' },
  ]);
});

test('200: an equivalent replay answers the stored acknowledgement and dispatches nothing new; other content is 409', async () => {
  const body = aSend(setup.code);
  const first = await send(body);
  assert.is(first.status, 201);
  await p.eventually(async () => rx.received.find((s) => s.body.RequestId === body.RequestId), 'the first dispatch');
  const again = await send({ ...body, Payload: { ...body.Payload } });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  const conflict = await send({ ...body, Payload: { ...body.Payload, amount: 121 } });
  assert.is(conflict.status, 409);
  assert.is(conflict.body.code, 'SEND.REQUEST_CONFLICT');
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${body.RequestId}`, { token });
  assert.is(g.body.Messages[0].Attempts, 1);
  const events = await p.platform.stores.eventStore.readStream(notificationStream('acme', first.body.NotificationId));
  assert.is(events.filter((e) => e.type === 'NotificationAccepted').length, 1);
});

test('concurrent duplicate sends of one RequestId: one 201, the others 200 with the same acknowledgement, one notification', async () => {
  const body = aSend(setup.code);
  const answers = await Promise.all(Array.from({ length: 8 }, () => send(body)));
  const statuses = answers.map((a) => a.status).sort();
  assert.equal(statuses, [200, 200, 200, 200, 200, 200, 200, 201]);
  for (const a of answers) assert.equal(a.body, answers[0]!.body);
  const events = await p.platform.stores.eventStore.readStream(
    notificationStream('acme', answers[0]!.body.NotificationId),
  );
  assert.equal(
    events.map((e) => e.type).filter((t) => t === 'NotificationAccepted'),
    ['NotificationAccepted'],
  );
});

test('404: no enabled definition effective now; 422: every message fails validation, and nothing is stored', async () => {
  const none = await send(aSend('no-such-code'));
  assert.is(none.status, 404);
  assert.is(none.body.code, 'SEND.DEFINITION_NOT_FOUND');
  const body = aSend(setup.code, { Payload: { amount: 1, customer: { id: 'C-9' } } });
  const r = await send(body);
  assert.is(r.status, 422);
  assert.is(r.body.code, 'SEND.NOT_SENDABLE');
  assert.is(r.body.details.Messages[0].Reason, 'RECIPIENT_MISSING');
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${body.RequestId}`, { token });
  assert.is(g.status, 404);
});

test('400s: RequestId over 64, Payload over 64 KiB, LANGUAGE_ID, a missing NotificationCode, duplicate role/channel pairs', async () => {
  const cases: Array<[unknown, string]> = [
    [aSend(setup.code, { RequestId: 'x'.repeat(65) }), 'REQUEST.INVALID'],
    [aSend(setup.code, { Payload: { blob: 'x'.repeat(70_000) } }), 'SEND.INVALID'],
    [aSend(setup.code, { LANGUAGE_ID: 'en_US' }), 'SEND.INVALID'],
    [{ RequestId: 'r-x' }, 'REQUEST.INVALID'],
    [
      aSend(setup.code, {
        Recipients: [
          { Role: 'A', Channel: 'EMAIL', Address: 'a@x' },
          { Role: 'A', Channel: 'EMAIL', Address: 'b@x' },
        ],
      }),
      'SEND.INVALID',
    ],
    [aSend(setup.code, { SendAt: '2026-03-01T10:00:00', ExpiresAt: '2026-03-01T09:00:00' }), 'SEND.INVALID'],
  ];
  for (const [body, code] of cases) {
    const r = await send(body);
    assert.is(r.status, 400, JSON.stringify(r.body));
    assert.is(r.body.code, code, JSON.stringify(r.body));
  }
});

test('scopes: no token 401; a token without hub:send 403', async () => {
  assert.is((await p.call('POST', `${HUB}/notifications/send`, { body: aSend(setup.code) })).status, 401);
  const adminOnly = await p.token('acme', ['hub:admin']);
  assert.is((await send(aSend(setup.code), adminOnly)).status, 403);
});

test('snapshots: an unchanged configuration reuses the snapshot; an edit makes a new one for new sends only; no secrets in it', async () => {
  const a = await send(aSend(setup.code));
  const b = await send(aSend(setup.code));
  assert.is(b.body.SnapshotId, a.body.SnapshotId);
  const t = await p.call('PUT', `${HUB}/templates/${setup.code}:EMAIL:en_US`, {
    token,
    body: { ContentType: 'TEXT', Subject: 'Policy ${PolicyNo}', Body: 'Hello ${Name}.', Status: 'ACTIVE' },
  });
  assert.is(t.status, 200, JSON.stringify(t.body));
  const c = await send(aSend(setup.code));
  assert.is.not(c.body.SnapshotId, a.body.SnapshotId);
  const snap = await p.call('GET', `${HUB}/configuration-snapshots/getById?snapshotId=${a.body.SnapshotId}`, { token });
  assert.is(snap.status, 200);
  assert.is(snap.body.Content.Templates[0].Body, 'Dear ${Name}, you pay ${Amount}.');
  assert.is(snap.body.DefinitionId, setup.definitionId);
  assert.not.match(JSON.stringify(snap.body), /whsec_|enc:v\d|jane@/);
  const list = await p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/configuration-snapshots/list?definitionId=${setup.definitionId}`, { token });
    return r.body.Total >= 2 ? r.body : undefined;
  }, 'both snapshots listed');
  assert.ok(list.Items.some((s: any) => s.SnapshotId === c.body.SnapshotId));
  const uses = await p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/configuration-snapshots/notifications?snapshotId=${c.body.SnapshotId}`, {
      token,
    });
    return r.body.Total >= 1 ? r.body : undefined;
  }, 'the notification listed');
  assert.is(uses.Items[0].NotificationId, c.body.NotificationId);
  assert.is(
    (
      await p.call('GET', `${HUB}/configuration-snapshots/getById?snapshotId=snap-00000000000000000000000000000000`, {
        token,
      })
    ).status,
    404,
  );
});

test('a replay is answered from the stored notification whatever the configuration says now: a new snapshot is not captured for it, a deleted definition is no 404', async () => {
  const beta = await configure(p, 'beta', { receiverUrl: rx.url });
  const bt = await p.token('beta');
  const body = aSend(beta.code);
  const first = await send(body, bt);
  assert.is(first.status, 201, JSON.stringify(first.body));
  const snapshots = async () =>
    (await p.platform.stores.eventStore.readAll({ filter: { categories: ['hubSnapshot'] } })).length;
  const before = await snapshots();
  const t = await p.call('PUT', `${HUB}/templates/${beta.code}:EMAIL:en_US`, {
    token: bt,
    body: { ContentType: 'TEXT', Subject: 'S', Body: 'Changed ${Name}.', Status: 'ACTIVE' },
  });
  assert.is(t.status, 200, JSON.stringify(t.body));
  const again = await send(body, bt);
  assert.is(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body, first.body);
  assert.is(await snapshots(), before, 'the replay captured no snapshot of the edited configuration');
  const other = await send({ ...body, Payload: { ...body.Payload, amount: 999 } }, bt);
  assert.is(other.status, 409, JSON.stringify(other.body));
  const malformed = await send({ ...body, LANGUAGE_ID: 'en_US' }, bt);
  assert.is(malformed.status, 400, 'a malformed request is refused as such, whatever its RequestId names');
  assert.is(malformed.body.code, 'SEND.INVALID');
  const d = await p.call('DELETE', `${HUB}/definitions/${beta.definitionId}`, { token: bt });
  assert.ok(d.status < 300, JSON.stringify(d.body));
  assert.is((await send(aSend(beta.code), bt)).status, 404, 'a new send finds no definition');
  const late = await send(body, bt);
  assert.is(late.status, 200, JSON.stringify(late.body));
  assert.equal(late.body, first.body);
  assert.is((await send({ ...body, Payload: { ...body.Payload, amount: 999 } }, bt)).status, 409);
});

test('the OpenAPI group connecthub is served at /v3/api-docs/connecthub and documents the acknowledgement', async () => {
  const doc = await p.call('GET', '/v3/api-docs/connecthub');
  assert.is(doc.status, 200);
  const sendOp = doc.body.paths['/comm/v1/notifications/send'].post;
  assert.ok(sendOp.responses['201'].content['application/json'].schema.properties.Messages);
  assert.ok(doc.body.paths['/comm/v1/callbacks/receipt']);
  assert.ok(doc.body.paths['/comm/v1/delivery-services/driverTypes']);
});

test.run();
