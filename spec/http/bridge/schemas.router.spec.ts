// The schema registry's admin API end to end: a real server on 127.0.0.1 port 0, real SQLite stores, and
// real access tokens from the identity provider (client_credentials of clients registered per tenant).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSchemaCommands, createSchemaValidator } from '../../../commands/bridge/schemas.commands.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from '../../../http/bridge/bridge.paths.ts';
import { createSchemasRouter } from '../../../http/bridge/schemas.router.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import {
  PLATFORM_SCHEMA_IDS,
  platformSchemaDocuments,
  seedPlatformSchemas,
} from '../../../infra/bridge/platform-schemas.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { schemasProjection } from '../../../projections/bridge/schemas.projection.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { registryDocument } from '../../domain/bridge/schema-documents.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { machineToken } from '../identity/machine-token.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'schemas-router-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
// the real time, frozen: tokens are checked against it
const clock = manualClock(new Date());
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' });
const identity = createIdentityService({ config, eventStore, readStore, clock, log: pino({ level: 'silent' }) });
const directory = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const commands = createSchemaCommands({ eventStore, clock });
const registry = createRouteRegistry();
const runner = createProjectionRunner({ eventStore, readStore, projection: schemasProjection, clock });
const tokens: Record<string, string> = {};
let app: TestApp;

const test = suite('schema registry admin API');

const tokenFor = (tenant: string, scopes: string[], name: string) =>
  machineToken({ baseUrl: app.url, directory, tenant, clientId: name, scopes });

