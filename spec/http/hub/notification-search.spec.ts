// The operators' notification search through the whole platform (a real server on port 0): notifications
// of two tenants, found by each filter alone and together, newest first and paged; another tenant's
// notifications never appear (not even by its own NotificationId); a bad query is a 400 JSON answer; the
// scope hub:send alone is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
type Ack = { NotificationId: string; RequestId: string; AcceptedAt: string };
const sent: Record<string, Ack[]> = { acme: [], beta: [] };
let acmeCode = '';
let betaCode = '';

const send = async (tenant: string, code: string, customer = 'C-1') => {
  const body = aSend(code, {
    Payload: { amount: 1, policyNo: 'P-1', customer: { id: customer, name: 'Jane Roe', email: 'jane@example.com' } },
  });
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token(tenant), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  sent[tenant]!.push(r.body as Ack);
  return r.body as Ack;
};
const search = async (query: Record<string, string | number>, tenant = 'acme', scopes?: string[]) =>
  p.call('GET', `${HUB}/notifications/search?${new URLSearchParams(query as Record<string, string>)}`, {
    token: await p.token(tenant, scopes),
  });
const ids = (r: { body: { Items: Array<{ NotificationId: string }> } }) => r.body.Items.map((i) => i.NotificationId);

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 200);
  acmeCode = (await configure(p, 'acme', { receiverUrl: rx.url })).code;
  betaCode = (await configure(p, 'beta', { receiverUrl: rx.url })).code;
  await send('acme', acmeCode, 'C-1');
  p.advance(1000);
  await send('acme', acmeCode, 'C-2');
  p.advance(1000);
  await send('acme', acmeCode, 'C-1');
  await send('beta', betaCode, 'C-1');
  // the search reads a projection: wait until all of acme's are there
  await p.eventually(async () => ((await search({})).body.Total === 3 ? true : undefined), 'acme indexed');
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test("newest first, paged; only the caller's tenant", async () => {
  const all = await search({});
  assert.is(all.status, 200);
  const acme = sent.acme!.map((a) => a.NotificationId);
  assert.equal(ids(all), [...acme].reverse());
  const first = all.body.Items[0];
  assert.is(first.RequestId, sent.acme![2]!.RequestId);
  assert.is(first.NotificationCode, acmeCode);
  assert.equal(first.RecipientIds, ['C-1']);
  const page2 = await search({ pageNo: 2, pageSize: 2 });
  assert.equal(ids(page2), [acme[0]]);
  assert.is(page2.body.Total, 3);
  assert.is(page2.body.PageNo, 2);
  const beta = await p.eventually(async () => {
    const r = await search({}, 'beta');
    return r.body.Total === 1 ? r : undefined;
  }, 'beta indexed');
  assert.equal(ids(beta), [sent.beta![0]!.NotificationId]);
});

test('each filter narrows, and they combine', async () => {
  const [a1, a2, a3] = sent.acme!;
  assert.equal(ids(await search({ requestId: a2!.RequestId })), [a2!.NotificationId]);
  assert.equal(ids(await search({ notificationId: a1!.NotificationId })), [a1!.NotificationId]);
  assert.equal(
    ids(await search({ notificationCode: acmeCode })),
    [a3!, a2!, a1!].map((a) => a.NotificationId),
  );
  assert.equal(ids(await search({ notificationCode: 'no-such-code' })), []);
  assert.equal(ids(await search({ recipientId: 'C-1' })), [a3!.NotificationId, a1!.NotificationId]);
  assert.equal(ids(await search({ recipientId: 'C-2', notificationCode: acmeCode })), [a2!.NotificationId]);
  assert.equal(ids(await search({ recipientId: 'C-2', requestId: a1!.RequestId })), []);
  // both ends included: a window holding exactly the second acceptance
  const at = new Date(a2!.AcceptedAt).toISOString();
  assert.equal(ids(await search({ acceptedFrom: at, acceptedTo: at })), [a2!.NotificationId]);
  assert.equal(ids(await search({ acceptedFrom: at })), [a3!.NotificationId, a2!.NotificationId]);
  assert.equal(ids(await search({ acceptedTo: at })), [a2!.NotificationId, a1!.NotificationId]);
});

test("another tenant's notifications never appear, by any filter", async () => {
  const b = sent.beta![0]!;
  assert.equal(ids(await search({ notificationId: b.NotificationId })), []);
  assert.equal(ids(await search({ requestId: b.RequestId })), []);
  assert.equal(ids(await search({ notificationCode: betaCode })), []);
  const acmeIds = new Set(sent.acme!.map((a) => a.NotificationId));
  assert.ok(ids(await search({}, 'beta')).every((id) => !acmeIds.has(id)));
});

test('a bad query is a 400 JSON answer naming the field; hub:send alone is refused', async () => {
  for (const [query, field] of [
    [{ acceptedFrom: 'yesterday' }, 'acceptedFrom'],
    [{ acceptedTo: '2026-02-30T00:00:00Z' }, 'acceptedTo'],
    [{ pageNo: 0 }, 'pageNo'],
    [{ unknown: 'x' }, 'unknown'],
  ] as const) {
    const r = await search(query as Record<string, string | number>);
    assert.is(r.status, 400, JSON.stringify(query));
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    assert.is(r.body.code, 'REQUEST.INVALID');
    assert.match(JSON.stringify(r.body.details), field);
  }
  const refused = await search({}, 'acme', ['hub:send']);
  assert.is(refused.status, 403);
  const operator = await search({}, 'acme', ['hub:operator']);
  assert.is(operator.status, 200);
  const admin = await search({}, 'acme', ['hub:admin']);
  assert.is(admin.status, 200);
});

test.run();
