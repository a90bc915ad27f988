import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import * as oidc from 'openid-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { ASSERTION_ALGORITHMS, createClientAuthenticator } from '../../../commands/identity/client.authenticator.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { createExchangeCodes } from '../../../commands/identity/exchange-codes.commands.ts';
import { createKeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { createTokenService, type TokenServiceImpl } from '../../../commands/identity/token.service.ts';
import { CROSS_TENANT_SCOPE } from '../../../domain/core/access-context.ts';
import type { Client, User } from '../../../domain/identity/model.ts';
import { createTokenRouter, discoveryDocument } from '../../../http/identity/token.router.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';

type Ctx = {
  dir: string;
  eventStore: SqliteEventStore;
  clock: ReturnType<typeof manualClock>;
  app: TestApp;
  issuer: string;
  tokens: TokenServiceImpl;
  alice: User;
  app1: { client: Client; secret: string };
  /** a client of another tenant */
  beta: { client: Client; secret: string };
  /** a confidential client allowed to act on tenant beta */
  partner: { client: Client; secret: string };
};

const test = suite<Ctx>('token router');
let commandSeq = 0;

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'token-router-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.clock = manualClock('2026-03-01T10:00:00.000Z');
  const { eventStore, clock } = ctx;
  const directory = createDirectory({ eventStore, clock });
  const admin = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
  const sys = { tenant: 'acme', actor: 'spec' };
  await admin.createTenant({ name: 'Acme' }, sys, 't-acme');
  await admin.createTenant({ name: 'Beta' }, forTenant(sys, 'beta'), 't-beta');
  ({ user: ctx.alice } = await admin.registerUser(
    { username: 'alice', password: 'correct horse', name: 'Alice Doe', nickname: 'ali', email: 'alice@acme.test' },
    sys,
    'u-alice',
  ));
  const register = async (tenant: string, clientId: string, extra: Record<string, unknown> = {}) => {
    const r = await admin.registerClient(
      {
        clientId,
        grantTypes: ['authorization_code', 'refresh_token'],
        redirectUris: ['https://app.test/cb'],
        authMethod: 'client_secret_basic',
        ...extra,
      },
      { tenant, actor: 'spec' },
      `c-${clientId}`,
    );
    return { client: r.client, secret: r.clientSecret! };
  };
  ctx.app1 = await register('acme', 'acme-app', {
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
    defaultUser: 'alice',
  });
  ctx.beta = await register('beta', 'beta-app');
  ctx.partner = await register('acme', 'partner-app', { allowedAccessTenants: ['beta'], scopes: [CROSS_TENANT_SCOPE] });

  const keyRing = createKeyRing({ eventStore, clock, secret: 's'.repeat(40) });
  await keyRing.ensureKey();

  // the issuer is the server's own URL, known once it listens: the router is built then
  let inner: Router | undefined;
  const outer = Router();
  outer.use((req, res, next) => (inner ? inner(req, res, next) : next()));
  ctx.app = await startTestApp({ routers: [{ service: 'identity', router: outer }] });
  ctx.issuer = ctx.app.url;
  ctx.tokens = createTokenService({
    eventStore,
    clock,
    config: { issuer: ctx.issuer, accessTokenTtlSeconds: 7200, refreshTokenTtlSeconds: 86400 },
    keyRing,
    directory,
  });
  const clientAuth = createClientAuthenticator({
    directory,
    eventStore,
    clock,
    issuer: ctx.issuer,
    endpoints: [`${ctx.issuer}/cas/oidc/token`],
  });
  inner = createTokenRouter({
    issuer: ctx.issuer,
    tokens: ctx.tokens,
    directory,
    authenticateClient: async (req) => (await clientAuth.authenticateClient(req)).client,
    exchangeCodes: createExchangeCodes({ eventStore, clock, ttlSeconds: 60 }),
  });
});

