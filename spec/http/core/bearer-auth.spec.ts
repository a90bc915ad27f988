import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OAuthError } from '../../../commands/identity/oauth.error.ts';
import { type AccessContext, CROSS_TENANT_SCOPE } from '../../../domain/core/access-context.ts';
import { authOf, bearerAuth } from '../../../http/core/bearer-auth.ts';
import { StoreUnavailableError } from '../../../infra/core/store-errors.ts';
import { startTestApp, type TestApp } from './harness.ts';

const ctxFor = (tenant: string, scopes: string[], clientId = 'app'): AccessContext => ({
  tenant,
  subject: 'u1',
  clientId,
  scopes,
  jti: `jti-${tenant}`,
  exp: 2_000_000_000,
});

// the tokens the fake verifier knows; anything else is invalid_token with a description
const TOKENS: Record<string, AccessContext> = {
  acme: ctxFor('acme', ['openid', 'audit:read']),
  'acme-noscope': ctxFor('acme', ['openid']),
  'acme-cross': ctxFor('acme', ['openid', CROSS_TENANT_SCOPE], 'cross-app'),
  'acme-cross-nolist': ctxFor('acme', ['openid', CROSS_TENANT_SCOPE], 'lonely-app'),
  beta: ctxFor('beta', ['openid', 'audit:read']),
};

const verify = async (token: string): Promise<AccessContext> => {
  if (token === 'store-down') throw new StoreUnavailableError('eventstore', 'connection refused');
  if (token === 'expired') throw new OAuthError('invalid_token', 'the access token expired');
  if (token === 'quoted') throw new OAuthError('invalid_token', 'bad "quoted" \\ description');
  const ctx = TOKENS[token];
  if (ctx === undefined) throw new OAuthError('invalid_token', 'the token signature is not valid');
  return ctx;
};

const CLIENTS: Record<string, string[]> = { 'cross-app': ['beta'], 'lonely-app': [] };
const bearer = bearerAuth(verify, {
  getClient: async (id) => (CLIENTS[id] ? { allowedAccessTenants: CLIENTS[id]! } : null),
});

// a service router as every other service writes it: records are kept per tenant
const records: Record<string, string[]> = { acme: ['a1', 'a2'], beta: ['b1'] };
const router = Router();
router.get('/api/records', bearer.authenticate, bearer.requireScope('audit:read'), (req, res) => {
  const tenant = bearer.targetTenant(res, req.query.tenant);
  res.json({ tenant, records: records[tenant] ?? [] });
});
router.get('/api/any', bearer.authenticate, (req, res) => {
  const tenant = bearer.targetTenant(res, req.query.tenant);
  res.json({ tenant, auth: authOf(res) });
});
router.post('/api/form', bearer.authenticateHeaderOrBody, (_req, res) => {
  res.json({ tenant: authOf(res).tenant });
});
router.get('/api/form', bearer.authenticateHeaderOrBody, (_req, res) => {
  res.json({ tenant: authOf(res).tenant });
});
router.post('/api/header-only', bearer.authenticate, (_req, res) => {
  res.json({ ok: true });
});

type Ctx = { app: TestApp };
const test = suite<Ctx>('bearer auth middleware');

test.before(async (ctx) => {
  ctx.app = await startTestApp({ router });
});
test.after(async (ctx) => {
  await ctx.app.close();
});

const get = (ctx: Ctx, path: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(`${ctx.app.url}${path}`, {
    headers: { ...(token !== undefined && { authorization: `Bearer ${token}` }), ...headers },
  });

const post = (ctx: Ctx, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${ctx.app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });

test('no token: 401, WWW-Authenticate: Bearer realm="platform", AUTH.REQUIRED', async (ctx) => {
  const res = await get(ctx, '/api/records');
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer realm="platform"');
  const body = (await res.json()) as { code: string };
  assert.is(body.code, 'AUTH.REQUIRED');
});

test('another scheme (Basic) counts as no bearer token', async (ctx) => {
  const res = await get(ctx, '/api/records', undefined, { authorization: 'Basic YTpi' });
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer realm="platform"');
});

test('an invalid, expired or revoked token: 401 Bearer error="invalid_token" with the description', async (ctx) => {
  let res = await get(ctx, '/api/records', 'expired');
  assert.is(res.status, 401);
  assert.is(
    res.headers.get('www-authenticate'),
    'Bearer error="invalid_token", error_description="the access token expired"',
  );
  assert.is(((await res.json()) as { code: string }).code, 'AUTH.INVALID_TOKEN');
  res = await get(ctx, '/api/records', 'forged');
  assert.is(res.status, 401);
  assert.is(
    res.headers.get('www-authenticate'),
    'Bearer error="invalid_token", error_description="the token signature is not valid"',
  );
});

test('a description never breaks the header syntax', async (ctx) => {
  const res = await get(ctx, '/api/records', 'quoted');
  assert.is(res.status, 401);
  assert.is(
    res.headers.get('www-authenticate'),
    'Bearer error="invalid_token", error_description="bad  quoted    description"',
  );
});

test('a malformed Authorization header: 400 Bearer error="invalid_request"', async (ctx) => {
  for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer ä']) {
    const res = await get(ctx, '/api/records', undefined, { authorization });
    assert.is(res.status, 400, authorization);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_request", error_description="/);
  }
});

