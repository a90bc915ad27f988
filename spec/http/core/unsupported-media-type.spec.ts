// A body that is not JSON on a route whose body is JSON: 415 REQUEST.UNSUPPORTED_MEDIA_TYPE naming the
// expected type, and nothing changes; checked over HTTP on every JSON-bodied operation of every service's
// OpenAPI document. Bodies without bytes, JSON types with parameters or `+json`, and the routes that take
// forms or multipart keep working.
import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUDIT_V3, METADATA_IMPORT } from '../../../http/audit/audit.paths.ts';
import { PUT_EVENT_PATH } from '../../../http/bridge/bridge.paths.ts';
import { SEND_PATH } from '../../../http/hub/hub.paths.ts';
import {
  ADMIN_BASE,
  EXCHANGE_CODE_CONSUME_PATH,
  EXCHANGE_CODE_GET_PATH,
  INTROSPECT_PATH,
} from '../../../http/identity/identity.paths.ts';
import { WORKFLOW_BASE } from '../../../http/workflow/workflow.paths.ts';
import { quiet } from '../../core/quiet.ts';
import { SEED } from '../identity/identity-harness.ts';
import { fillPath, isJsonType, OPENAPI_DOCUMENTS, type SweepPlatform, startSweepPlatform } from './openapi-sweep.ts';

const test = suite('unsupported media type');
let p: SweepPlatform;
test.before(async () => {
  p = await startSweepPlatform();
});
test.after(() => p.stop());

const call = (method: string, path: string, headers: Record<string, string>, body?: string | Uint8Array | FormData) =>
  fetch(`${p.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${p.token}`, ...headers },
    ...(body !== undefined && { body }),
  });

/** the three ways a body misses JSON: another type, a form, no type at all (fetch sets none for bytes) */
const NOT_JSON: Array<{
  label: string;
  headers: Record<string, string>;
  body: () => string | Uint8Array;
  received: string | null;
}> = [
  { label: 'text/plain', headers: { 'content-type': 'text/plain' }, body: () => '{"a":1}', received: 'text/plain' },
  {
    label: 'a form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: () => 'a=1&b=2',
    received: 'application/x-www-form-urlencoded',
  },
  { label: 'no Content-Type', headers: {}, body: () => new TextEncoder().encode('{"a":1}'), received: null },
];

