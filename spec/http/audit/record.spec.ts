import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type AuditPlatform, aQuery, aRecord, startAuditPlatform, V3 } from './audit-harness.ts';

// One record by id and by sequence, and the reads' target tenant for the platform tenant's tokens: the whole
// platform with real stores and real tokens.
const test = suite('audit log: one record, and the platform tenant naming a tenant');
let p: AuditPlatform;
let acme: string;

test.before(async () => {
  p = await startAuditPlatform();
  acme = await p.token('acme');
  await p.metadata(acme, 'policy', ['createPolicy']);
});
test.after(async () => {
  await p.stop();
});

test('GET records/{id} and chain/{sequence} answer the record as a query does; unknown ones are 404', async () => {
  const w = await p.call('POST', `${V3}/log/sync`, { token: acme, body: aRecord({ business_code: 'PolicyNo:R-1' }) });
  assert.is(w.status, 200, w.text);
  await p.projected(acme, w.body.sequence);
  const listed = (await p.call('POST', `${V3}/log/query-many`, { token: acme, body: aQuery({ page_num: 1 }) })).body
    .records[0];

  const byId = await p.call('GET', `${V3}/records/${w.body.id}`, { token: acme });
  assert.is(byId.status, 200, byId.text);
  assert.equal(byId.body, listed);
  const bySeq = await p.call('GET', `${V3}/chain/${w.body.sequence}`, { token: acme });
  assert.is(bySeq.status, 200, bySeq.text);
  assert.equal(bySeq.body, listed);

  const none = await p.call('GET', `${V3}/records/0190ffff-0000-7000-8000-000000000000`, { token: acme });
  assert.is(none.status, 404);
  assert.is(none.body.code, 'AUDIT_RECORD.NOT_FOUND');
  assert.is((await p.call('GET', `${V3}/chain/999999`, { token: acme })).body.code, 'AUDIT_RECORD.NOT_FOUND');
  const bad = await p.call('GET', `${V3}/chain/zero`, { token: acme });
  assert.is(bad.status, 400);
  assert.is(bad.body.details[0].field, 'sequence');

  // another tenant's record is not found, and naming that tenant needs the tenancy rule
  const beta = await p.token('beta');
  assert.is((await p.call('GET', `${V3}/records/${w.body.id}`, { token: beta })).status, 404);
  const named = await p.call('GET', `${V3}/records/${w.body.id}?target_tenant=acme`, { token: beta });
  assert.is(named.status, 403);
  assert.is(named.body.code, 'AUTH.TENANT_FORBIDDEN');
  assert.is((await p.call('GET', `${V3}/records/${w.body.id}`)).status, 401);
  const noScope = await p.call('GET', `${V3}/records/${w.body.id}`, { token: await p.token('acme', ['audit:write']) });
  assert.is(noScope.status, 403);
});

test("the platform tenant's tokens read any tenant's records (query, record, export, verify); writes stay their own", async () => {
  const platform = await p.token('platform', ['audit:read', 'audit:write']);
  const query = await p.call('POST', `${V3}/log/query-many`, {
    token: platform,
    body: aQuery({ page_num: 1, target_tenant: 'acme' }),
  });
  assert.is(query.status, 200, query.text);
  assert.ok(query.body.records.length > 0);
  assert.ok(query.body.records.every((r: { tenant: string }) => r.tenant === 'acme'));
  const id = query.body.records[0].id as string;
  assert.is((await p.call('GET', `${V3}/records/${id}?target_tenant=acme`, { token: platform })).status, 200);
  const exported = await p.call('POST', `${V3}/log/export?format=csv`, {
    token: platform,
    body: { ...aQuery({ target_tenant: 'acme' }) },
  });
  assert.is(exported.status, 200, exported.text);
  assert.ok(exported.text.includes(id));
  const verify = await p.call('GET', `${V3}/verify?target_tenant=acme`, { token: platform });
  assert.is(verify.status, 200, verify.text);
  assert.is(verify.body.tenant, 'acme');
  // its own tenant by default
  const own = await p.call('GET', `${V3}/verify`, { token: platform });
  assert.is(own.body.tenant, 'platform');
});

test.run();
