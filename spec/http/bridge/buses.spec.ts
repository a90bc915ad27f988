import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('buses and sources over HTTP');
let p: BridgePlatform;
let acme: string;
let beta: string;
let platform: string;

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
  beta = await p.token('beta');
  platform = await p.token('platform');
});
test.after(async () => p.stop());

const listNames = async (token: string) =>
  ((await p.call('GET', `${ADMIN}/buses`, { token })).body.items as Array<{ name: string }>).map((b) => b.name).sort();

test('the seed: the platform bus family and baseline buses, with the platform sources', async () => {
  const names = await p.eventually(async () => {
    const n = await listNames(acme);
    return n.length >= 5 ? n : undefined;
  }, 'seeded buses listed');
  assert.equal(names, ['baseline-claim', 'baseline-policy', 'baseline-product', 'platform', 'platform-batch']);
  const batch = await p.call('GET', `${ADMIN}/buses/platform-batch`, { token: acme });
  assert.is(batch.status, 200);
  assert.is(batch.body.kind, 'platform');
  assert.equal(batch.body.sources, [
    {
      bus: 'platform-batch',
      name: 'batchv2:job',
      kind: 'platform',
      eventTypes: ['batchv2:Alter:JobAlter'],
      schemaId: '100000000000003',
    },
  ]);
  const main = await p.call('GET', `${ADMIN}/buses/platform/sources`, { token: acme });
  assert.ok(
    main.body.items.every(
      (s: { kind: string; schemaId?: string }) => s.kind === 'platform' && s.schemaId !== undefined,
    ),
  );
  assert.ok(main.body.items.length >= 2);
});

test('a tenant creates, lists, reads and deletes its custom bus', async () => {
  const created = await p.call('POST', `${ADMIN}/buses`, {
    token: acme,
    body: { name: 'orders', description: 'order events' },
  });
  assert.is(created.status, 201);
  assert.equal(created.body, { name: 'orders', kind: 'custom', tenant: 'acme', description: 'order events' });
  assert.is(
    (await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).body.code,
    'BUS.EXISTS',
  );
  // the same name in another tenant is another bus
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: beta, body: { name: 'orders' } })).status, 201);
  await p.eventually(async () => ((await listNames(acme)).includes('orders') ? true : undefined), 'orders listed');
  assert.ok(!(await listNames(acme)).includes('beta/orders'));
  const one = await p.call('GET', `${ADMIN}/buses/orders`, { token: acme });
  assert.equal([one.body.tenant, one.body.sources], ['acme', []]);
  // another tenant's bus is not found for a tenant, readable by the platform
  assert.is((await p.call('GET', `${ADMIN}/buses/${encodeURIComponent('beta/orders')}`, { token: acme })).status, 404);
  assert.is(
    (await p.call('GET', `${ADMIN}/buses/${encodeURIComponent('beta/orders')}`, { token: platform })).body.tenant,
    'beta',
  );

  assert.is((await p.call('POST', PUT_EVENT, { token: acme, body: anEvent() })).status, 200);
  assert.is((await p.call('DELETE', `${ADMIN}/buses/orders`, { token: acme })).status, 204);
  assert.is((await p.call('POST', PUT_EVENT, { token: acme, body: anEvent() })).status, 404);
  assert.is((await p.call('DELETE', `${ADMIN}/buses/orders`, { token: acme })).status, 404);
  assert.is((await p.call('GET', `${ADMIN}/buses/orders`, { token: acme })).status, 404);
  // beta's is untouched
  assert.is((await p.call('GET', `${ADMIN}/buses/orders`, { token: beta })).status, 200);
});

test('platform and baseline buses: pre-set, not created, changed or deleted by tenants', async () => {
  const reserved = await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'platform-mine' } });
  assert.is(reserved.status, 400);
  assert.is(reserved.body.code, 'BUS.NAME_RESERVED');
  assert.is(
    (await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'baseline-x', kind: 'baseline' } })).status,
    403,
  );
  assert.is((await p.call('DELETE', `${ADMIN}/buses/platform`, { token: acme })).status, 403);
  assert.is(
    (await p.call('PUT', `${ADMIN}/buses/platform/sources/shop:checkout`, { token: acme, body: { kind: 'sdk' } }))
      .status,
    403,
  );
  // the platform's administrators may
  const baseline = await p.call('POST', `${ADMIN}/buses`, {
    token: platform,
    body: { name: 'baseline-life', kind: 'baseline' },
  });
  assert.is(baseline.status, 201);
  assert.equal([baseline.body.kind, baseline.body.tenant], ['baseline', 'platform']);
  const bad = await p.call('POST', `${ADMIN}/buses`, { token: platform, body: { name: 'life', kind: 'baseline' } });
  assert.is(bad.status, 400);
});

test('event sources: registered per bus with their event types; platform sources on platform buses with a schema', async () => {
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'claims' } })).status, 201);
  const sdk = await p.call('PUT', `${ADMIN}/buses/claims/sources/claims:intake`, {
    token: acme,
    body: { kind: 'sdk', eventTypes: ['claims:Claim:Registered'] },
  });
  assert.is(sdk.status, 200, JSON.stringify(sdk.body));
  assert.equal(sdk.body, {
    bus: 'claims',
    name: 'claims:intake',
    kind: 'sdk',
    eventTypes: ['claims:Claim:Registered'],
  });
  const again = await p.call('PUT', `${ADMIN}/buses/claims/sources/claims:intake`, {
    token: acme,
    body: { kind: 'webhook', eventTypes: [] },
  });
  assert.is(again.body.kind, 'webhook');
  await p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/buses/claims/sources`, { token: acme });
    return r.body.items.length === 1 && r.body.items[0].kind === 'webhook' ? true : undefined;
  }, 'source listed');
  const platformKind = await p.call('PUT', `${ADMIN}/buses/claims/sources/claims:x`, {
    token: acme,
    body: { kind: 'platform', schemaId: '100000000000003' },
  });
  assert.is(platformKind.status, 400);
  assert.is(platformKind.body.code, 'SOURCE.PLATFORM_BUS_ONLY');
  const noSchema = await p.call('PUT', `${ADMIN}/buses/platform/sources/iam:role`, {
    token: platform,
    body: { kind: 'platform', eventTypes: ['iam:Role:CreateRole'] },
  });
  assert.is(noSchema.status, 400);
  const unknownSchema = await p.call('PUT', `${ADMIN}/buses/platform/sources/iam:role`, {
    token: platform,
    body: { kind: 'platform', schemaId: '424242', eventTypes: [] },
  });
  assert.is(unknownSchema.status, 400);
  assert.is(unknownSchema.body.code, 'SCHEMA.UNKNOWN');
  const ok = await p.call('PUT', `${ADMIN}/buses/platform/sources/iam:role`, {
    token: platform,
    body: { kind: 'platform', schemaId: '100000000000001', eventTypes: ['iam:Role:CreateRole'] },
  });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  assert.is(
    (await p.call('PUT', `${ADMIN}/buses/nothing/sources/a:b`, { token: acme, body: { kind: 'sdk' } })).status,
    404,
  );
  assert.is(
    (await p.call('PUT', `${ADMIN}/buses/claims/sources/bad~name`, { token: acme, body: { kind: 'sdk' } })).status,
    400,
  );
});

test('scope bridge:admin required', async () => {
  const publishOnly = await p.token('acme', ['bridge:publish']);
  assert.is((await p.call('GET', `${ADMIN}/buses`, { token: publishOnly })).status, 403);
  assert.is((await p.call('GET', `${ADMIN}/buses`)).status, 401);
});

test.run();
