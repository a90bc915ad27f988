import { gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type AuditPlatform, aQuery, aRecord, startAuditPlatform, V2, V3 } from './audit-harness.ts';

// log/sync and log/query-many end to end ("Bad input" included): the whole platform with
// real stores and real tokens.
const test = suite('audit log: write and query over HTTP');
let p: AuditPlatform;
let acme: string;

const sync = (body: unknown, o: { token?: string; headers?: Record<string, string>; base?: string } = {}) =>
  p.call('POST', `${o.base ?? V3}/log/sync`, {
    token: o.token ?? acme,
    body,
    ...(o.headers !== undefined && { headers: o.headers }),
  });
const query = (body: unknown, token = acme, base = V3) => p.call('POST', `${base}/log/query-many`, { token, body });
const head = async (token = acme) => (await p.call('GET', `${V3}/verify`, { token })).body.head_sequence as number;

test.before(async () => {
  p = await startAuditPlatform();
  acme = await p.token('acme');
  await p.metadata(acme, 'policy', ['createPolicy', { transaction_name: 'shared', transaction_vendor: 'v-policy' }]);
  await p.metadata(acme, 'claim', ['openClaim', { transaction_name: 'shared', transaction_vendor: 'v-claim' }]);
});
test.after(async () => {
  await p.stop();
});

test('a write answers {id, sequence, hash, time}; the record is queryable with every stored field, newest first', async () => {
  const first = await sync(
    aRecord({ business_code: 'PolicyNo:A-1', tags: ['web', 'eu'], trace_id: 'trace-1', warning_type: 'WARN' }),
  );
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.equal(Object.keys(first.body).sort(), ['hash', 'id', 'sequence', 'time']);
  assert.match(first.body.hash, /^[0-9a-f]{64}$/);
  assert.match(first.body.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  p.clock.advance(1000);
  const second = await sync(aRecord({ business_code: 'PolicyNo:A-2' }));
  assert.is(second.body.sequence, first.body.sequence + 1, 'gapless per tenant');
  await p.projected(acme, second.body.sequence);

  const r = await query(aQuery({ page_num: 1 }));
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.page_num, 1);
  assert.is(r.body.return_size, 20);
  const [newest, older] = r.body.records;
  assert.is(newest.id, second.body.id);
  assert.equal(older, {
    id: first.body.id,
    tenant: 'acme',
    sequence: first.body.sequence,
    time: first.body.time,
    module_name: 'policy',
    transaction_name: 'createPolicy',
    transaction_vendor: 'acme-core',
    business_code: 'PolicyNo:A-1',
    client_ip: '10.1.2.3',
    new_data: older.new_data,
    old_data: '',
    warning_type: 'WARN',
    trace_id: 'trace-1',
    tags: ['web', 'eu'],
    compress_type: 'none',
    hash: first.body.hash,
  });
});

test('compressed data is decompressed at the write and answered as JSON text', async () => {
  const text = JSON.stringify({ policy: 'P-9', premium: 99.5 });
  const w = await sync(
    aRecord({
      business_code: 'PolicyNo:GZ',
      compress_type: 'gzip',
      new_data: gzipSync(text).toString('base64'),
      old_data: '',
    }),
  );
  assert.is(w.status, 200, JSON.stringify(w.body));
  await p.projected(acme, w.body.sequence);
  const r = await query(aQuery({ page_num: 1, business_code: 'PolicyNo:GZ' }));
  assert.is(r.body.total, 1);
  assert.is(r.body.records[0].new_data, text);
  assert.is(r.body.records[0].compress_type, 'gzip');
});

test("the module is the transaction's; a name in two modules is told apart by transaction_vendor", async () => {
  const a = await sync(
    aRecord({ transaction_name: 'shared', transaction_vendor: 'v-claim', business_code: 'Claim:1' }),
  );
  assert.is(a.status, 200, JSON.stringify(a.body));
  const b = await sync(aRecord({ transaction_name: 'shared', transaction_vendor: 'other' }));
  assert.is(b.status, 400);
  assert.is(b.body.code, 'AUDIT_RECORD.TRANSACTION_AMBIGUOUS');
  await p.projected(acme, a.body.sequence);
  const r = await query(aQuery({ module_name: 'claim', transaction_name: 'shared', page_num: 1 }));
  assert.equal(
    r.body.records.map((x: { business_code: string }) => x.business_code),
    ['Claim:1'],
  );
});

