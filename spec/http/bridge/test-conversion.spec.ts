// POST /admin/v1/test-conversion end to end: a real server on 127.0.0.1 port 0, real SQLite stores, real
// access tokens from the identity provider; the preview renders what the delivery would (each kind), a
// conversion the rule API refuses is the same 400, content that does not convert is {ok: false, error}.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCommands } from '../../../commands/bridge/config-center.commands.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createKeyedSecretBox } from '../../../commands/core/secret.box.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from '../../../http/bridge/bridge.paths.ts';
import { createConversionPreviewRouter } from '../../../http/bridge/conversion-preview.router.ts';
import { SECRET_MASK } from '../../../http/bridge/rules.router.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { machineToken } from '../identity/machine-token.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'test-conversion-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock(new Date());
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' });
const identity = createIdentityService({ config, eventStore, readStore, clock, log: pino({ level: 'silent' }) });
const directory = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const configCommands = createConfigCommands({
  eventStore,
  clock,
  box: createKeyedSecretBox('test-conversion-spec-key-encryption-secret-0123456789'),
});
const registry = createRouteRegistry();
const tokens: Record<string, string> = {};
let app: TestApp;

const test = suite('test-conversion');

test.before(async () => {
  await identity.keyRing.ensureKey();
  for (const code of ['platform', 'acme'])
    await directory.createTenant({ name: code }, forTenant({ tenant: 'platform', actor: 'test' }, code), `t-${code}`);
  app = await startTestApp({
    routers: [
      { service: 'identity', router: identity.router },
      {
        service: 'bridge',
        router: createConversionPreviewRouter({ config: configCommands, bearer: identity.bearer, registry }),
      },
    ],
  });
  const token = (scopes: string[], name: string) =>
    machineToken({ baseUrl: app.url, directory, tenant: 'acme', clientId: name, scopes });
  tokens.admin = await token([BRIDGE_ADMIN_SCOPE], 'acme-bridge');
  tokens.publisher = await token(['bridge:publish'], 'acme-publisher');
});
test.after(async () => {
  await app.close();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const event = {
  id: 'o-1',
  source: 'shop:orders',
  type: 'shop:Order:Placed',
  dataContentType: 'application/json',
  data: { orderId: 'A-1', amount: 120, note: 'say "hi"' },
};

async function preview(
  conversion: unknown,
  token: string | null = tokens.admin!,
  body: unknown = { conversion, event },
) {
  const res = await fetch(`${app.url}${BRIDGE_ADMIN_BASE}/test-conversion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as any };
}

test('bearer bridge:admin: none is 401 (before validation), another scope 403', async () => {
  assert.is((await preview(undefined, null, { nonsense: true })).status, 401);
  assert.is((await preview({ kind: 'complete' }, tokens.publisher)).status, 403);
});

test('each kind renders what the delivery hands the target', async () => {
  assert.equal((await preview({ kind: 'complete' })).body, { ok: true, body: event, missing: [] });
  assert.equal((await preview({ kind: 'partial', path: '$.data.orderId' })).body, {
    ok: true,
    body: 'A-1',
    missing: [],
  });
  assert.equal((await preview({ kind: 'constant', value: { fixed: 1 } })).body, {
    ok: true,
    body: { fixed: 1 },
    missing: [],
  });
  const template = await preview({
    kind: 'template',
    variables: { order: '$.data.orderId', amount: '$.data.amount', note: '$.data.note', gone: '$.data.nothing' },
    template: '{"order":"${order}","amount":${amount},"note":"${note}","gone":"${gone}"}',
  });
  assert.equal(template.body, {
    ok: true,
    body: { order: 'A-1', amount: 120, note: 'say "hi"', gone: '' },
    missing: ['gone'],
  });
});

test('env reads the caller configuration, a secret masked; an unset key does not convert', async () => {
  await configCommands.set({ key: 'alert.text', value: 'plain' }, { tenant: 'acme', actor: 't' }, 'c-1');
  await configCommands.set({ key: 'alert.token', value: 'tok-1', secret: true }, { tenant: 'acme', actor: 't' }, 'c-2');
  assert.equal((await preview({ kind: 'env', key: 'alert.text' })).body, { ok: true, body: 'plain', missing: [] });
  assert.equal((await preview({ kind: 'env', key: 'alert.token' })).body.body, SECRET_MASK);
  assert.equal((await preview({ kind: 'env', key: 'alert.unset' })).body, {
    ok: false,
    error: 'configuration key alert.unset is not set',
  });
});

test('content that does not convert is 200 {ok: false, error}', async () => {
  const none = await preview({ kind: 'partial', path: '$.data.missing' });
  assert.equal([none.status, none.body], [200, { ok: false, error: 'JSONPath $.data.missing: path matched nothing' }]);
  const notJson = await preview({ kind: 'template', variables: { note: '$.data.note' }, template: '{"a": ${note}}' });
  assert.is(notJson.body.ok, false, JSON.stringify(notJson.body));
  assert.type(notJson.body.error, 'string');
});

test('a conversion the rule API refuses is a 400 naming its field', async () => {
  const bad = await preview({ kind: 'partial', path: 'data.x' });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'REQUEST.INVALID');
  assert.equal(
    bad.body.details.map((d: { field: string }) => d.field),
    ['conversion.path'],
  );
  const extra = await preview({ kind: 'constant', value: 1, path: '$' });
  assert.equal(
    extra.body.details.map((d: { field: string }) => d.field),
    ['conversion.path'],
  );
  const kind = await preview({ kind: 'sometimes' });
  assert.equal([kind.status, kind.body.code], [400, 'REQUEST.INVALID']);
  const noEvent = await preview(undefined, tokens.admin!, { conversion: { kind: 'complete' } });
  assert.is(noEvent.status, 400);
});

test('documented in the OpenAPI document', () => {
  const doc = openApiDocument('Event bridge', registry) as { paths: Record<string, Record<string, unknown>> };
  assert.ok(doc.paths[`${BRIDGE_ADMIN_BASE}/test-conversion`]?.post);
});

test.run();
