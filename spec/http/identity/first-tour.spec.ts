// The first tour, as a new user meets it: the seeded admin's ID token carries every claim of the
// spec's table, a user without a nickname or mail address gets none (absent, not empty), and the
// administration API describes itself at /cas/admin/v1/openapi.json, its examples being requests it takes.
import { decodeJwt } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SEED, signIn, startIdentityPlatform } from './identity-harness.ts';

const REDIRECT = 'https://rp.example/callback';
const ctx = await startIdentityPlatform({ redirectUri: REDIRECT });
const base = ctx.base;
const test = suite('first tour');
test.after(() => ctx.stop());

const demoBasic = `Basic ${Buffer.from(`${encodeURIComponent(SEED.clientId)}:${encodeURIComponent(SEED.clientSecret)}`).toString('base64')}`;
const form = async (path: string, fields: Record<string, string>) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: demoBasic },
    body: new URLSearchParams(fields),
  });
  return (await res.json()) as Record<string, any>;
};

async function signedIn(username: string, password: string) {
  const url = `${base}/cas/oidc/authorize?${new URLSearchParams({ client_id: SEED.clientId, response_type: 'code', scope: 'openid profile email', redirect_uri: REDIRECT, state: 's', nonce: 'n' })}`;
  const { response } = await signIn(url, username, password);
  assert.is(response.status, 302);
  const code = new URL(response.headers.get('location')!).searchParams.get('code')!;
  const tokens = await form('/cas/oidc/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  const userinfo = (await (
    await fetch(`${base}/cas/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
  ).json()) as Record<string, unknown>;
  return { id: decodeJwt(tokens.id_token as string), userinfo };
}

const admin = (await form('/cas/oidc/token', { grant_type: 'client_credentials', scope: 'identity:admin' }))
  .access_token as string;

test('the seeded admin: every ID token claim of the spec (sub aud exp name nickname preferred_username email userName tenant)', async () => {
  const { id, userinfo } = await signedIn(SEED.adminUsername, SEED.adminPassword);
  for (const claim of ['sub', 'aud', 'exp', 'name', 'nickname', 'preferred_username', 'email', 'userName', 'tenant']) {
    assert.ok(id[claim] !== undefined && id[claim] !== '', `ID token claim ${claim} in ${JSON.stringify(id)}`);
  }
  assert.is(id.preferred_username, SEED.adminUsername);
  assert.is(id.nickname, 'Admin');
  assert.is(id.email, `${SEED.adminUsername}@${SEED.tenant}.example`);
  assert.equal(Object.keys(userinfo).sort(), ['email', 'name', 'nickname', 'preferred_username', 'sub']);
});

test('a user without nickname and mail address: those claims are absent, not empty', async () => {
  const res = await fetch(`${base}/cas/admin/v1/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'plain', password: 'plain password 1', name: 'Plain User' }),
  });
  assert.is(res.status, 201);
  const { id, userinfo } = await signedIn('plain', 'plain password 1');
  assert.not.ok('nickname' in id || 'email' in id, JSON.stringify(id));
  assert.equal(Object.keys(userinfo).sort(), ['name', 'preferred_username', 'sub']);
});

type Operation = {
  requestBody?: { content: Record<string, { schema: Record<string, any> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, any> }> }>;
  tags?: string[];
};

test('GET /cas/admin/v1/openapi.json: the admin API only, public, with schemas, examples and the bearer scheme', async () => {
  const res = await fetch(`${base}/cas/admin/v1/openapi.json`);
  assert.is(res.status, 200, 'no token needed: it describes, it reveals no data');
  const doc = (await res.json()) as {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    security: unknown;
    components: Record<string, any>;
  };
  assert.is(doc.openapi, '3.0.3');
  assert.equal(doc.security, [{ bearer: ['identity:admin'] }]);
  assert.is(doc.components.securitySchemes.bearer.scheme, 'bearer');
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/cas/admin/v1/tenants',
    '/cas/admin/v1/tenants/{code}',
    '/cas/admin/v1/users',
    '/cas/admin/v1/users/{id}',
    '/cas/admin/v1/users/{id}/disable',
    '/cas/admin/v1/users/{id}/reset-password',
    '/cas/admin/v1/clients',
    '/cas/admin/v1/clients/{id}/rotate-secret',
  ]) {
    assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
  }
  assert.ok(
    paths.every((p) => p.startsWith('/cas/admin/v1/')),
    'the OAuth endpoints are not part of it',
  );
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
      assert.ok(op.responses[success]?.content?.['application/json']?.schema, `${method} ${p} describes its answer`);
    }
  }
  const createUser = doc.paths['/cas/admin/v1/users']!.post!;
  const example = createUser.requestBody!.content['application/json']!.schema.example as Record<string, unknown>;
  for (const field of ['name', 'nickname', 'email'])
    assert.ok(example[field], `the example has a full profile: ${field}`);
  assert.ok(createUser.responses['201']!.content!['application/json']!.schema.example.nickname);

  // the examples are requests the API takes, as a first user would copy them
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const user = await post('/cas/admin/v1/users', example);
  assert.is(user.status, 201, await user.clone().text());
  const made = (await user.json()) as Record<string, unknown>;
  assert.is(made.email, example.email);
  const clientExample =
    doc.paths['/cas/admin/v1/clients']!.post!.requestBody!.content['application/json']!.schema.example;
  assert.is((await post('/cas/admin/v1/clients', clientExample)).status, 201);
});

test.run();