test.before(async () => {
  await identity.keyRing.ensureKey();
  for (const code of ['platform', 'acme', 'globex'])
    await directory.createTenant({ name: code }, forTenant({ tenant: 'platform', actor: 'test' }, code), `t-${code}`);
  app = await startTestApp({
    routers: [
      { service: 'identity', router: identity.router },
      {
        service: 'bridge',
        router: createSchemasRouter({ commands, readStore, eventStore, bearer: identity.bearer, registry }),
      },
    ],
  });
  tokens.platform = await tokenFor('platform', [BRIDGE_ADMIN_SCOPE], 'platform-bridge');
  tokens.acme = await tokenFor('acme', [BRIDGE_ADMIN_SCOPE], 'acme-bridge');
  tokens.globex = await tokenFor('globex', [BRIDGE_ADMIN_SCOPE], 'globex-bridge');
  tokens.acmePublisher = await tokenFor('acme', ['bridge:publish'], 'acme-publisher');
  await seedPlatformSchemas({ eventStore, clock });
  runner.start();
});
test.after(async () => {
  await app.close();
  await runner.stop();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

type Reply = { status: number; body: any; text: string; headers: Headers };
async function call(
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(`${app.url}${BRIDGE_ADMIN_BASE}${url}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = {};
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

const caughtUp = () => caughtUpAll(runner);

const document = (version: string, claimProps: Record<string, unknown> = { claimNo: { type: 'string' } }) =>
  registryDocument({
    title: 'claims',
    version,
    data: 'Claim',
    schemas: { Claim: { type: 'object', required: ['claimNo'], properties: claimProps } },
    cloudeventsProperties: { publishtime: { type: 'string' } },
  });

test('no token 401; a token without bridge:admin 403', async () => {
  assert.is((await call('GET', '/schemas', undefined)).status, 401);
  const r = await call('GET', '/schemas', tokens.acmePublisher);
  assert.is(r.status, 403);
  assert.is(r.body.code, 'AUTH.INSUFFICIENT_SCOPE');
});

test('create: 201 with the schema; name and version default to info.title and info.version; Idempotency-Key replays', async () => {
  const r = await call(
    'POST',
    '/schemas',
    tokens.acme,
    { schemaId: '300000000000001', description: 'claim events', bus: 'claims', content: document('1.0.0') },
    { 'idempotency-key': 'create-claims' },
  );
  assert.is(r.status, 201, r.text);
  assert.equal(
    { ...r.body, versions: r.body.versions.map((v: { version: string }) => v.version) },
    {
      schemaId: '300000000000001',
      tenant: 'acme',
      platform: false,
      name: 'claims',
      description: 'claim events',
      bus: 'claims',
      versions: ['1.0.0'],
      latestVersion: '1.0.0',
      deleted: false,
      createdAt: r.body.createdAt,
      updatedAt: r.body.createdAt,
    },
  );
  assert.is(r.headers.get('location'), `${BRIDGE_ADMIN_BASE}/schemas/300000000000001`);
  const again = await call(
    'POST',
    '/schemas',
    tokens.acme,
    { schemaId: '300000000000001', description: 'claim events', bus: 'claims', content: document('1.0.0') },
    { 'idempotency-key': 'create-claims' },
  );
  assert.is(again.status, 200);
  assert.is(again.body.schemaId, '300000000000001');
  // without the key it is another command: the id is taken
  const taken = await call('POST', '/schemas', tokens.acme, {
    schemaId: '300000000000001',
    content: document('1.0.0'),
  });
  assert.is(taken.status, 409);
  assert.is(taken.body.code, 'SCHEMA.ALREADY_EXISTS');
});

test('create: a generated 15-digit id; content may be sent as a JSON string (an uploaded file)', async () => {
  const r = await call('POST', '/schemas', tokens.acme, {
    name: 'From a file',
    version: 7,
    content: JSON.stringify(document('x')),
  });
  assert.is(r.status, 201, r.text);
  assert.match(r.body.schemaId, /^[1-9][0-9]{14}$/);
  assert.is(r.body.name, 'From a file');
  assert.equal(
    r.body.versions.map((v: { version: string }) => v.version),
    ['7'],
  );
  const bad = await call('POST', '/schemas', tokens.acme, { content: '{"openapi": ' });
  assert.is(bad.status, 400);
  assert.equal(
    bad.body.details.map((d: { field: string }) => d.field),
    ['content'],
  );
});

test('400 naming each bad body field (REQUEST.INVALID)', async () => {
  const r = await call('POST', '/schemas', tokens.acme, { schemaId: '012', name: '', version: 'a b', extra: 1 });
  assert.is(r.status, 400);
  assert.is(r.body.code, 'REQUEST.INVALID');
  const fields = new Set(r.body.details.map((d: { field: string }) => d.field));
  assert.equal([...fields].sort(), ['content', 'extra', 'name', 'schemaId', 'version']);
});

test('400 listing each problem of the document with its path (SCHEMA.INVALID)', async () => {
  const content = document('1', {
    claimNo: { type: 'strin' },
    amount: { type: 'number', exclusiveMinimum: 0 },
    tags: { type: 'array' },
  });
  (content as Record<string, unknown>).openapi = '3.1.0';
  let r = await call('POST', '/schemas', tokens.acme, { content });
  assert.is(r.status, 400);
  assert.is(r.body.code, 'SCHEMA.INVALID');
  assert.equal(r.body.details, [{ path: 'content.openapi', message: 'must be an OpenAPI 3.0 version (3.0.x)' }]);
  (content as Record<string, unknown>).openapi = '3.0.1';
  const cloud = content.components.schemas.Cloudevents;
  cloud.required = ['id', 'data'];
  r = await call('POST', '/schemas', tokens.acme, { content });
  assert.is(r.status, 400);
  assert.equal(
    r.body.details.map((d: { path: string }) => d.path),
    [
      'content.components.schemas.Claim.properties.claimNo.type',
      'content.components.schemas.Claim.properties.amount.exclusiveMinimum',
      'content.components.schemas.Claim.properties.tags.items',
      'content.components.schemas.Cloudevents.required',
    ],
  );
});

test('add version: 201, then the same content again 200 (no-op), other content 409 SCHEMA.VERSION_IMMUTABLE', async () => {
  const v2 = document('2.0.0', {
    claimNo: { type: 'string' },
    amount: { type: 'number', minimum: 0, exclusiveMinimum: true, nullable: true },
  });
  let r = await call('POST', '/schemas/300000000000001/versions', tokens.acme, { content: v2 });
  assert.is(r.status, 201, r.text);
  assert.equal(
    r.body.versions.map((v: { version: string }) => v.version),
    ['1.0.0', '2.0.0'],
  );
  assert.is(r.body.latestVersion, '2.0.0');
  assert.is(r.headers.get('location'), `${BRIDGE_ADMIN_BASE}/schemas/300000000000001/versions/2.0.0`);
  r = await call('POST', '/schemas/300000000000001/versions', tokens.acme, { version: '2.0.0', content: v2 });
  assert.is(r.status, 200);
  assert.is(r.body.versions.length, 2);
  r = await call('POST', '/schemas/300000000000001/versions', tokens.acme, {
    version: '2.0.0',
    content: document('2.0.0'),
  });
  assert.is(r.status, 409);
  assert.is(r.body.code, 'SCHEMA.VERSION_IMMUTABLE');
  assert.equal(r.body.details, { schemaId: '300000000000001', version: '2.0.0' });
  r = await call('POST', '/schemas/300000000000001/versions', tokens.acme, {
    version: '3',
    content: { openapi: '3.0.0' },
  });
  assert.is(r.status, 400);
  assert.equal(r.body.details.map((d: { path: string }) => d.path).sort(), [
    'content.components',
    'content.info',
    'content.paths',
  ]);
  r = await call('POST', '/schemas/399999999999999/versions', tokens.acme, { content: v2 });
  assert.is(r.status, 404);
  // the new version is what putEvent validates against
  const validator = createSchemaValidator({ eventStore });
  assert.equal(await validator.validate('acme', '300000000000001', { claimNo: 'C1', amount: 0 }), [
    { path: 'data.amount', message: 'must be > 0', keyword: 'exclusiveMinimum' },
  ]);
  assert.is(await validator.validate('acme', '300000000000001', { claimNo: 'C1', amount: null }), null);
});

test('get one schema; download a version as stored (attachment, application/json); latest', async () => {
  let r = await call('GET', '/schemas/300000000000001', tokens.acme);
  assert.is(r.status, 200);
  assert.equal(
    r.body.versions.map((v: { version: string }) => v.version),
    ['1.0.0', '2.0.0'],
  );
  r = await call('GET', '/schemas/300000000000001/versions/1.0.0', tokens.acme);
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.is(r.headers.get('content-disposition'), 'attachment; filename="schema-300000000000001-1.0.0.json"');
  assert.equal(r.body, document('1.0.0'));
  r = await call('GET', '/schemas/300000000000001/versions/latest', tokens.acme);
  assert.is(r.headers.get('x-schema-version'), '2.0.0');
  assert.is(r.body.info.version, '2.0.0');
  r = await call('GET', '/schemas/300000000000001/versions/9', tokens.acme);
  assert.is(r.status, 404);
  assert.is(r.body.code, 'SCHEMA.VERSION_NOT_FOUND');
  assert.is((await call('GET', '/schemas/abc', tokens.acme)).status, 400);
});

test('tenant isolation: another tenant sees neither the schema nor its versions, and cannot change it', async () => {
  for (const [method, url, body] of [
    ['GET', '/schemas/300000000000001', undefined],
    ['GET', '/schemas/300000000000001/versions/1.0.0', undefined],
    ['POST', '/schemas/300000000000001/versions', { content: document('9') }],
    ['DELETE', '/schemas/300000000000001', undefined],
  ] as const) {
    const r = await call(method, url, tokens.globex, body);
    assert.is(r.status, 404, `${method} ${url}`);
    assert.is(r.body.code, 'SCHEMA.NOT_FOUND');
  }
  // globex may use the same id for its own schema: ids are per tenant
  const own = await call('POST', '/schemas', tokens.globex, { schemaId: '300000000000001', content: document('1') });
  assert.is(own.status, 201);
  assert.is(own.body.tenant, 'globex');
  await caughtUp();
  const list = await call('GET', '/schemas?owner=own', tokens.globex);
  assert.equal(
    list.body.items.map((s: { tenant: string; schemaId: string }) => `${s.tenant}/${s.schemaId}`),
    ['globex/300000000000001'],
  );
});

test('platform schemas: readable by every tenant, changed only by platform admins', async () => {
  const id = PLATFORM_SCHEMA_IDS.jobAlter;
  for (const token of [tokens.acme, tokens.globex]) {
    const r = await call('GET', `/schemas/${id}`, token);
    assert.is(r.status, 200);
    assert.equal([r.body.tenant, r.body.platform, r.body.name], ['platform', true, 'Batch job alert']);
    const doc = await call('GET', `/schemas/${id}/versions/latest`, token);
    assert.is(doc.body.info.title, 'batchv2:Alter:JobAlter');
  }
  const denied = await call('POST', `/schemas/${id}/versions`, tokens.acme, { content: document('2') });
  assert.is(denied.status, 403);
  assert.is(denied.body.code, 'SCHEMA.FORBIDDEN');
  assert.is((await call('DELETE', `/schemas/${id}`, tokens.acme)).status, 403);
  // a tenant cannot take a platform id
  const steal = await call('POST', '/schemas', tokens.acme, { schemaId: id, content: document('1') });
  assert.is(steal.status, 409);
  // a platform admin creates a platform schema
  const created = await call('POST', '/schemas', tokens.platform, {
    schemaId: '100000000000099',
    name: 'Platform claims',
    content: document('1'),
  });
  assert.is(created.status, 201);
  assert.is(created.body.platform, true);
  assert.is((await call('GET', '/schemas/100000000000099', tokens.globex)).status, 200);
});

test('list: own and platform schemas, paged, with owner and bus filters', async () => {
  await caughtUp();
  let r = await call('GET', '/schemas', tokens.acme);
  assert.is(r.status, 200);
  const ids = r.body.items.map((s: { tenant: string; schemaId: string }) => `${s.tenant}/${s.schemaId}`);
  assert.ok(ids.includes('acme/300000000000001'));
  assert.ok(ids.includes(`platform/${PLATFORM_SCHEMA_IDS.createUser}`));
  assert.ok(ids.includes('platform/100000000000099'));
  assert.not.ok(ids.some((i: string) => i.startsWith('globex/')));
  assert.is(r.body.total, ids.length);
  const claims = r.body.items.find(
    (s: { schemaId: string; tenant: string }) => s.tenant === 'acme' && s.schemaId === '300000000000001',
  );
  assert.equal(
    claims.versions.map((v: { version: string }) => v.version),
    ['1.0.0', '2.0.0'],
  );
  assert.is(claims.latestVersion, '2.0.0');
  r = await call('GET', '/schemas?owner=platform&limit=2&offset=1', tokens.acme);
  // the seeded platform schemas and the one this spec added
  assert.equal(
    [r.body.total, r.body.items.length, r.body.limit, r.body.offset],
    [platformSchemaDocuments().length + 1, 2, 2, 1],
  );
  assert.ok(r.body.items.every((s: { platform: boolean }) => s.platform));
  r = await call('GET', '/schemas?owner=own&bus=claims', tokens.acme);
  assert.equal(
    r.body.items.map((s: { schemaId: string }) => s.schemaId),
    ['300000000000001'],
  );
  r = await call('GET', '/schemas?limit=0&owner=mine', tokens.acme);
  assert.is(r.status, 400);
  assert.equal(r.body.details.map((d: { field: string }) => d.field).sort(), ['limit', 'owner']);
});

test('delete: 204; the schema is marked deleted, its versions stay downloadable; listed only with includeDeleted', async () => {
  const r = await call('DELETE', '/schemas/300000000000001', tokens.acme);
  assert.is(r.status, 204);
  const shown = await call('GET', '/schemas/300000000000001', tokens.acme);
  assert.equal([shown.status, shown.body.deleted], [200, true]);
  assert.is((await call('GET', '/schemas/300000000000001/versions/1.0.0', tokens.acme)).status, 200);
  const add = await call('POST', '/schemas/300000000000001/versions', tokens.acme, { content: document('3') });
  assert.equal([add.status, add.body.code], [409, 'SCHEMA.DELETED']);
  assert.is((await call('DELETE', '/schemas/300000000000001', tokens.acme)).status, 204);
  await caughtUp();
  const listed = await call('GET', '/schemas?owner=own', tokens.acme);
  assert.not.ok(listed.body.items.some((s: { schemaId: string }) => s.schemaId === '300000000000001'));
  const all = await call('GET', '/schemas?owner=own&includeDeleted=true', tokens.acme);
  assert.ok(
    all.body.items.some((s: { schemaId: string; deleted: boolean }) => s.schemaId === '300000000000001' && s.deleted),
  );
});

test('the routes are in the OpenAPI document', () => {
  const doc = openApiDocument('event bridge', registry);
  const base = BRIDGE_ADMIN_BASE;
  assert.equal(Object.keys(doc.paths[`${base}/schemas`] ?? {}).sort(), ['get', 'post']);
  assert.equal(Object.keys(doc.paths[`${base}/schemas/{id}`] ?? {}).sort(), ['delete', 'get']);
  assert.ok(doc.paths[`${base}/schemas/{id}/versions`]?.post);
  assert.ok(doc.paths[`${base}/schemas/{id}/versions/{version}`]?.get);
});

test.run();