test('Idempotency-Key: a retry answers the first record and stores nothing; other content with the key is a 422', async () => {
  const body = aRecord({ business_code: 'PolicyNo:IDEM' });
  const headers = { 'idempotency-key': 'write-42' };
  const [one, two] = await Promise.all([sync(body, { headers }), sync(body, { headers })]);
  const three = await sync(body, { headers });
  assert.is(one.status, 200);
  assert.equal(two.body, one.body);
  assert.equal(three.body, one.body);
  assert.is(three.headers.get('idempotent-replayed'), 'true');
  await p.projected(acme, one.body.sequence);
  // known to the projection's key index too (a writer that did not write it: the same answer)
  assert.equal((await sync(body, { headers })).body, one.body);
  const r = await query(aQuery({ page_num: 1, business_code: 'PolicyNo:IDEM' }));
  assert.is(r.body.total, 1);
  const reused = await sync(aRecord({ business_code: 'PolicyNo:OTHER' }), { headers });
  assert.is(reused.status, 422);
  assert.is(reused.body.code, 'REQUEST.IDEMPOTENCY_KEY_REUSED');
});

test('concurrent writes of one tenant: gapless sequences, one chain (group commit)', async () => {
  const before = await head();
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => sync(aRecord({ business_code: `Batch:${i}` }))),
  );
  assert.ok(answers.every((a) => a.status === 200));
  assert.equal(
    answers.map((a) => a.body.sequence).sort((x, y) => x - y),
    Array.from({ length: 40 }, (_, i) => before + 1 + i),
  );
  await p.projected(acme, before + 40);
  const v = await p.call('GET', `${V3}/verify`, { token: acme });
  assert.is(v.body.valid, true, JSON.stringify(v.body));
});

test('page mode: pages, total, time range (start inclusive, end exclusive), filters; deep pages point to scroll mode', async () => {
  await p.metadata(acme, 'paging', ['tx']);
  const t0 = p.clock.now().getTime() + 60_000;
  const written: Array<{ sequence: number; time: string }> = [];
  for (let i = 0; i < 7; i++) {
    p.clock.set(new Date(t0 + i * 1000));
    const w = await sync(
      aRecord({
        transaction_name: 'tx',
        business_code: `Page:${i}`,
        tags: i % 2 === 0 ? ['even'] : ['odd'],
        client_ip: i === 3 ? '::1' : '10.0.0.1',
      }),
    );
    written.push(w.body);
  }
  await p.projected(acme, written[6]!.sequence);
  const q = (o: Record<string, unknown>) => query(aQuery({ module_name: 'paging', transaction_name: 'tx', ...o }));
  const page2 = await q({ page_num: 2, return_size: 3 });
  assert.is(page2.body.total, 7);
  assert.equal(
    page2.body.records.map((r: { business_code: string }) => r.business_code),
    ['Page:3', 'Page:2', 'Page:1'],
  );
  const windowed = await q({ page_num: 1, start_time: written[2]!.time, end_time: written[5]!.time });
  assert.equal(
    windowed.body.records.map((r: { business_code: string }) => r.business_code),
    ['Page:4', 'Page:3', 'Page:2'],
  );
  assert.equal(
    (await q({ page_num: 1, tags: ['odd'] })).body.records.map((r: { business_code: string }) => r.business_code),
    ['Page:5', 'Page:3', 'Page:1'],
  );
  assert.is((await q({ page_num: 1, client_ip: '::1' })).body.records[0].business_code, 'Page:3');
  assert.is((await q({ page_num: 1, warning_type: 'WARN' })).body.total, 0);
  const deep = await q({ page_num: 501, return_size: 20 });
  assert.is(deep.status, 400);
  assert.is(deep.body.code, 'AUDIT_QUERY.PAGE_TOO_DEEP');
  assert.match(deep.body.message, /scroll/);
  const tooBig = await q({ page_num: 1, return_size: 1001 });
  assert.is(tooBig.status, 400);
  assert.is(tooBig.body.details[0].field, 'return_size');
});

