import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { IDENTITY_ADMIN_SCOPE as ADMIN_SCOPE } from '../../../domain/identity/identity.scopes.ts';
import { createAdminRouter } from '../../../http/identity/admin.router.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { directoryProjection } from '../../../projections/identity/directory.projection.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { createTestAuth, type TestAuth } from './admin-test-auth.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'admin-router-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const commands = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const directory = createDirectory({ eventStore, clock });
const runner = createProjectionRunner({ eventStore, readStore, projection: directoryProjection, clock });
let app: TestApp;
let auth: TestAuth;
const tokens: Record<string, string> = {};
const BASE = '/cas/admin/v1';

test.before(async () => {
  auth = await createTestAuth();
  const sys = { tenant: 'platform', actor: 'test' };
  for (const code of ['platform', 'acme', 'globex'])
    await commands.createTenant({ name: code.toUpperCase() }, forTenant(sys, code), `t-${code}`);
  app = await startTestApp({
    routers: [{ service: 'identity', router: createAdminRouter({ directory, commands, readStore, auth, clock }) }],
  });
  runner.start();
  tokens.platform = await auth.token({ tenant: 'platform', sub: 'root', scopes: [ADMIN_SCOPE] });
  tokens.acme = await auth.token({ tenant: 'acme', sub: 'acme-admin', scopes: ['openid', ADMIN_SCOPE] });
  tokens.globex = await auth.token({ tenant: 'globex', sub: 'globex-admin', scopes: [ADMIN_SCOPE] });
  tokens.acmeUser = await auth.token({ tenant: 'acme', sub: 'someone', scopes: ['openid', 'profile'] });
});
test.after(async () => {
  await app.close();
  await runner.stop();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

type Reply = { status: number; body: Record<string, any>; text: string; headers: Headers };
async function call(
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(app.url + url, {
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
const fieldsOf = (r: Reply) => (r.body.details as Array<{ field: string }>).map((d) => d.field).sort();

/** the projection has applied everything appended so far */
const caughtUp = () => caughtUpAll(runner);

const client = {
  signin_redirect_url: 'https://app.acme.example/cb',
  signout_redirect_url: ['https://app.acme.example/bye'],
  grant_type: 'authorization_code, refresh_token',
  token_endpoint_auth_method: 'client_secret_basic',
  app_name: 'Portal',
  scopes: [ADMIN_SCOPE],
};

// ---- authentication and authorization ----

test('401 without a token, 401 with a forged one, 403 without the admin scope', async () => {
  const none = await call('GET', `${BASE}/users`, undefined);
  assert.is(none.status, 401);
  assert.ok(none.headers.get('www-authenticate')?.startsWith('Bearer'));
  const other = await createTestAuth();
  const forged = await other.token({ tenant: 'acme', sub: 'x', scopes: [ADMIN_SCOPE] });
  assert.is((await call('GET', `${BASE}/users`, forged)).status, 401);
  const weak = await call('POST', `${BASE}/users`, tokens.acmeUser, { username: 'x', name: 'X' });
  assert.is(weak.status, 403);
  assert.match(weak.headers.get('www-authenticate') ?? '', /insufficient_scope/);
});

test('a tenant admin naming another tenant gets 403; its clients are 404 to others', async () => {
  const r = await call('POST', `${BASE}/users?tenant=globex`, tokens.acme, { username: 'x', name: 'X' });
  assert.is(r.status, 403);
  assert.is(r.body.code, 'TENANT.FORBIDDEN');
  assert.is((await call('GET', `${BASE}/users?tenant=globex`, tokens.acme)).status, 403);
  assert.is((await call('GET', `${BASE}/clients?tenant=globex`, tokens.acme)).status, 403);
  assert.is((await call('POST', `${BASE}/clients`, tokens.acme, { ...client, tenant_code: 'globex' })).status, 403);
  assert.is((await call('GET', `${BASE}/tenants/globex`, tokens.acme)).status, 403);
  assert.is((await call('PATCH', `${BASE}/tenants/globex`, tokens.acme, { name: 'x' })).status, 403);

  const created = await call('POST', `${BASE}/clients`, tokens.globex, client);
  assert.is(created.status, 201);
  const id = created.body.client_id as string;
  for (const [method, url] of [
    ['GET', `${BASE}/clients/${id}`],
    ['POST', `${BASE}/clients/${id}/disable`],
    ['POST', `${BASE}/clients/${id}/rotate-secret`],
  ] as const) {
    const r = await call(method, url, tokens.acme);
    assert.is(r.status, 404, `${method} ${url}`);
    assert.is(r.body.code, 'CLIENT.NOT_FOUND');
  }
  assert.is((await call('PATCH', `${BASE}/clients/${id}`, tokens.acme, { app_name: 'mine now' })).status, 404);
  // the platform admin sees every client
  assert.is((await call('GET', `${BASE}/clients/${id}`, tokens.platform)).status, 200);
});

// ---- users ----

test('create a user: 201 without any password or hash; get it; a retried Idempotency-Key answers 200', async () => {
  const body = {
    username: 'ann',
    password: 'correct horse battery',
    name: 'Ann Lee',
    email: 'ann@acme.example',
    roles: [ADMIN_SCOPE],
  };
  const r = await call('POST', `${BASE}/users`, tokens.acme, body, { 'idempotency-key': 'create-ann' });
  assert.is(r.status, 201);
  assert.is(r.body.tenant, 'acme', 'the tenant comes from the token');
  assert.is(r.body.username, 'ann');
  assert.is(r.body.user_source_id, 'default');
  assert.is(r.body.status, 'active');
  assert.not.ok(/password|hash|scrypt/i.test(r.text), r.text);
  const again = await call('POST', `${BASE}/users`, tokens.acme, body, { 'idempotency-key': 'create-ann' });
  assert.is(again.status, 200);
  assert.is(again.body.user_id, r.body.user_id);
  const got = await call('GET', `${BASE}/users/${r.body.user_id}`, tokens.acme);
  assert.is(got.status, 200);
  assert.equal(got.body, r.body);
  assert.is((await call('GET', `${BASE}/users/${r.body.user_id}`, tokens.globex)).status, 404, 'not in globex');
  const taken = await call('POST', `${BASE}/users`, tokens.acme, { ...body, username: 'ANN' });
  assert.is(taken.status, 409);
  assert.is(taken.body.code, 'USER.USERNAME_TAKEN');
});

test('400 names each bad field (schema and domain rules)', async () => {
  const r = await call('POST', `${BASE}/users`, tokens.acme, {
    username: 'has space',
    name: 5,
    password: 'short',
    extra: 1,
  });
  assert.is(r.status, 400);
  assert.is(r.body.code, 'REQUEST.INVALID');
  assert.equal(fieldsOf(r), ['extra', 'name', 'password', 'username']);
  const missing = await call('POST', `${BASE}/users`, tokens.acme, {});
  assert.equal(fieldsOf(missing), ['name', 'username']);
  const patch = await call('PATCH', `${BASE}/users/nobody`, tokens.acme, {});
  assert.is(patch.status, 400, 'an empty patch');
  const bad = await call('GET', `${BASE}/users?limit=0&status=gone`, tokens.acme);
  assert.is(bad.status, 400);
  assert.equal(fieldsOf(bad), ['limit', 'status']);
});

test('disable, enable, reset password, patch a user', async () => {
  const u = await call('POST', `${BASE}/users`, tokens.acme, {
    username: 'carl',
    password: 'first password',
    name: 'Carl',
  });
  const id = u.body.user_id as string;
  const off = await call('POST', `${BASE}/users/${id}/disable`, tokens.acme);
  assert.is(off.status, 200);
  assert.is(off.body.status, 'disabled');
  const user = await directory.getUser('acme', id);
  assert.is(await directory.verifyPassword(user!, 'first password'), false, 'disabled: no sign-in');
  assert.is((await call('POST', `${BASE}/users/${id}/enable`, tokens.acme)).body.status, 'active');
  const reset = await call('POST', `${BASE}/users/${id}/reset-password`, tokens.acme, { password: 'second password' });
  assert.is(reset.status, 200);
  assert.not.ok(reset.text.includes('second password'));
  const after = await directory.getUser('acme', id);
  assert.is(await directory.verifyPassword(after!, 'second password'), true);
  assert.is(await directory.verifyPassword(after!, 'first password'), false);
  const patched = await call('PATCH', `${BASE}/users/${id}`, tokens.acme, {
    nickname: 'CJ',
    email: null,
    roles: [ADMIN_SCOPE],
  });
  assert.is(patched.status, 200);
  assert.is(patched.body.nickname, 'CJ');
  assert.equal(patched.body.roles, [ADMIN_SCOPE]);
  assert.is((await call('POST', `${BASE}/users/nobody/disable`, tokens.acme)).status, 404);
});

test('list users: tenant-scoped, paged, filtered by username prefix and status', async () => {
  for (const name of ['dora', 'dave', 'dina', 'eve']) {
    const r = await call('POST', `${BASE}/users`, tokens.acme, { username: name, name });
    assert.is(r.status, 201);
  }
  await call('POST', `${BASE}/users`, tokens.globex, { username: 'dora', name: 'Globex Dora' });
  const eve = await directory.findUserByUsername('acme', 'default', 'eve');
  await call('POST', `${BASE}/users/${eve!.userId}/disable`, tokens.acme);
  await caughtUp();

  const page1 = await call('GET', `${BASE}/users?username_prefix=D&limit=2`, tokens.acme);
  assert.is(page1.status, 200);
  assert.is(page1.body.total, 3);
  assert.equal(
    page1.body.items.map((u: { username: string }) => u.username),
    ['dave', 'dina'],
  );
  const page2 = await call('GET', `${BASE}/users?username_prefix=d&limit=2&offset=2`, tokens.acme);
  assert.equal(
    page2.body.items.map((u: { username: string }) => u.username),
    ['dora'],
  );
  assert.ok(page2.body.items.every((u: { tenant: string }) => u.tenant === 'acme'));
  const disabled = await call('GET', `${BASE}/users?status=disabled`, tokens.acme);
  assert.equal(
    disabled.body.items.map((u: { username: string }) => u.username),
    ['eve'],
  );
  assert.not.ok(/hash|scrypt|password/i.test(page1.text + page2.text));
  const viaPlatform = await call('GET', `${BASE}/users?tenant=globex`, tokens.platform);
  assert.equal(
    viaPlatform.body.items.map((u: { name: string }) => u.name),
    ['Globex Dora'],
  );
});

// ---- clients ----

test('register a client: 201 with client_secret once; never again in any answer', async () => {
  const r = await call('POST', `${BASE}/clients`, tokens.acme, client);
  assert.is(r.status, 201);
  assert.is(r.headers.get('cache-control'), 'no-store');
  const secret = r.body.client_secret as string;
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  assert.is(r.body.tenant_code, 'acme');
  assert.equal(r.body.grant_type, ['authorization_code', 'refresh_token']);
  assert.equal(r.body.signin_redirect_url, ['https://app.acme.example/cb']);
  assert.is(r.body.token_endpoint_auth_method, 'client_secret_basic');
  assert.is(r.body.user_source_id, 'default');
  assert.is(r.body.has_client_secret, true);
  assert.not.ok(/scrypt|secret_hash|secretHash/.test(r.text));
  const id = r.body.client_id as string;

  const stored = await directory.getClient(id);
  assert.is(await directory.verifyClientSecret(stored!, secret), true);

  await caughtUp();
  const later = [
    await call('GET', `${BASE}/clients/${id}`, tokens.acme),
    await call('GET', `${BASE}/clients`, tokens.acme),
    await call('PATCH', `${BASE}/clients/${id}`, tokens.acme, { app_name: 'Portal 2' }),
    await call('POST', `${BASE}/clients/${id}/disable`, tokens.acme),
    await call('POST', `${BASE}/clients/${id}/enable`, tokens.acme),
  ];
  for (const l of later) {
    assert.is(l.status, 200, l.text);
    assert.not.ok(l.text.includes(secret), 'the secret shows up again');
    assert.not.ok(/"client_secret"|scrypt|secretHash/.test(l.text), l.text);
  }
  assert.is(later[0]!.body.client_id, id);
  assert.ok((later[1]!.body.items as Array<{ client_id: string }>).some((c) => c.client_id === id));
  assert.is(later[2]!.body.app_name, 'Portal 2');
  assert.is(later[3]!.body.status, 'disabled');
  assert.is(later[4]!.body.status, 'active');

  const rotated = await call('POST', `${BASE}/clients/${id}/rotate-secret`, tokens.acme);
  assert.is(rotated.status, 200);
  assert.is(rotated.headers.get('cache-control'), 'no-store');
  assert.match(rotated.body.client_secret, /^[A-Za-z0-9_-]{43}$/);
  assert.is.not(rotated.body.client_secret, secret);
  const now = await directory.getClient(id);
  assert.is(await directory.verifyClientSecret(now!, secret), false);
  assert.is(await directory.verifyClientSecret(now!, rotated.body.client_secret), true);
});

test('a public client gets no secret; private_key_jwt takes a JWKS; comma-separated lists are accepted', async () => {
  const spa = await call('POST', `${BASE}/clients`, tokens.acme, {
    signin_redirect_url: ['http://localhost:5173/cb'],
    grant_type: ['authorization_code'],
    token_endpoint_auth_method: 'none',
    allow_plain_pkce: true,
  });
  assert.is(spa.status, 201);
  assert.is(spa.body.client_secret, undefined);
  assert.is(spa.body.has_client_secret, false);
  assert.is((await call('POST', `${BASE}/clients/${spa.body.client_id}/rotate-secret`, tokens.acme)).status, 400);

  const jwt = await call('POST', `${BASE}/clients`, tokens.acme, {
    grant_type: 'client_credentials',
    token_endpoint_auth_method: 'private_key_jwt',
    default_user: 'dora',
    jwks: { keys: [{ kty: 'RSA', n: 'abc', e: 'AQAB', kid: 'k1' }] },
    allowed_access_tenants: 'acme',
  });
  assert.is(jwt.status, 201, jwt.text);
  assert.is(jwt.body.client_secret, undefined);
  assert.is(jwt.body.default_user, (await directory.findUserByUsername('acme', 'default', 'dora'))!.userId);
  assert.equal(jwt.body.allowed_access_tenants, ['acme']);
});

test('client registration errors: 400 naming the fields', async () => {
  const unknownMethod = await call('POST', `${BASE}/clients`, tokens.acme, {
    ...client,
    token_endpoint_auth_method: 'tls_client_auth',
    client_secret: 'mine',
    client_id: 'mine',
  });
  assert.is(unknownMethod.status, 400);
  assert.equal(fieldsOf(unknownMethod), ['client_id', 'client_secret', 'token_endpoint_auth_method']);

  const rules = await call('POST', `${BASE}/clients`, tokens.acme, {
    grant_type: 'authorization_code,client_credentials,implicit',
    signout_redirect_url: 'https://a.example/bye#frag',
  });
  assert.is(rules.status, 400);
  assert.is(rules.body.code, 'CLIENT.INVALID');
  const fields = fieldsOf(rules);
  for (const f of ['grant_type', 'signin_redirect_url', 'default_user', 'signout_redirect_url'])
    assert.ok(fields.includes(f), `${f} in ${fields.join()}`);

  const publicCc = await call('POST', `${BASE}/clients`, tokens.acme, {
    grant_type: 'client_credentials',
    token_endpoint_auth_method: 'none',
    default_user: 'dora',
  });
  assert.is(publicCc.status, 400);
  assert.equal(fieldsOf(publicCc), ['grant_type']);
});

test('only platform admins grant access to other tenants', async () => {
  const r = await call('POST', `${BASE}/clients`, tokens.acme, {
    ...client,
    allowed_access_tenants: ['acme', 'globex'],
  });
  assert.is(r.status, 403);
  assert.is(r.body.code, 'CLIENT.CROSS_TENANT_FORBIDDEN');
  const p = await call('POST', `${BASE}/clients`, tokens.platform, {
    ...client,
    tenant_code: 'acme',
    allowed_access_tenants: 'acme,globex',
  });
  assert.is(p.status, 201);
  assert.is(p.body.tenant_code, 'acme');
  assert.equal(p.body.allowed_access_tenants, ['acme', 'globex']);
  const patch = await call('PATCH', `${BASE}/clients/${p.body.client_id}`, tokens.acme, {
    allowed_access_tenants: ['globex'],
  });
  assert.is(patch.status, 403);
});

// ---- tenants ----

test('tenants: platform admins create; tenant admins see and change their own', async () => {
  const denied = await call('POST', `${BASE}/tenants`, tokens.acme, { code: 'initech', name: 'Initech' });
  assert.is(denied.status, 403);
  const created = await call('POST', `${BASE}/tenants`, tokens.platform, {
    code: 'initech',
    name: 'Initech',
    support_mail_group: 'help@initech.example',
  });
  assert.is(created.status, 201);
  assert.equal(created.body, {
    code: 'initech',
    name: 'Initech',
    token_lifetime_seconds: 7200,
    support_mail_group: 'help@initech.example',
    status: 'active',
  });
  assert.is((await call('POST', `${BASE}/tenants`, tokens.platform, { code: 'initech', name: 'Again' })).status, 409);
  const bad = await call('POST', `${BASE}/tenants`, tokens.platform, {
    code: 'Bad Code',
    name: '',
    token_lifetime_seconds: 0,
  });
  assert.equal(fieldsOf(bad), ['code', 'name', 'token_lifetime_seconds']);

  const own = await call('PATCH', `${BASE}/tenants/acme`, tokens.acme, {
    token_lifetime_seconds: 3600,
    support_mail_group: 'ops@acme.example',
  });
  assert.is(own.status, 200);
  assert.is(own.body.token_lifetime_seconds, 3600);
  assert.is((await directory.getTenant('acme'))?.tokenLifetimeSeconds, 3600);
  assert.is((await call('GET', `${BASE}/tenants/acme`, tokens.acme)).body.support_mail_group, 'ops@acme.example');

  await caughtUp();
  const mine = await call('GET', `${BASE}/tenants`, tokens.acme);
  assert.equal(
    mine.body.items.map((t: { code: string }) => t.code),
    ['acme'],
  );
  const all = await call('GET', `${BASE}/tenants?limit=2`, tokens.platform);
  assert.is(all.body.total, 4);
  assert.equal(
    all.body.items.map((t: { code: string }) => t.code),
    ['acme', 'globex'],
  );
  assert.is((await call('GET', `${BASE}/tenants/nowhere`, tokens.platform)).status, 404);
});

test('the read model holds no secret and no hash', async () => {
  await caughtUp();
  const names = (await readStore.listCollections()).filter((n) => n.startsWith('identity.directory__'));
  assert.equal(names.map((n) => n.split('__')[1]).sort(), ['clients', 'tenants', 'users']);
  let docs = 0;
  for (const name of names) {
    for (const doc of await readStore.collection(name).find({})) {
      docs += 1;
      const text = JSON.stringify(doc);
      assert.not.ok(/scrypt|passwordHash|secretHash|"password"/.test(text), text);
    }
  }
  assert.ok(docs > 10);
});

test.run();
