// The service registry as a configuration resource. SERVICE_REGISTRY seeds platform
// entries at start; the admin API changes them (a platform administrator) or adds a tenant's own; preset
// HTTP targets resolve the name at delivery time, so a changed URL needs no restart.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceRegistry } from '../../../commands/bridge/service-registry.commands.ts';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('service registry');
const SERVICES = `${ADMIN}/services`;
const received: Array<{ path: string; deliveryId: string }> = [];
let receiver: Server;
let url = '';
let p: BridgePlatform;
let acme: string;
let beta: string;
let platform: string;

test.before(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ path: req.url ?? '', deliveryId: String(req.headers['x-delivery-id']) });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  p = await startBridgePlatform({ env: { SERVICE_REGISTRY: `claims=${url}/seeded`, DELIVERY_POLL_MS: '10' } });
  [acme, beta, platform] = await Promise.all([p.token('acme'), p.token('beta'), p.token('platform')]);
  for (const token of [acme, beta]) {
    assert.is((await p.call('POST', `${ADMIN}/buses`, { token, body: { name: 'orders' } })).status, 201);
    const rule = {
      id: 'to-claims',
      bus: 'orders',
      name: 'to claims',
      pattern: { source: ['shop:checkout'] },
      targets: [
        {
          Id: 1,
          TypeId: 3,
          Params: [
            { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: 'claims' },
            { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
          ],
        },
      ],
    };
    assert.is((await p.call('POST', `${ADMIN}/rules`, { token, body: rule })).status, 201);
  }
  await p.eventually(
    async () =>
      (await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: beta })).body?.items?.length === 1 ? true : undefined,
    'rules listed',
  );
});
test.after(async () => {
  await p.stop();
  await new Promise((r) => receiver.close(r));
});

/** publishes one event as `token`'s tenant and answers the path its delivery reached */
async function deliveredTo(token: string): Promise<string> {
  const r = await p.call('POST', PUT_EVENT, { token, body: anEvent() });
  assert.is(r.status, 200);
  const deliveryId = await p.eventually(async () => {
    const t = await p.call('GET', `${ADMIN}/trace/events/${r.body.eventId}`, { token });
    return (t.body?.delivery as Array<{ status: string; deliveryId?: string }> | undefined)?.find(
      (d) => d.status === 'succeeded',
    )?.deliveryId;
  }, 'delivered');
  return received.find((x) => x.deliveryId === deliveryId)!.path;
}

test('SERVICE_REGISTRY seeds a platform entry every tenant sees and delivers to', async () => {
  const list = await p.call('GET', SERVICES, { token: acme });
  assert.is(list.status, 200);
  assert.equal(
    list.body.items.map((e: { name: string; scope: string; url: string }) => [e.name, e.scope, e.url]),
    [['claims', 'platform', `${url}/seeded/eventbridge/receivedEvent`]],
  );
  assert.is(await deliveredTo(acme), '/seeded/eventbridge/receivedEvent');
});

test('a platform administrator changes the URL: the next delivery goes there, no restart', async () => {
  const put = await p.call('PUT', `${SERVICES}/claims`, {
    token: platform,
    body: { baseUrl: `${url}/moved/`, receivePath: '/inbound' },
  });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body, {
    name: 'claims',
    baseUrl: `${url}/moved`,
    receivePath: '/inbound',
    url: `${url}/moved/inbound`,
    scope: 'platform',
  });
  assert.is(await deliveredTo(acme), '/moved/inbound');
  assert.is(await deliveredTo(beta), '/moved/inbound');
});

test("a tenant's own entry comes first for its rules; other tenants keep the platform's; removing it falls back", async () => {
  assert.is((await p.call('PUT', `${SERVICES}/claims`, { token: acme, body: { baseUrl: `${url}/acme` } })).status, 200);
  const mine = await p.call('GET', `${SERVICES}/claims`, { token: acme });
  assert.equal([mine.body.scope, mine.body.url], ['tenant', `${url}/acme/eventbridge/receivedEvent`]);
  assert.is(await deliveredTo(acme), '/acme/eventbridge/receivedEvent');
  assert.is(await deliveredTo(beta), '/moved/inbound');
  const list = await p.eventually(async () => {
    const r = await p.call('GET', SERVICES, { token: acme });
    return r.body.items.length === 2 ? r.body.items : undefined;
  }, 'both listed');
  assert.equal(list.map((e: { scope: string; overridden: boolean }) => [e.scope, e.overridden]).sort(), [
    ['platform', true],
    ['tenant', false],
  ]);
  assert.is((await p.call('GET', SERVICES, { token: beta })).body.items.length, 1, 'beta sees the platform entry only');

  assert.is(
    (await p.call('DELETE', `${SERVICES}/claims`, { token: beta })).status,
    404,
    'a tenant cannot remove the platform entry',
  );
  assert.is((await p.call('DELETE', `${SERVICES}/claims`, { token: acme })).status, 204);
  assert.is(await deliveredTo(acme), '/moved/inbound');
});

test('bad entries are 400; unknown names 404; the seed does not undo what the API changed', async () => {
  for (const body of [
    { baseUrl: 'ftp://x.example' },
    { baseUrl: 'http://x.example/?q=1' },
    { baseUrl: 'not a url' },
    { baseUrl: 'http://x.example', receivePath: 'no-slash' },
  ]) {
    const r = await p.call('PUT', `${SERVICES}/billing`, { token: acme, body });
    assert.is(r.status, 400, JSON.stringify(body));
    assert.is(r.body.code, 'SERVICE.INVALID');
  }
  assert.is((await p.call('GET', `${SERVICES}/billing`, { token: acme })).status, 404);
  assert.is((await p.call('GET', SERVICES)).status, 401);
  // a restart with the same SERVICE_REGISTRY seeds again: nothing written, the API's URL stays
  const registry = createServiceRegistry({ eventStore: p.platform.stores.eventStore, clock: p.clock });
  assert.is(await registry.seed({ claims: `${url}/seeded` }), 0);
  assert.is((await registry.resolve('beta', 'claims'))?.baseUrl, `${url}/moved`);
  // a new value of the variable counts
  assert.is(await registry.seed({ claims: `${url}/new` }), 1);
  assert.is((await registry.resolve('beta', 'claims'))?.baseUrl, `${url}/new`);
});

test.run();