test('scroll mode: "" starts, each answer carries the scroll_id, the records there were when it began; idle expiry is a 410', async () => {
  await p.metadata(acme, 'scroll', ['scrollTx']);
  let last = 0;
  for (let i = 0; i < 5; i++) {
    p.clock.advance(1000);
    last = (await sync(aRecord({ transaction_name: 'scrollTx', business_code: `S:${i}` }))).body.sequence;
  }
  await p.projected(acme, last);
  const body = aQuery({ module_name: 'scroll', transaction_name: 'scrollTx', return_size: 2 });
  const first = await query({ ...body, scroll_id: '' });
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is(first.body.total, 5);
  assert.type(first.body.scroll_id, 'string');
  assert.ok(first.body.scroll_id.length > 0);
  const seen = first.body.records.map((r: { business_code: string }) => r.business_code);
  // a record written during the scroll is not part of it
  p.clock.advance(1000);
  const late = await sync(aRecord({ transaction_name: 'scrollTx', business_code: 'S:late' }));
  assert.is(late.status, 200, JSON.stringify(late.body));
  await p.projected(acme, late.body.sequence);
  let id = first.body.scroll_id;
  for (;;) {
    const next = await query({ ...body, scroll_id: id });
    assert.is(next.status, 200);
    assert.is(next.body.total, 5);
    if (next.body.records.length === 0) break;
    seen.push(...next.body.records.map((r: { business_code: string }) => r.business_code));
    id = next.body.scroll_id;
  }
  assert.equal(seen, ['S:4', 'S:3', 'S:2', 'S:1', 'S:0']);
  p.clock.advance(301_000);
  const expired = await query({ ...body, scroll_id: id });
  assert.is(expired.status, 410);
  assert.is(expired.body.code, 'SCROLL.EXPIRED');
  assert.match(expired.body.message, /scroll_id ""/);
  const unknown = await query({ ...body, scroll_id: 'nope' });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'SCROLL.NOT_FOUND');
  const again = await query({ ...body, scroll_id: '' });
  assert.is(again.body.total, 6, 'starting over sees the newer record');
});