test.after(async (ctx) => {
  await ctx.app.close();
  await ctx.eventStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const issue = (ctx: Ctx, o: { scopes?: string[]; subject?: string; client?: Client; tenant?: string } = {}) =>
  ctx.tokens.issue({
    client: o.client ?? ctx.app1.client,
    tenant: o.tenant ?? 'acme',
    subject: o.subject ?? ctx.alice.userId,
    scopes: o.scopes ?? ['openid', 'profile', 'email'],
    refresh: true,
    commandId: `cmd-${++commandSeq}`,
  });

const basic = (c: { client: Client; secret: string }) =>
  `Basic ${Buffer.from(`${encodeURIComponent(c.client.clientId)}:${encodeURIComponent(c.secret)}`).toString('base64')}`;

const form = (ctx: Ctx, p: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${ctx.issuer}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });

const bearerGet = (ctx: Ctx, p: string, token?: string) =>
  fetch(`${ctx.issuer}${p}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

test('discovery: RFC 8414 and OIDC documents, the same, with every field', async (ctx) => {
  const a = await fetch(`${ctx.issuer}/.well-known/oauth-authorization-server`);
  const b = await fetch(`${ctx.issuer}/.well-known/openid-configuration`);
  assert.is(a.status, 200);
  const doc = (await a.json()) as Record<string, unknown>;
  assert.equal(await b.json(), doc);
  assert.equal(doc, discoveryDocument(ctx.issuer));
  const i = ctx.issuer;
  assert.is(doc.issuer, i);
  assert.is(doc.authorization_endpoint, `${i}/cas/oidc/authorize`);
  assert.is(doc.token_endpoint, `${i}/cas/oidc/token`);
  assert.is(doc.userinfo_endpoint, `${i}/cas/oidc/userinfo`);
  assert.is(doc.token_validation_endpoint, `${i}/cas/validate-token`);
  assert.is(doc.jwks_uri, `${i}/cas/oidc/jwks`);
  assert.is(doc.end_session_endpoint, `${i}/cas/oidc/logout`);
  assert.is(doc.introspection_endpoint, `${i}/cas/oidc/introspect`);
  assert.is(doc.revocation_endpoint, `${i}/cas/oidc/revoke`);
  assert.equal(doc.scopes_supported, ['openid', 'profile', 'email']);
  assert.equal(doc.response_types_supported, ['code', 'token', 'id_token', 'token id_token']);
  assert.equal(doc.grant_types_supported, ['authorization_code', 'client_credentials', 'refresh_token']);
  assert.not.ok((doc.grant_types_supported as string[]).includes('password'));
  assert.equal(doc.token_endpoint_auth_methods_supported, [
    'client_secret_basic',
    'client_secret_post',
    'none',
    'private_key_jwt',
  ]);
  // every algorithm a client assertion may use, EdDSA (the portal's) among them
  assert.equal(doc.token_endpoint_auth_signing_alg_values_supported, [...ASSERTION_ALGORITHMS]);
  assert.ok((doc.token_endpoint_auth_signing_alg_values_supported as string[]).includes('EdDSA'));
  assert.equal(doc.code_challenge_methods_supported, ['S256', 'plain']);
  assert.equal(doc.subject_types_supported, ['public']);
  assert.equal(doc.id_token_signing_alg_values_supported, ['RS256']);
  for (const claim of [
    'sub',
    'name',
    'nickname',
    'preferred_username',
    'email',
    'iss',
    'aud',
    'exp',
    'iat',
    'auth_time',
    'nonce',
    'tenant',
    'userName',
  ]) {
    assert.ok((doc.claims_supported as string[]).includes(claim), claim);
  }
  assert.ok(Array.isArray(doc.introspection_endpoint_auth_methods_supported));
  assert.ok(Array.isArray(doc.revocation_endpoint_auth_methods_supported));
  assert.is(a.headers.get('access-control-allow-origin'), '*');
});

test('discovery is what openid-client (certified RP) accepts', async (ctx) => {
  const config = await oidc.discovery(
    new URL(ctx.issuer),
    'acme-app',
    undefined,
    oidc.ClientSecretBasic(ctx.app1.secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  assert.is(config.serverMetadata().issuer, ctx.issuer);
});

test('protected resource metadata (RFC 9728)', async (ctx) => {
  const res = await fetch(`${ctx.issuer}/.well-known/oauth-protected-resource`);
  assert.is(res.status, 200);
  const doc = (await res.json()) as Record<string, unknown>;
  assert.is(doc.resource, ctx.issuer);
  assert.equal(doc.authorization_servers, [ctx.issuer]);
  assert.equal(doc.bearer_methods_supported, ['header']);
  assert.ok((doc.scopes_supported as string[]).includes('openid'));
  assert.equal(doc.resource_signing_alg_values_supported, ['RS256']);
});

test('jwks: public RSA keys with kid, short cache, no private members', async (ctx) => {
  const res = await fetch(`${ctx.issuer}/cas/oidc/jwks`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'public, max-age=60');
  assert.match(res.headers.get('content-type') ?? '', /^application\/jwk-set\+json/);
  const { keys } = (await res.json()) as { keys: Array<Record<string, unknown>> };
  assert.ok(keys.length >= 1);
  for (const k of keys) {
    assert.is(k.kty, 'RSA');
    assert.is(k.alg, 'RS256');
    assert.is(k.use, 'sig');
    assert.ok(typeof k.kid === 'string');
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.not.ok(member in k);
  }
});

test('userinfo: GET and POST with the header, POST with the form body', async (ctx) => {
  const { access_token } = await issue(ctx);
  const expected = {
    sub: ctx.alice.userId,
    name: 'Alice Doe',
    nickname: 'ali',
    preferred_username: 'alice',
    email: 'alice@acme.test',
  };
  let res = await bearerGet(ctx, '/cas/oidc/userinfo', access_token);
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.equal(await res.json(), expected);
  res = await form(ctx, '/cas/oidc/userinfo', {}, { authorization: `Bearer ${access_token}` });
  assert.equal(await res.json(), expected);
  res = await form(ctx, '/cas/oidc/userinfo', { access_token });
  assert.is(res.status, 200);
  assert.equal(await res.json(), expected);
  // and through the certified relying-party library
  const config = await oidc.discovery(
    new URL(ctx.issuer),
    'acme-app',
    undefined,
    oidc.ClientSecretBasic(ctx.app1.secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const info = await oidc.fetchUserInfo(config, access_token, ctx.alice.userId);
  assert.is(info.preferred_username, 'alice');
});

test('userinfo: the claims follow the scopes; scope openid is required; no token is 401', async (ctx) => {
  const onlyOpenid = await issue(ctx, { scopes: ['openid'] });
  let res = await bearerGet(ctx, '/cas/oidc/userinfo', onlyOpenid.access_token);
  assert.equal(await res.json(), { sub: ctx.alice.userId });
  const noOpenid = await issue(ctx, { scopes: ['profile'] });
  res = await bearerGet(ctx, '/cas/oidc/userinfo', noOpenid.access_token);
  assert.is(res.status, 403);
  assert.is(res.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="openid"');
  res = await bearerGet(ctx, '/cas/oidc/userinfo');
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer realm="platform"');
});

test('userinfo of a client_credentials token whose subject is a machine user answers its sub', async (ctx) => {
  const { access_token } = await issue(ctx, { subject: 'machine-7' });
  const res = await bearerGet(ctx, '/cas/oidc/userinfo', access_token);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { sub: 'machine-7' });
});

test('validate-token: active, who and what, and the user', async (ctx) => {
  const { access_token } = await issue(ctx);
  const res = await bearerGet(ctx, '/cas/validate-token', access_token);
  assert.is(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  assert.is(body.active, true);
  assert.is(body.sub, ctx.alice.userId);
  assert.is(body.client_id, 'acme-app');
  assert.is(body.tenant, 'acme');
  assert.is(body.scope, 'openid profile email');
  assert.ok(typeof body.exp === 'number' && typeof body.iat === 'number');
  assert.equal(body.user, {
    sub: ctx.alice.userId,
    userName: 'alice',
    preferred_username: 'alice',
    name: 'Alice Doe',
    nickname: 'ali',
    email: 'alice@acme.test',
    tenant: 'acme',
  });
  const bad = await bearerGet(ctx, '/cas/validate-token', 'x.y.z');
  assert.is(bad.status, 401);
  assert.match(bad.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
});

test('introspect (RFC 7662): client-authenticated; active and inactive; Basic and post', async (ctx) => {
  const { access_token, refresh_token } = await issue(ctx);
  let res = await form(ctx, '/cas/oidc/introspect', { token: access_token }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 200);
  let body = (await res.json()) as Record<string, unknown>;
  assert.is(body.active, true);
  assert.is(body.client_id, 'acme-app');
  assert.is(body.sub, ctx.alice.userId);
  assert.is(body.scope, 'openid profile email');
  res = await form(ctx, '/cas/oidc/introspect', {
    token: refresh_token!,
    client_id: 'acme-app',
    client_secret: ctx.app1.secret,
  });
  body = (await res.json()) as Record<string, unknown>;
  assert.is(body.active, true);
  assert.is(body.token_type, 'refresh_token');
  res = await form(ctx, '/cas/oidc/introspect', { token: 'garbage' }, { authorization: basic(ctx.app1) });
  assert.equal(await res.json(), { active: false });
  // no or wrong client authentication
  res = await form(ctx, '/cas/oidc/introspect', { token: access_token });
  assert.is(res.status, 401);
  assert.is(((await res.json()) as { error: string }).error, 'invalid_client');
  res = await form(
    ctx,
    '/cas/oidc/introspect',
    { token: access_token },
    { authorization: basic({ ...ctx.app1, secret: 'wrong-secret' }) },
  );
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Basic/);
  res = await form(ctx, '/cas/oidc/introspect', {}, { authorization: basic(ctx.app1) });
  assert.is(res.status, 400);
  assert.is(((await res.json()) as { error: string }).error, 'invalid_request');
  // openid-client's introspection
  const config = await oidc.discovery(
    new URL(ctx.issuer),
    'acme-app',
    undefined,
    oidc.ClientSecretBasic(ctx.app1.secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const viaRp = await oidc.tokenIntrospection(config, access_token);
  assert.is(viaRp.active, true);
});

test('introspect: a client of another tenant learns nothing; a client allowed to act for it does', async (ctx) => {
  const betaToken = await issue(ctx, {
    client: ctx.beta.client,
    tenant: 'beta',
    subject: 'b-user',
    scopes: ['openid'],
  });
  let res = await form(
    ctx,
    '/cas/oidc/introspect',
    { token: betaToken.access_token },
    { authorization: basic(ctx.app1) },
  );
  assert.equal(await res.json(), { active: false });
  res = await form(
    ctx,
    '/cas/oidc/introspect',
    { token: betaToken.access_token },
    { authorization: basic(ctx.partner) },
  );
  assert.is(((await res.json()) as { active: boolean }).active, true);
});

test('revoke (RFC 7009): 200, and then 401 Bearer error="invalid_token" everywhere', async (ctx) => {
  const { access_token } = await issue(ctx);
  let res = await bearerGet(ctx, '/cas/oidc/userinfo', access_token);
  assert.is(res.status, 200);
  res = await form(
    ctx,
    '/cas/oidc/revoke',
    { token: access_token, token_type_hint: 'access_token' },
    { authorization: basic(ctx.app1) },
  );
  assert.is(res.status, 200);
  assert.is(await res.text(), '');
  res = await bearerGet(ctx, '/cas/oidc/userinfo', access_token);
  assert.is(res.status, 401);
  assert.is(
    res.headers.get('www-authenticate'),
    'Bearer error="invalid_token", error_description="the access token was revoked"',
  );
  res = await bearerGet(ctx, '/cas/validate-token', access_token);
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
  res = await form(ctx, '/cas/oidc/introspect', { token: access_token }, { authorization: basic(ctx.app1) });
  assert.equal(await res.json(), { active: false });
});

test("revoke: unknown tokens and other clients' tokens are 200 and change nothing; no client auth is 401", async (ctx) => {
  const { access_token } = await issue(ctx);
  let res = await form(ctx, '/cas/oidc/revoke', { token: 'no-such-token' }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 200);
  res = await form(ctx, '/cas/oidc/revoke', { token: access_token }, { authorization: basic(ctx.beta) });
  assert.is(res.status, 200);
  res = await bearerGet(ctx, '/cas/oidc/userinfo', access_token);
  assert.is(res.status, 200);
  res = await form(ctx, '/cas/oidc/revoke', { token: access_token });
  assert.is(res.status, 401);
  // a refresh token through openid-client: the grant ends, its access token with it
  const second = await issue(ctx);
  const config = await oidc.discovery(
    new URL(ctx.issuer),
    'acme-app',
    undefined,
    oidc.ClientSecretBasic(ctx.app1.secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  await oidc.tokenRevocation(config, second.refresh_token!);
  res = await bearerGet(ctx, '/cas/oidc/userinfo', second.access_token);
  assert.is(res.status, 401);
});

const getExchangeCode = async (ctx: Ctx, token: string, body: Record<string, unknown> = {}) => {
  const res = await fetch(`${ctx.issuer}/cas/exchange-code/get`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res;
};

test('exchange code: get with a bearer token, consume once with client authentication', async (ctx) => {
  const { access_token } = await issue(ctx);
  let res = await getExchangeCode(ctx, access_token);
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'no-store');
  const issued = (await res.json()) as { code: string; expires_in: number; expires_at: string };
  assert.ok(issued.code.length >= 43);
  assert.is(issued.expires_in, 60);
  res = await form(ctx, '/cas/exchange-code/consume', { code: issued.code }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 200);
  assert.equal(await res.json(), {
    sub: ctx.alice.userId,
    tenant: 'acme',
    client_id: 'acme-app',
    scope: 'openid profile email',
    issued_at: ctx.clock.now().toISOString(),
  });
  res = await form(ctx, '/cas/exchange-code/consume', { code: issued.code }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 400);
  assert.is(((await res.json()) as { error: string }).error, 'invalid_grant');
  // the code never reaches the log
  const log = JSON.stringify(await ctx.eventStore.readAll({}));
  assert.not.ok(log.includes(issued.code));
});

test('exchange code: two concurrent consumers, exactly one wins', async (ctx) => {
  const { access_token } = await issue(ctx);
  for (let round = 0; round < 5; round++) {
    const { code } = (await (await getExchangeCode(ctx, access_token)).json()) as { code: string };
    const results = await Promise.all(
      [0, 1, 2].map(() => form(ctx, '/cas/exchange-code/consume', { code }, { authorization: basic(ctx.app1) })),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses, [200, 400, 400]);
    for (const r of results) {
      if (r.status === 400) assert.is(((await r.json()) as { error: string }).error, 'invalid_grant');
      else await r.arrayBuffer();
    }
  }
});

test('exchange code: needs a bearer token; consumer must authenticate; expires; audience and tenant bind it', async (ctx) => {
  let res = await fetch(`${ctx.issuer}/cas/exchange-code/get`, { method: 'POST' });
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer realm="platform"');
  const { access_token } = await issue(ctx);
  res = await getExchangeCode(ctx, access_token, { unexpected: true });
  assert.is(res.status, 400);
  res = await fetch(`${ctx.issuer}/cas/exchange-code/get`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}` },
  });
  assert.is(res.status, 200, 'no body at all is fine');

  let code = ((await (await getExchangeCode(ctx, access_token)).json()) as { code: string }).code;
  res = await form(ctx, '/cas/exchange-code/consume', { code });
  assert.is(res.status, 401);
  assert.is(((await res.json()) as { error: string }).error, 'invalid_client');
  // a client of another tenant may not take the identity
  res = await form(ctx, '/cas/exchange-code/consume', { code }, { authorization: basic(ctx.beta) });
  assert.is(res.status, 400);
  // expiry
  ctx.clock.advance(60_000);
  res = await form(ctx, '/cas/exchange-code/consume', { code }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 400);
  assert.match(((await res.json()) as { error_description: string }).error_description, /expired/);
  // audience
  code = ((await (await getExchangeCode(ctx, access_token, { audience: 'partner-app' })).json()) as { code: string })
    .code;
  res = await form(ctx, '/cas/exchange-code/consume', { code }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 400);
  res = await form(ctx, '/cas/exchange-code/consume', { code }, { authorization: basic(ctx.partner) });
  assert.is(res.status, 200);
  // unknown code
  res = await form(ctx, '/cas/exchange-code/consume', { code: 'nope' }, { authorization: basic(ctx.app1) });
  assert.is(res.status, 400);
  assert.is(((await res.json()) as { error: string }).error, 'invalid_grant');
});

test('CORS preflight for userinfo', async (ctx) => {
  const res = await fetch(`${ctx.issuer}/cas/oidc/userinfo`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://spa.test',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  assert.is(res.status, 204);
  assert.is(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-allow-headers') ?? '', /Authorization/);
});

test.run();
