// The admin API's signing keys over HTTP on a loopback server: the list with each key's rotation state and
// times (never private material), rotation by the platform tenant's administrators only, its options and
// their refusals, and the scope check every admin route has.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { createKeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { IDENTITY_ADMIN_SCOPE } from '../../../domain/identity/identity.scopes.ts';
import { createAdminRouter } from '../../../http/identity/admin.router.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { createTestAuth, type TestAuth } from './admin-test-auth.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'admin-keys-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const commands = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const directory = createDirectory({ eventStore, clock });
const keyRing = createKeyRing({ eventStore, clock, secret: 'k'.repeat(40), maxTokenLifetimeSeconds: 3600 });
let app: TestApp;
let auth: TestAuth;
const tokens: Record<string, string> = {};

test.before(async () => {
  auth = await createTestAuth();
  await keyRing.ensureKey();
  app = await startTestApp({
    routers: [
      { service: 'identity', router: createAdminRouter({ directory, commands, readStore, auth, clock, keyRing }) },
    ],
  });
  tokens.platform = await auth.token({ tenant: 'platform', sub: 'root', scopes: [IDENTITY_ADMIN_SCOPE] });
  tokens.acme = await auth.token({ tenant: 'acme', sub: 'acme-admin', scopes: [IDENTITY_ADMIN_SCOPE] });
  tokens.acmeUser = await auth.token({ tenant: 'acme', sub: 'someone', scopes: ['openid'] });
});
test.after(async () => {
  await app.close();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

type Reply = { status: number; body: Record<string, any>; text: string };
async function call(method: string, url: string, token: string | undefined, body?: unknown, raw?: string) {
  const res = await fetch(`${app.url}/cas/admin/v1${url}`, {
    method,
    headers: {
      ...((body !== undefined || raw !== undefined) && { 'content-type': 'application/json' }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    ...(raw !== undefined && { body: raw }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, text } as Reply;
}
const states = async (token = tokens.acme) =>
  ((await call('GET', '/keys', token)).body.items as Array<{ kid: string; state: string }>).map((k) => k.state);

test('an identity admin of any tenant lists the keys with their state and times, never private material', async () => {
  const r = await call('GET', '/keys', tokens.acme);
  assert.is(r.status, 200);
  assert.is(r.body.total, 1);
  const [key] = r.body.items;
  assert.equal(Object.keys(key).sort(), [
    'alg',
    'created_at',
    'kid',
    'published_until',
    'signs_from',
    'signs_until',
    'state',
  ]);
  assert.is(key.alg, 'RS256');
  assert.is(key.state, 'active');
  assert.is(key.signs_until, null);
  assert.is(key.published_until, null);
  assert.not.match(r.text, /"(d|p|q|dp|dq|qi|ciphertext|encrypted\w*)"/);
});

test('without a token 401, without identity:admin 403', async () => {
  assert.is((await call('GET', '/keys', undefined)).status, 401);
  assert.is((await call('GET', '/keys', tokens.acmeUser)).status, 403);
  assert.is((await call('POST', '/keys/rotate', tokens.acmeUser, {})).status, 403);
});

test('a tenant admin may not rotate: 403 TENANT.FORBIDDEN, nothing changes', async () => {
  const r = await call('POST', '/keys/rotate', tokens.acme, {});
  assert.is(r.status, 403);
  assert.is(r.body.code, 'TENANT.FORBIDDEN');
  assert.equal(await states(), ['active']);
});

test('bad rotation options are 400 with the field named', async () => {
  const negative = await call('POST', '/keys/rotate', tokens.platform, { delay_seconds: -1 });
  assert.is(negative.status, 400);
  assert.is(negative.body.details[0].field, 'delay_seconds');
  const both = await call('POST', '/keys/rotate', tokens.platform, { now: true, delay_seconds: 10 });
  assert.is(both.status, 400);
  assert.is(both.body.details[0].field, 'delay_seconds');
  const unknown = await call('POST', '/keys/rotate', tokens.platform, { kid: 'mine' });
  assert.is(unknown.status, 400);
  assert.is((await call('POST', '/keys/rotate', tokens.platform, undefined, '[1')).status, 400);
  assert.equal(await states(), ['active']);
});

test('a platform admin rotates: the new key is pending, the old one signs until it activates, then retires', async () => {
  const before = (await call('GET', '/keys', tokens.platform)).body.items[0];
  const r = await call('POST', '/keys/rotate', tokens.platform);
  assert.is(r.status, 201, r.text);
  assert.is(r.body.key.state, 'pending');
  assert.is(r.body.key.signs_from, '2026-03-01T10:05:00.000Z', 'the default publish delay is 300 s');
  assert.is(r.body.superseded.length, 1);
  assert.is(r.body.superseded[0].kid, before.kid);
  assert.is(r.body.superseded[0].signs_until, r.body.key.signs_from);

  const list = (await call('GET', '/keys', tokens.acme)).body;
  assert.equal(
    list.items.map((k: { kid: string; state: string }) => [k.kid, k.state]),
    [
      [r.body.key.kid, 'pending'],
      [before.kid, 'active'],
    ],
    'newest first',
  );
  assert.equal((await call('GET', '/keys?state=pending', tokens.acme)).body.total, 1);
  assert.equal((await call('GET', '/keys?limit=1&offset=1', tokens.acme)).body.items[0].kid, before.kid);

  clock.advance(300_000);
  assert.equal(await states(), ['active', 'retiring']);
  const old = (await call('GET', `/keys?state=retiring`, tokens.acme)).body.items[0];
  assert.ok(Date.parse(old.published_until) > Date.parse(old.signs_until), 'published after it stops signing');
  clock.advance(Date.parse(old.published_until) - clock.now().getTime());
  assert.equal(await states(), ['active', 'retired']);
});

test('now: the new key signs at once', async () => {
  const r = await call('POST', '/keys/rotate', tokens.platform, { now: true });
  assert.is(r.status, 201);
  assert.is(r.body.key.state, 'active');
  assert.is(r.body.superseded[0].state, 'retiring');
  const delayed = await call('POST', '/keys/rotate', tokens.platform, { delay_seconds: 60 });
  assert.is(delayed.body.key.signs_from, new Date(clock.now().getTime() + 60_000).toISOString());
});

test.run();