test('the scheme name is case-insensitive', async (ctx) => {
  const res = await get(ctx, '/api/records', undefined, { authorization: 'bearer acme' });
  assert.is(res.status, 200);
});

test('a missing scope: 403 Bearer error="insufficient_scope", scope="audit:read"', async (ctx) => {
  const res = await get(ctx, '/api/records', 'acme-noscope');
  assert.is(res.status, 403);
  assert.is(res.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="audit:read"');
  const body = (await res.json()) as { code: string; details: unknown };
  assert.is(body.code, 'AUTH.INSUFFICIENT_SCOPE');
  assert.equal(body.details, { required: ['audit:read'] });
});

test("a store outage while verifying is 503, not the caller's fault", async (ctx) => {
  const res = await get(ctx, '/api/records', 'store-down');
  assert.is(res.status, 503);
  assert.is(res.headers.get('www-authenticate'), null);
});

test('the access context reaches the handler', async (ctx) => {
  const res = await get(ctx, '/api/any', 'acme');
  assert.is(res.status, 200);
  assert.equal(((await res.json()) as { auth: AccessContext }).auth, TOKENS.acme);
});

test("tenant isolation: the token's tenant, whatever the request says", async (ctx) => {
  let res = await get(ctx, '/api/records', 'acme');
  assert.equal(await res.json(), { tenant: 'acme', records: ['a1', 'a2'] });
  res = await get(ctx, '/api/records', 'beta');
  assert.equal(await res.json(), { tenant: 'beta', records: ['b1'] });
  // asking for the same tenant explicitly is fine
  res = await get(ctx, '/api/records?tenant=acme', 'acme');
  assert.is(res.status, 200);
  // another tenant without the cross-tenant scope
  res = await get(ctx, '/api/records?tenant=beta', 'acme');
  assert.is(res.status, 403);
  assert.is(res.headers.get('www-authenticate'), `Bearer error="insufficient_scope", scope="${CROSS_TENANT_SCOPE}"`);
  assert.is(((await res.json()) as { code: string }).code, 'AUTH.TENANT_FORBIDDEN');
});

test("cross-tenant only with the scope AND the tenant in the client's allowed_access_tenants", async (ctx) => {
  let res = await get(ctx, '/api/any?tenant=beta', 'acme-cross');
  assert.is(res.status, 200);
  assert.is(((await res.json()) as { tenant: string }).tenant, 'beta');
  // scope, but the tenant is not listed
  res = await get(ctx, '/api/any?tenant=gamma', 'acme-cross');
  assert.is(res.status, 403);
  assert.is(res.headers.get('www-authenticate'), null);
  assert.is(((await res.json()) as { code: string }).code, 'AUTH.TENANT_FORBIDDEN');
  // scope, client lists nothing
  res = await get(ctx, '/api/any?tenant=beta', 'acme-cross-nolist');
  assert.is(res.status, 403);
  // without a target the token's own tenant
  res = await get(ctx, '/api/any', 'acme-cross');
  assert.is(((await res.json()) as { tenant: string }).tenant, 'acme');
  // a repeated parameter is not a tenant
  res = await get(ctx, '/api/any?tenant=beta&tenant=gamma', 'acme-cross');
  assert.is(res.status, 403);
});

test('form body access_token (RFC 6750 2.2) only where allowed, only in a form POST, never with a header too', async (ctx) => {
  let res = await post(ctx, '/api/form', { access_token: 'beta' });
  assert.is(res.status, 200);
  assert.equal(await res.json(), { tenant: 'beta' });
  res = await post(ctx, '/api/header-only', { access_token: 'beta' });
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer realm="platform"');
  res = await get(ctx, '/api/form?access_token=beta');
  assert.is(res.status, 401); // never from the query string
  res = await post(ctx, '/api/form', { access_token: 'beta' }, { authorization: 'Bearer acme' });
  assert.is(res.status, 400);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_request"/);
  res = await post(ctx, '/api/form', { access_token: 'expired' });
  assert.is(res.status, 401);
  assert.is(
    res.headers.get('www-authenticate'),
    'Bearer error="invalid_token", error_description="the access token expired"',
  );
});

test.run();