test('v2 paths take the same bodies; X-Target-User is accepted and ignored', async () => {
  const w = await sync(aRecord({ business_code: 'V2:1' }), { base: V2, headers: { 'x-target-user': 'someone' } });
  assert.is(w.status, 200, JSON.stringify(w.body));
  await p.projected(acme, w.body.sequence);
  const r = await p.call('POST', `${V2}/log/query-many`, {
    token: acme,
    body: aQuery({ page_num: 1, business_code: 'V2:1' }),
    headers: { 'x-target-user': 'someone' },
  });
  assert.is(r.body.records[0].id, w.body.id);
  // the answer is written as text (the stored records unparsed): still JSON, announced and measured as such
  assert.is(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.is(Number(r.headers.get('content-length')), Buffer.byteLength(r.text));
});

test('scopes: writes need audit:write, queries audit:read, metadata audit:admin; 403 naming the scope', async () => {
  const readOnly = await p.token('acme', ['audit:read']);
  const writeOnly = await p.token('acme', ['audit:write']);
  const w = await sync(aRecord(), { token: readOnly });
  assert.is(w.status, 403);
  assert.match(w.headers.get('www-authenticate') ?? '', /scope="audit:write"/);
  const q = await query(aQuery({ page_num: 1 }), writeOnly);
  assert.is(q.status, 403);
  assert.match(q.headers.get('www-authenticate') ?? '', /scope="audit:read"/);
  const m = await p.call('GET', `${V3}/modules`, { token: writeOnly });
  assert.is(m.status, 403);
  assert.match(m.headers.get('www-authenticate') ?? '', /scope="audit:admin"/);
  assert.is((await p.call('POST', `${V3}/log/sync`, { body: aRecord() })).status, 401);
});

test('target_tenant: needs tenant:cross and the tenant in allowed_access_tenants; else 403', async () => {
  const beta = await p.token('beta');
  await p.metadata(beta, 'policy', ['createPolicy']);
  const w = await sync(aRecord({ business_code: 'Beta:1' }), { token: beta });
  await p.projected(beta, w.body.sequence);
  const cross = await p.crossToken(['audit:read', 'tenant:cross']);
  const r = await query(aQuery({ page_num: 1, target_tenant: 'beta' }), cross);
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(
    r.body.records.map((x: { tenant: string; business_code: string }) => [x.tenant, x.business_code]),
    [['beta', 'Beta:1']],
  );
  const noScope = await query(aQuery({ page_num: 1, target_tenant: 'beta' }), await p.token('acme', ['audit:read']));
  assert.is(noScope.status, 403);
  assert.is(noScope.body.code, 'AUTH.TENANT_FORBIDDEN');
  const notAllowed = await query(aQuery({ page_num: 1, target_tenant: 'platform' }), cross);
  assert.is(notAllowed.status, 403);
  // the caller's own tenant is the default: acme's records only
  const own = await query(aQuery({ page_num: 1 }), cross);
  assert.ok(own.body.records.every((x: { tenant: string }) => x.tenant === 'acme'));
});

test('bad input: each a 400 {code, message, details} naming the field, and nothing stored', async () => {
  const before = await head();
  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string, string | null]> = [
    [
      'malformed JSON',
      () =>
        p.call('POST', `${V3}/log/sync`, {
          token: acme,
          raw: '{"transaction_name":',
          headers: { 'content-type': 'application/json' },
        }),
      400,
      'REQUEST.MALFORMED_JSON',
      null,
    ],
    ['unknown field', () => sync(aRecord({ module_name: 'policy' })), 400, 'REQUEST.INVALID', 'module_name'],
    ['wrong type', () => sync(aRecord({ business_code: 42 })), 400, 'REQUEST.INVALID', 'business_code'],
    ['missing field', () => sync({ ...aRecord(), client_ip: undefined }), 400, 'REQUEST.INVALID', 'client_ip'],
    [
      'oversized field',
      () => sync(aRecord({ business_code: 'x'.repeat(513) })),
      400,
      'REQUEST.INVALID',
      'business_code',
    ],
    [
      'too many tags',
      () => sync(aRecord({ tags: Array.from({ length: 33 }, (_, i) => `t${i}`) })),
      400,
      'REQUEST.INVALID',
      'tags',
    ],
    ['bad client_ip', () => sync(aRecord({ client_ip: '999.1.1.1' })), 400, 'REQUEST.INVALID', 'client_ip'],
    ['new_data not JSON', () => sync(aRecord({ new_data: '{oops' })), 400, 'AUDIT_RECORD.DATA_INVALID', 'new_data'],
    [
      'bad base64',
      () => sync(aRecord({ compress_type: 'gzip', new_data: '%%%' })),
      400,
      'AUDIT_RECORD.DATA_INVALID',
      'new_data',
    ],
    [
      'bad compressed stream',
      () =>
        sync(
          aRecord({ compress_type: 'deflate', new_data: '', old_data: Buffer.from('not deflate').toString('base64') }),
        ),
      400,
      'AUDIT_RECORD.DATA_INVALID',
      'old_data',
    ],
    [
      'oversized data (decompressed)',
      () =>
        sync(
          aRecord({
            compress_type: 'gzip',
            new_data: gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20)).toString('base64'),
            old_data: '',
          }),
        ),
      400,
      'AUDIT_RECORD.DATA_TOO_LARGE',
      'new_data',
    ],
    [
      'unknown compress_type',
      () => sync(aRecord({ compress_type: 'brotli' })),
      400,
      'REQUEST.INVALID',
      'compress_type',
    ],
    [
      'unknown transaction',
      () => sync(aRecord({ transaction_name: 'nope' })),
      400,
      'AUDIT_RECORD.TRANSACTION_UNKNOWN',
      'transaction_name',
    ],
    [
      'unknown warning level',
      () => sync(aRecord({ warning_type: 'FATAL' })),
      400,
      'AUDIT_RECORD.WARNING_LEVEL_UNKNOWN',
      'warning_type',
    ],
    ['lower-case warning level', () => sync(aRecord({ warning_type: 'info' })), 400, 'REQUEST.INVALID', 'warning_type'],
    [
      'bad Idempotency-Key',
      () => sync(aRecord(), { headers: { 'idempotency-key': 'has space' } }),
      400,
      'REQUEST.INVALID',
      'idempotency-key',
    ],
    [
      'invalid time range',
      () =>
        query(aQuery({ page_num: 1, start_time: '2026-01-02T00:00:00.000Z', end_time: '2026-01-01T00:00:00.000Z' })),
      400,
      'AUDIT_QUERY.INVALID',
      'end_time',
    ],
    ['not a time', () => query(aQuery({ page_num: 1, start_time: 'yesterday' })), 400, 'REQUEST.INVALID', 'start_time'],
    [
      'both page_num and scroll_id',
      () => query(aQuery({ page_num: 1, scroll_id: '' })),
      400,
      'AUDIT_QUERY.INVALID',
      'page_num',
    ],
    ['neither page_num nor scroll_id', () => query(aQuery()), 400, 'AUDIT_QUERY.INVALID', 'page_num'],
    ['page_num 0', () => query(aQuery({ page_num: 0 })), 400, 'REQUEST.INVALID', 'page_num'],
    ['unknown query field', () => query(aQuery({ page_num: 1, sort: 'asc' })), 400, 'REQUEST.INVALID', 'sort'],
  ];
  for (const [what, run, status, code, field] of cases) {
    const r = await run();
    assert.is(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
    assert.is(r.body.code, code, what);
    assert.type(r.body.message, 'string');
    assert.ok('details' in r.body, what);
    if (field !== null)
      assert.ok(
        (r.body.details as Array<{ field: string }>).some((d) => d.field === field),
        `${what}: ${JSON.stringify(r.body.details)}`,
      );
  }
  assert.is(await head(), before, 'nothing was stored');
});

test.run();
