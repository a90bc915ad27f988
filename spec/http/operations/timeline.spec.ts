// The incident view's API over HTTP against the whole platform on a loopback port: the selections of
// `platform replay` (correlation id, stream, time window with a category), paging, the state after a
// revision folded by the decider, secrets sealed as the CLI seals them, bad input as 4xx JSON.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { BRIDGE_ADMIN_BASE } from '../../../http/bridge/bridge.paths.ts';
import { machineToken } from '../identity/machine-token.ts';
import { ADMIN, type PortalPlatform, startPortalPlatform } from '../portal/portal-harness.ts';

const test = suite('operations API: incident timeline');
let p: PortalPlatform;
let ops: string;
let bridge: string;
const CORRELATION = 'incident-spec-correlation';
const SECRET = 'incident-spec-secret-value';

const call = async (
  method: string,
  path: string,
  token = ops,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await fetch(`${p.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
};

test.before(async () => {
  p = await startPortalPlatform();
  const directory = createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  });
  const token = (clientId: string, scopes: string[]) =>
    machineToken({ baseUrl: p.base, directory, tenant: ADMIN.tenant, clientId, scopes });
  ops = await token('incident-ops', ['ops:admin']);
  bridge = await token('incident-bridge', ['bridge:admin']);
  // a connection with a secret, created under the incident's correlation id
  const created = await call(
    'POST',
    `${BRIDGE_ADMIN_BASE}/connections`,
    bridge,
    { name: 'incident-conn', auth: { kind: 'API_KEY', headerName: 'X-Api-Key', value: SECRET } },
    { 'x-correlation-id': CORRELATION },
  );
  assert.is(created.status, 201, created.text);
});
test.after(async () => {
  await p.stop();
});

test('by correlation id: the events of that request, secrets sealed', async () => {
  const r = await call('GET', `/ops/v1/timeline?correlation=${CORRELATION}`);
  assert.is(r.status, 200, r.text);
  assert.ok(r.body.total >= 1);
  const e = r.body.items.find((i: { category: string }) => i.category === 'connection');
  assert.ok(e, JSON.stringify(r.body.items));
  assert.is(e.service, 'bridge');
  assert.is(e.stream, 'connection-demo.incident-conn');
  assert.is(e.revision, 0);
  assert.is(e.correlationId, CORRELATION);
  assert.is(e.hasState, true);
  assert.ok(e.actor);
  assert.not.ok(r.text.includes(SECRET), 'the secret never appears');
  assert.ok(r.text.includes('[sealed]'), r.text);
});

test('by stream, paged; the state after a revision is folded and sealed', async () => {
  const stream = 'connection-demo.incident-conn';
  const r = await call('GET', `/ops/v1/timeline?stream=${stream}&limit=1`);
  assert.is(r.status, 200, r.text);
  assert.is(r.body.items.length, 1);
  assert.is(r.body.limit, 1);
  assert.is(r.body.offset, 0);
  const s = await call('GET', `/ops/v1/streams/${encodeURIComponent(stream)}/state?revision=0`);
  assert.is(s.status, 200, s.text);
  assert.is(s.body.stream, stream);
  assert.is(s.body.revision, 0);
  assert.is(s.body.service, 'bridge');
  assert.ok(s.body.state && typeof s.body.state === 'object');
  assert.not.ok(s.text.includes(SECRET));
  assert.ok(s.text.includes('[sealed]'), s.text);
  const beyond = await call('GET', `/ops/v1/streams/${encodeURIComponent(stream)}/state?revision=99`);
  assert.is(beyond.status, 404);
  assert.is(beyond.body.code, 'STREAM.REVISION_NOT_FOUND');
});

test('by time window and category', async () => {
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const all = await call('GET', `/ops/v1/timeline?from=${from}&to=${to}&limit=200`);
  assert.is(all.status, 200, all.text);
  const services = new Set(all.body.items.map((i: { service: string }) => i.service));
  assert.ok(services.has('identity') && services.has('bridge'), [...services].join());
  const only = await call('GET', `/ops/v1/timeline?from=${from}&to=${to}&category=connection`);
  assert.is(only.status, 200);
  assert.ok(only.body.items.length >= 1);
  assert.ok(only.body.items.every((i: { category: string }) => i.category === 'connection'));
  assert.not.ok(all.text.includes(SECRET));
  // password and client-secret hashes show redacted, as in the CLI
  const hashed = all.body.items.filter(
    (i: { data: Record<string, unknown> }) => 'passwordHash' in i.data || 'secretHash' in i.data,
  );
  assert.ok(hashed.length >= 1, 'the seed wrote a user or a client with a hash');
  for (const i of hashed) assert.is(i.data.passwordHash ?? i.data.secretHash, '[redacted]', i.type);
  const empty = await call('GET', `/ops/v1/timeline?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z`);
  assert.equal([empty.body.items.length, empty.body.total], [0, 0]);
});

test('bad input: 400 REQUEST.INVALID; no decider: 404 STREAM.NO_STATE; not an operator: 403', async () => {
  for (const q of [
    '',
    'correlation=a&stream=b',
    'from=2026-01-01T00:00:00Z',
    'from=yesterday&to=today',
    'correlation=a&category=connection',
    'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    'stream=x&limit=0',
  ]) {
    const r = await call('GET', `/ops/v1/timeline?${q}`);
    assert.is(r.status, 400, q);
    assert.is(r.body.code, 'REQUEST.INVALID', q);
  }
  const bad = await call('GET', '/ops/v1/streams/connection-demo.incident-conn/state?revision=minus');
  assert.is(bad.status, 400);
  const none = await call('GET', '/ops/v1/streams/identitySeed-demo.x/state?revision=0');
  assert.is(none.status, 404);
  assert.is(none.body.code, 'STREAM.NO_STATE');
  assert.is((await call('GET', `/ops/v1/timeline?correlation=${CORRELATION}`, bridge)).status, 403);
});

test.run();