const assert415 = async (res: Response, received: string | null, where: string) => {
  const text = await res.text();
  assert.is(res.status, 415, `${where}: ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as {
    code: string;
    message: string;
    details: { expected: string; received: string | null };
  };
  assert.is(body.code, 'REQUEST.UNSUPPORTED_MEDIA_TYPE', where);
  assert.match(body.message, 'application/json', where);
  assert.equal(body.details, { expected: 'application/json', received }, where);
};

const head = () => p.platform.stores.eventStore.headPosition();

test('every JSON-bodied operation of every service answers a body of another type 415, naming application/json', async () => {
  const ops = p.operations.filter(
    (o) => o.body !== undefined && isJsonType(o.body.type) && ['POST', 'PUT', 'PATCH'].includes(o.method),
  );
  assert.ok(ops.length > 50, `the documents list ${ops.length} JSON-bodied operations`);
  for (const service of Object.keys(OPENAPI_DOCUMENTS))
    assert.ok(
      ops.some((o) => o.service === service),
      `${service} has JSON-bodied operations`,
    );
  const failures: string[] = [];
  for (const op of ops) {
    for (const kind of NOT_JSON) {
      const res = await call(
        op.method,
        fillPath(op.path, () => 'x'),
        kind.headers,
        kind.body(),
      );
      const text = await res.text();
      const body = res.status === 415 ? (JSON.parse(text) as { code?: string; details?: unknown }) : undefined;
      if (
        body?.code !== 'REQUEST.UNSUPPORTED_MEDIA_TYPE' ||
        JSON.stringify(body.details) !== JSON.stringify({ expected: 'application/json', received: kind.received })
      ) {
        failures.push(`${op.method} ${op.path} with ${kind.label}: ${res.status} ${text.slice(0, 200)}`);
      }
    }
  }
  assert.equal(failures, [], failures.join('\n'));
});

test('the documents say so: a 415 answer on JSON-bodied operations, none on form or multipart ones', async () => {
  const doc = (await (await call('GET', OPENAPI_DOCUMENTS.hub, {})).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  assert.ok(doc.paths[SEND_PATH]!.post!.responses['415'], 'send lists 415');
  const workflow = (await (await call('GET', OPENAPI_DOCUMENTS.workflow, {})).json()) as typeof doc;
  assert.is(
    workflow.paths[`${WORKFLOW_BASE}/deployment`]!.post!.responses['415'],
    undefined,
    'a multipart deployment does not',
  );
});

for (const kind of NOT_JSON) {
  test(`${kind.label}: putEvent, the hub's send, a tenant and an audit record are refused and nothing is stored`, async () => {
    // the reactors of the first start (machine and portal clients) come to rest first: only this test's requests may append
    await quiet(p.platform);
    const before = await head();
    await assert415(await call('POST', PUT_EVENT_PATH, kind.headers, kind.body()), kind.received, 'putEvent');
    await assert415(await call('POST', SEND_PATH, kind.headers, kind.body()), kind.received, 'send');
    await assert415(await call('POST', `${ADMIN_BASE}/tenants`, kind.headers, kind.body()), kind.received, 'tenant');
    await assert415(
      await call('POST', `${AUDIT_V3}/log/sync`, kind.headers, kind.body()),
      kind.received,
      'audit record',
    );
    assert.is(await head(), before, 'no event appended');
  });
}

/** a POST with exactly these headers (fetch sets Content-Length itself) */
const bare = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${p.base}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${p.token}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

test('a body-less POST on a route whose body is optional still works: no Content-Length, or 0 with any type', async () => {
  for (const headers of [
    {} as Record<string, string>,
    { 'content-type': 'text/plain', 'content-length': '0' },
    { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
  ]) {
    const res = await bare(EXCHANGE_CODE_GET_PATH, headers);
    assert.is(res.status, 200, `${JSON.stringify(headers)}: ${res.body}`);
    assert.type((JSON.parse(res.body) as { code?: string }).code, 'string');
  }
});

test('JSON types pass the check: parameters, case and `+json`', async () => {
  for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
    const res = await call('POST', EXCHANGE_CODE_GET_PATH, { 'content-type': type }, '{}');
    assert.is(res.status, 200, `${type}: ${await res.text()}`);
  }
});

test('the routes that take forms or multipart keep their types', async () => {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(SEED.clientId)}:${encodeURIComponent(SEED.clientSecret)}`).toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic };
  const introspect = await fetch(`${p.base}${INTROSPECT_PATH}`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ token: p.token }),
  });
  assert.is(introspect.status, 200);
  assert.is(((await introspect.json()) as { active: boolean }).active, true);
  const consume = await fetch(`${p.base}${EXCHANGE_CODE_CONSUME_PATH}`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ code: 'no-such-code' }),
  });
  assert.is(consume.status, 400, 'the form is read: the code is unknown');
  assert.is(((await consume.json()) as { error: string }).error, 'invalid_grant');

  const sheet = new FormData();
  sheet.append('file', new Blob(['module_name,transaction_name\n'], { type: 'text/csv' }), 'meta.csv');
  const imported = await call('POST', METADATA_IMPORT, {}, sheet);
  assert.not.equal(imported.status, 415, await imported.text());
  const files = new FormData();
  files.append('files', new Blob(['<definitions/>'], { type: 'application/xml' }), 'p.bpmn');
  const deployed = await call('POST', `${WORKFLOW_BASE}/deployment`, {}, files);
  assert.not.equal(deployed.status, 415, await deployed.text());
  assert.ok(deployed.status < 500);
});

test.run();
