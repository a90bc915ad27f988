// Connections and API destinations admin API end to end: a real server on 127.0.0.1 port 0, real SQLite
// stores, real access tokens from the identity provider, the listing projection running. Secrets are
// never answered (nor found in any answer's text), validation names the bad field.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createApiDestinationCommands,
  createApiDestinationReader,
} from '../../../commands/bridge/api-destinations.commands.ts';
import { createConnectionCommands, createConnectionReader } from '../../../commands/bridge/connections.commands.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from '../../../http/bridge/bridge.paths.ts';
import { createDestinationsRouter } from '../../../http/bridge/destinations.router.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { loadKeyEncryptionSecret } from '../../../infra/identity/key-secret.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { integrationsProjection } from '../../../projections/bridge/integrations.projection.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { machineToken } from '../identity/machine-token.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'destinations-router-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock(new Date());
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' });
const identity = createIdentityService({ config, eventStore, readStore, clock, log: pino({ level: 'silent' }) });
const directory = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
// as the composition does: the key-encryption secret of DATA_DIR
const secret = loadKeyEncryptionSecret(config);
const connections = createConnectionCommands({ eventStore, clock, secret });
const reader = createConnectionReader({ eventStore, secret });
const destinations = createApiDestinationCommands({ eventStore, clock, secret });
const registry = createRouteRegistry();
const runner = createProjectionRunner({ eventStore, readStore, projection: integrationsProjection, clock });
const tokens: Record<string, string> = {};
let app: TestApp;

const SECRETS = ['basic-password-value', 'fixed-token-value-123', 'oauth-client-secret-value', 'api-key-value-xyz'];

const tokenFor = (tenant: string, clientId: string, scopes: string[]) =>
  machineToken({ baseUrl: app.url, directory, tenant, clientId, scopes });

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
  return { status: res.status, body: text ? JSON.parse(text) : {}, text, headers: res.headers };
}
const acme = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  call(method, url, tokens.acme, body, headers);
const fields = (r: Reply) => (r.body.details as Array<{ field: string }>).map((d) => d.field).sort();
const noSecretIn = (r: Reply) => {
  for (const s of SECRETS) assert.not.ok(r.text.includes(s), `the answer holds a secret: ${r.text}`);
  assert.not.ok(r.text.includes('enc:v1:'), 'the answer holds a sealed secret');
};
const caughtUp = () => caughtUpAll(runner);

const test = suite('connections and API destinations admin API');

