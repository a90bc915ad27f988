// One dead letter list per tenant across its rules and targets, filtered by rule, target
// type, error class and time, and redrive of a selection, over HTTP on the whole platform, with real preset
// HTTP targets posting to a receiver in this process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('dead letters per tenant');
const DLQ = `${ADMIN}/dead-letters`;

let healthy = false;
const received: string[] = [];
let receiver: Server;
let p: BridgePlatform;
let acme: string;
let beta: string;

const target = (service: string) => ({
  Id: 1,
  TypeId: 3,
  ErrorTolerance: 'ALL',
  DeadLetterRecord: true,
  Params: [
    { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: service },
    { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
  ],
});

/** waits for `probe`, moving the manual clock past the retries' waits between looks */
const settle = <T>(probe: () => Promise<T | undefined>, what: string) =>
  p.eventually(
    async () => {
      const v = await probe();
      if (v !== undefined) return v;
      p.clock.advance(20_000);
      return undefined;
    },
    { what, intervalMs: 30 },
  );

const list = (query = '', token = acme) => p.call('GET', `${DLQ}${query}`, { token });
type Entry = {
  deliveryId: string;
  ruleId: string;
  targetId: number;
  typeId: number;
  errorClass: string;
  deadLetteredAt: string;
  eventId: string;
};

let firstBatchAt = '';
let secondBatchAt = '';

test.before(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['x-delivery-id']));
      res.statusCode = healthy ? 200 : req.url?.startsWith('/down') ? 503 : 404;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  p = await startBridgePlatform({
    env: { SERVICE_REGISTRY: `down=${url}/down,gone=${url}/gone`, DELIVERY_POLL_MS: '10' },
  });
  acme = await p.token('acme');
  beta = await p.token('beta');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).status, 201);
  for (const [id, kind, service] of [
    ['to-down', 'a', 'down'],
    ['to-gone', 'b', 'gone'],
    ['to-nowhere', 'c', 'nowhere'],
  ] as const) {
    const r = await p.call('POST', `${ADMIN}/rules`, {
      token: acme,
      body: { id, bus: 'orders', name: id, pattern: { data: { kind: [kind] } }, targets: [target(service)] },
    });
    assert.is(r.status, 201, JSON.stringify(r.body));
  }
  await p.eventually(
    async () =>
      (await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: acme })).body?.items?.length === 3 ? true : undefined,
    'rules listed',
  );
});
test.after(async () => {
  await p.stop();
  await new Promise((r) => receiver.close(r));
});

test('one list per tenant across rules and targets: rule, target, type and the class of the last error', async () => {
  firstBatchAt = p.clock.now().toISOString();
  for (const kind of ['a', 'b', 'c'])
    assert.is((await p.call('POST', PUT_EVENT, { token: acme, body: anEvent({ data: { kind } }) })).status, 200);
  const all = await settle(async () => {
    const r = await list();
    return r.body?.total === 3 ? (r.body.items as Entry[]) : undefined;
  }, 'three dead letters');
  const byRule = Object.fromEntries(all.map((e) => [e.ruleId, e]));
  assert.is(byRule['to-down']!.errorClass, 'http-5xx');
  assert.is(byRule['to-gone']!.errorClass, 'http-4xx');
  assert.is(byRule['to-nowhere']!.errorClass, 'parameter');
  for (const e of all) {
    assert.is(e.typeId, 3);
    assert.is(e.targetId, 1);
    assert.match(e.eventId, /^[0-9a-f]{64}$/);
    assert.not.ok('stream' in e);
  }
  assert.is((await list('', beta)).body.total, 0, 'another tenant sees none of them');
});

test('filters: rule, error class, target type, time window; bad filters are 400', async () => {
  secondBatchAt = new Date(p.clock.now().getTime() + 60_000).toISOString();
  p.clock.advance(120_000);
  assert.is((await p.call('POST', PUT_EVENT, { token: acme, body: anEvent({ data: { kind: 'a' } }) })).status, 200);
  await settle(async () => ((await list()).body?.total === 4 ? true : undefined), 'four dead letters');

  const ids = async (q: string) => ((await list(q)).body.items as Entry[]).map((e) => e.ruleId).sort();
  assert.equal(await ids('?ruleId=to-down'), ['to-down', 'to-down']);
  assert.equal(await ids('?errorClass=http-4xx'), ['to-gone']);
  assert.equal(await ids('?typeId=3'), ['to-down', 'to-down', 'to-gone', 'to-nowhere']);
  assert.equal(await ids('?typeId=1'), []);
  assert.equal(await ids(`?from=${encodeURIComponent(secondBatchAt)}`), ['to-down']);
  assert.equal(
    await ids(`?from=${encodeURIComponent(firstBatchAt)}&to=${encodeURIComponent(secondBatchAt)}&ruleId=to-down`),
    ['to-down'],
  );
  const page = await list('?limit=2&offset=1');
  assert.is(page.body.items.length, 2);
  assert.is(page.body.total, 4);
  assert.is((await list('?errorClass=bogus')).status, 400);
  assert.is((await list('?from=yesterday')).status, 400);
});

test('redrive a selection: by ids (another tenant’s ids are skipped), then by filter', async () => {
  healthy = true;
  const before = (await list()).body.items as Entry[];
  const gone = before.find((e) => e.ruleId === 'to-gone')!;
  const r = await p.call('POST', `${DLQ}/redrive`, { token: acme, body: { deliveryIds: [gone.deliveryId] } });
  assert.is(r.status, 202, JSON.stringify(r.body));
  assert.equal(r.body, { redriven: [gone.deliveryId], count: 1, skipped: [] });
  await settle(
    async () => (received.includes(gone.deliveryId) && (await list()).body.total === 3 ? true : undefined),
    'delivered once redriven',
  );

  const down = before.filter((e) => e.ruleId === 'to-down').map((e) => e.deliveryId);
  const stranger = await p.call('POST', `${DLQ}/redrive`, { token: beta, body: { deliveryIds: down } });
  assert.equal(stranger.body, { redriven: [], count: 0, skipped: down }, 'another tenant redrives nothing');

  const byFilter = await p.call('POST', `${DLQ}/redrive`, {
    token: acme,
    body: { filter: { ruleId: 'to-down', errorClass: 'http-5xx' } },
  });
  assert.is(byFilter.status, 202);
  assert.equal(byFilter.body.redriven.sort(), [...down].sort());
  await settle(async () => ((await list()).body.total === 1 ? true : undefined), 'only the parameter error is left');
  assert.is(((await list()).body.items as Entry[])[0]!.ruleId, 'to-nowhere');

  assert.is((await p.call('POST', `${DLQ}/redrive`, { token: acme, body: {} })).status, 400, 'a selection is required');
  assert.is((await p.call('POST', `${DLQ}/redrive`, { token: acme, body: { deliveryIds: ['x'] } })).status, 400);
});

test('the OpenAPI document lists both routes', async () => {
  const doc = (await p.call('GET', '/api/platform/platform-pub/eventBridge/openapi.json')).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  assert.ok(doc.paths[DLQ]?.get);
  assert.ok(doc.paths[`${DLQ}/redrive`]?.post);
});

test.run();