test.before(async () => {
  await identity.keyRing.ensureKey();
  for (const code of ['acme', 'globex'])
    await directory.createTenant({ name: code }, forTenant({ tenant: 'platform', actor: 'test' }, code), `t-${code}`);
  app = await startTestApp({
    routers: [
      { service: 'identity', router: identity.router },
      {
        service: 'bridge',
        router: createDestinationsRouter({ connections, destinations, readStore, bearer: identity.bearer, registry }),
      },
    ],
  });
  tokens.acme = await tokenFor('acme', 'acme-admin', [BRIDGE_ADMIN_SCOPE]);
  tokens.globex = await tokenFor('globex', 'globex-admin', [BRIDGE_ADMIN_SCOPE]);
  tokens.publisher = await tokenFor('acme', 'acme-publisher', ['bridge:publish']);
  runner.start();
});
test.after(async () => {
  await runner.stop();
  await app.close();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('401 without a token, 403 without bridge:admin', async () => {
  assert.is((await call('GET', '/connections', undefined)).status, 401);
  assert.is((await call('GET', '/connections', tokens.publisher)).status, 403);
  assert.is((await call('GET', '/api-destinations', tokens.publisher)).status, 403);
});

test('create each kind of connection: 201, secrets masked in every answer', async () => {
  const bodies = [
    { name: 'basic', description: 'claims API', auth: { kind: 'BASIC', username: 'svc', password: SECRETS[0] } },
    { name: 'fixed', auth: { kind: 'BEARER', source: 'fixed', token: SECRETS[1] } },
    { name: 'caller', auth: { kind: 'BEARER', source: 'caller' } },
    { name: 'config', auth: { kind: 'BEARER', source: 'config', key: '${alert.token}' } },
    { name: 'jsonpath', auth: { kind: 'BEARER', source: 'jsonpath', path: '$.data.token' } },
    {
      name: 'oauth',
      auth: {
        kind: 'OAUTH_CLIENT_CREDENTIALS',
        tokenUrl: 'https://idp.example/token',
        clientId: 'c1',
        clientSecret: SECRETS[2],
        method: 'GET',
        scope: 'a b',
      },
    },
    { name: 'apikey', auth: { kind: 'API_KEY', headerName: 'X-Api-Key', value: SECRETS[3] } },
  ];
  for (const b of bodies) {
    const r = await acme('POST', '/connections', b);
    assert.is(r.status, 201, r.text);
    assert.is(r.headers.get('location'), `${BRIDGE_ADMIN_BASE}/connections/${b.name}`);
    assert.is(r.headers.get('cache-control'), 'no-store');
    noSecretIn(r);
  }
  const basic = await acme('GET', '/connections/basic');
  assert.equal(basic.body.auth, { kind: 'BASIC', username: 'svc', password: '******' });
  assert.is(basic.body.description, 'claims API');
  assert.equal((await acme('GET', '/connections/config')).body.auth, {
    kind: 'BEARER',
    source: 'config',
    key: 'alert.token',
  });
  const oauth = (await acme('GET', '/connections/oauth')).body.auth;
  assert.equal(oauth, {
    kind: 'OAUTH_CLIENT_CREDENTIALS',
    tokenUrl: 'https://idp.example/token',
    clientId: 'c1',
    clientSecret: '******',
    method: 'GET',
    clientAuth: 'client_secret_basic',
    scope: 'a b',
  });
  await caughtUp();
  const list = await acme('GET', '/connections?limit=50');
  noSecretIn(list);
  assert.equal(
    list.body.items.map((c: { name: string }) => c.name),
    ['apikey', 'basic', 'caller', 'config', 'fixed', 'jsonpath', 'oauth'],
  );
  assert.is(list.body.total, 7);
  assert.equal(list.body.items.find((c: { name: string }) => c.name === 'apikey').auth, {
    kind: 'API_KEY',
    headerName: 'X-Api-Key',
    value: '******',
  });
  // the delivery's reader has them in clear
  assert.equal((await reader.resolve('acme', 'apikey'))?.auth, {
    kind: 'API_KEY',
    headerName: 'X-Api-Key',
    value: SECRETS[3],
  });
});

test('validation: ajv names unknown fields, the decider names per-kind mistakes', async () => {
  const r1 = await acme('POST', '/connections', {
    name: 'x',
    auth: { kind: 'BASIC', username: 'u', password: 'p', extra: 1 },
  });
  assert.equal([r1.status, r1.body.code, fields(r1)], [400, 'REQUEST.INVALID', ['auth.extra']]);
  const r2 = await acme('POST', '/connections', { name: 'x', auth: { kind: 'BASIC', username: 'u' } });
  assert.equal([r2.status, r2.body.code, fields(r2)], [400, 'CONNECTION.INVALID', ['auth.password']]);
  const r3 = await acme('POST', '/connections', {
    name: 'x',
    auth: { kind: 'OAUTH_CLIENT_CREDENTIALS', tokenUrl: 'not-a-url', clientSecret: 's' },
  });
  assert.equal([r3.status, fields(r3)], [400, ['auth.clientId', 'auth.tokenUrl']]);
  const r4 = await acme('POST', '/connections', { name: 'bad name', auth: { kind: 'BEARER', source: 'caller' } });
  assert.equal([r4.status, fields(r4)], [400, ['name']]);
  const r5 = await acme('POST', '/connections', {
    name: 'x',
    auth: { kind: 'API_KEY', headerName: 'X-Key', value: 'line\nbreak' },
  });
  assert.equal([r5.status, fields(r5)], [400, ['auth.value']]);
  assert.is(
    (await acme('POST', '/connections', { name: 'basic', auth: { kind: 'BEARER', source: 'caller' } })).status,
    409,
  );
});

test('Idempotency-Key: the same create twice records it once', async () => {
  const b = { name: 'idem', auth: { kind: 'BEARER', source: 'caller' } };
  const first = await acme('POST', '/connections', b, { 'idempotency-key': 'create-idem-1' });
  const again = await acme('POST', '/connections', b, { 'idempotency-key': 'create-idem-1' });
  assert.equal([first.status, again.status, again.body.replayed], [201, 201, true]);
});

test('update: description and auth; a secret left out is kept', async () => {
  const r = await acme('PUT', '/connections/basic', { description: null, auth: { kind: 'BASIC', username: 'svc2' } });
  assert.is(r.status, 200, r.text);
  noSecretIn(r);
  assert.equal([r.body.description, r.body.auth], [null, { kind: 'BASIC', username: 'svc2', password: '******' }]);
  assert.equal((await reader.resolve('acme', 'basic'))?.auth, {
    kind: 'BASIC',
    username: 'svc2',
    password: SECRETS[0],
  });
  // another kind needs its secret
  const r2 = await acme('PUT', '/connections/basic', { auth: { kind: 'API_KEY', headerName: 'X-Key' } });
  assert.equal([r2.status, fields(r2)], [400, ['auth.value']]);
  assert.is((await acme('PUT', '/connections/nope', { description: 'x' })).status, 404);
});

test('API destinations: create with a URL template or a plain url; the connection must exist', async () => {
  const r = await acme('POST', '/api-destinations', {
    name: 'claims',
    urlTemplate: {
      url: 'https://api.acme.example/${region}/claims/${id}',
      variables: { region: 'config:claims.region', id: '$.data.claimId' },
    },
    method: 'POST',
    connection: 'basic',
    timeoutMs: 3000,
  });
  assert.is(r.status, 201, r.text);
  assert.equal(r.body.urlTemplate, {
    url: 'https://api.acme.example/${region}/claims/${id}',
    variables: { region: 'config:claims.region', id: '$.data.claimId' },
  });
  assert.equal([r.body.connection, r.body.timeoutMs, r.body.description], ['basic', 3000, null]);
  const plain = await acme('POST', '/api-destinations', {
    name: 'hook',
    url: 'https://hooks.example/in',
    method: 'PUT',
  });
  assert.is(plain.status, 201, plain.text);
  assert.equal(
    [plain.body.urlTemplate, plain.body.connection],
    [{ url: 'https://hooks.example/in', variables: {} }, null],
  );
  const missing = await acme('POST', '/api-destinations', {
    name: 'x',
    url: 'https://x.example',
    method: 'POST',
    connection: 'nope',
  });
  assert.equal([missing.status, missing.body.code, fields(missing)], [400, 'API_DESTINATION.INVALID', ['connection']]);
  const badUrl = await acme('POST', '/api-destinations', {
    name: 'x',
    urlTemplate: { url: 'https://x/${nope}' },
    method: 'POST',
  });
  assert.equal([badUrl.status, fields(badUrl)], [400, ['urlTemplate.url']]);
  const noUrl = await acme('POST', '/api-destinations', { name: 'x', method: 'POST' });
  assert.equal([noUrl.status, fields(noUrl)], [400, ['urlTemplate']]);
  assert.is(
    (
      await acme('POST', '/api-destinations', {
        name: 'x',
        url: 'https://x',
        urlTemplate: { url: 'https://y' },
        method: 'POST',
      })
    ).status,
    400,
  );
  assert.is((await acme('POST', '/api-destinations', { name: 'x', url: 'https://x', method: 'TRACE' })).status, 400);
});

test('API destinations: read, list by connection, update, delete; a connection in use cannot be deleted', async () => {
  assert.is((await acme('GET', '/api-destinations/claims')).body.method, 'POST');
  await caughtUp();
  const byConnection = await acme('GET', '/api-destinations?connection=basic');
  assert.equal(
    byConnection.body.items.map((d: { name: string }) => d.name),
    ['claims'],
  );
  assert.is((await acme('GET', '/api-destinations')).body.total, 2);
  const inUse = await acme('DELETE', '/connections/basic');
  assert.equal(
    [inUse.status, inUse.body.code, inUse.body.details],
    [409, 'CONNECTION.IN_USE', { destinations: ['claims'] }],
  );
  const u = await acme('PUT', '/api-destinations/claims', { connection: null, method: 'PATCH', timeoutMs: null });
  assert.is(u.status, 200, u.text);
  assert.equal([u.body.connection, u.body.method, u.body.timeoutMs], [null, 'PATCH', null]);
  assert.is((await acme('PUT', '/api-destinations/claims', { connection: 'nope' })).status, 400);
  await caughtUp();
  assert.is((await acme('DELETE', '/connections/basic')).status, 204);
  assert.is((await acme('GET', '/connections/basic')).status, 404);
  assert.is((await acme('DELETE', '/api-destinations/hook')).status, 204);
  assert.is((await acme('GET', '/api-destinations/hook')).status, 404);
  assert.is((await acme('DELETE', '/api-destinations/hook')).status, 404);
});

test('API destinations: a signing secret shown once at creation, never again; rotation answers the new one, the previous signs on for the overlap', async () => {
  const WHSEC = /^whsec_[A-Za-z0-9+/]{43}=$/;
  const r = await acme(
    'POST',
    '/api-destinations',
    { name: 'signed', url: 'https://hooks.example/signed', method: 'POST' },
    { 'idempotency-key': 'create-signed-1' },
  );
  assert.is(r.status, 201, r.text);
  const first = r.body.signingSecret as string;
  assert.match(first, WHSEC);
  assert.is(r.headers.get('cache-control'), 'no-store');
  assert.not.ok(r.text.includes('enc:v1:'));
  // a replay of the same create does not show it again
  const replay = await acme(
    'POST',
    '/api-destinations',
    { name: 'signed', url: 'https://hooks.example/signed', method: 'POST' },
    { 'idempotency-key': 'create-signed-1' },
  );
  assert.equal([replay.status, replay.body.replayed, replay.body.signingSecret], [201, true, undefined]);
  await caughtUp();
  for (const answer of [
    await acme('GET', '/api-destinations/signed'),
    await acme('GET', '/api-destinations'),
    await acme('GET', '/api-destinations?connection=basic'),
  ]) {
    assert.not.ok(answer.text.includes(first), 'the signing secret is answered once only');
    assert.not.ok(answer.text.includes('enc:v1:'), 'nor sealed');
  }
  const deliveryReader = (at: Date) => createApiDestinationReader({ eventStore, secret, clock: manualClock(at) });
  assert.equal((await deliveryReader(clock.now()).get('acme', 'signed'))?.signingSecrets, [first]);

  // rotate (no body: the default overlap of 24 h)
  const rot = await acme('POST', '/api-destinations/signed/rotate-signing-secret');
  assert.is(rot.status, 200, rot.text);
  const second = rot.body.signingSecret as string;
  assert.match(second, WHSEC);
  assert.is.not(second, first);
  assert.is(rot.body.name, 'signed');
  assert.is(rot.body.previousValidUntil, new Date(clock.now().getTime() + 24 * 3600 * 1000).toISOString());
  assert.is(rot.headers.get('cache-control'), 'no-store');
  const during = new Date(clock.now().getTime() + 23 * 3600 * 1000);
  const after = new Date(clock.now().getTime() + 25 * 3600 * 1000);
  assert.equal(
    (await deliveryReader(during).get('acme', 'signed'))?.signingSecrets,
    [second, first],
    'both sign during the overlap',
  );
  assert.equal((await deliveryReader(after).get('acme', 'signed'))?.signingSecrets, [second], 'then only the new one');
  assert.not.ok((await acme('GET', '/api-destinations/signed')).text.includes(second));

  // overlap 0: the previous stops at once
  const now = await acme('POST', '/api-destinations/signed/rotate-signing-secret', { overlapSeconds: 0 });
  assert.equal([now.status, now.body.previousValidUntil], [200, null], now.text);
  assert.equal((await deliveryReader(clock.now()).get('acme', 'signed'))?.signingSecrets, [now.body.signingSecret]);
  // refusals
  const bad = await acme('POST', '/api-destinations/signed/rotate-signing-secret', { overlapSeconds: -1 });
  assert.equal([bad.status, fields(bad)], [400, ['overlapSeconds']]);
  assert.is((await acme('POST', '/api-destinations/nope/rotate-signing-secret')).status, 404);
  assert.is((await call('POST', '/api-destinations/signed/rotate-signing-secret', tokens.globex)).status, 404);
  assert.is((await call('POST', '/api-destinations/signed/rotate-signing-secret', tokens.publisher)).status, 403);
});

test('tenants are isolated', async () => {
  assert.is((await call('GET', '/connections/fixed', tokens.globex)).status, 404);
  assert.is((await call('GET', '/api-destinations/claims', tokens.globex)).status, 404);
  assert.is((await call('GET', '/connections', tokens.globex)).body.total, 0);
  // a destination may only name the tenant's own connections
  const r = await call('POST', '/api-destinations', tokens.globex, {
    name: 'x',
    url: 'https://x.example',
    method: 'POST',
    connection: 'fixed',
  });
  assert.is(r.status, 400);
});

test('the OpenAPI document lists the routes with their schemas', () => {
  const doc = openApiDocument('Event bridge', registry);
  for (const p of ['/connections', '/connections/{name}', '/api-destinations', '/api-destinations/{name}'])
    assert.ok(doc.paths[`${BRIDGE_ADMIN_BASE}${p}`], p);
  const create = doc.paths[`${BRIDGE_ADMIN_BASE}/connections`]!.post as {
    requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  };
  assert.ok(create.requestBody.content['application/json']!.schema.properties.auth);
});

test.run();
