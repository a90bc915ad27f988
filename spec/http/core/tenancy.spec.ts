import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OAuthError } from '../../../commands/identity/oauth.error.ts';
import { type AccessContext, CROSS_TENANT_SCOPE, PLATFORM_TENANT } from '../../../domain/core/access-context.ts';
import { bearerAuth } from '../../../http/core/bearer-auth.ts';
import {
  commandContext,
  isPlatformAdmin,
  mayActOn,
  PLATFORM_ADMINS_NAME_ANY,
  TOKEN_TENANCY,
  targetTenant,
} from '../../../http/core/tenancy.ts';
import { startTestApp, type TestApp } from './harness.ts';

// The platform's one tenancy rule (http/core/tenancy.ts) through a real app: the bearer middleware puts the
// access context (and a cross-tenant client's allowed tenants) on the request, routes ask the rule.

const ctxFor = (tenant: string, scopes: string[], clientId = 'app'): AccessContext => ({
  tenant,
  subject: `${tenant}-admin`,
  clientId,
  scopes,
  jti: `jti-${tenant}-${clientId}`,
  exp: 2_000_000_000,
});

const TOKENS: Record<string, AccessContext> = {
  acme: ctxFor('acme', ['x:admin']),
  'acme-cross': ctxFor('acme', ['x:admin', CROSS_TENANT_SCOPE], 'cross-app'),
  'acme-listed-noscope': ctxFor('acme', ['x:admin'], 'cross-app'),
  platform: ctxFor(PLATFORM_TENANT, ['x:admin']),
};
const CLIENTS: Record<string, string[]> = { 'cross-app': ['beta'], app: [] };

const bearer = bearerAuth(
  async (token) => {
    const ctx = TOKENS[token];
    if (ctx === undefined) throw new OAuthError('invalid_token', 'unknown token');
    return ctx;
  },
  { getClient: async (id) => (CLIENTS[id] ? { allowedAccessTenants: CLIENTS[id]! } : null) },
);

const router = Router();
// a route where only the token's rule applies (the message queue's `?tenant=`)
router.get('/t/token', bearer.authenticate, (req, res) => {
  res.json({ tenant: targetTenant(res, req.query.tenant, TOKEN_TENANCY) });
});
// a route where the platform tenant's admins may name any tenant (the identity admin API, the bridge trace)
router.get('/t/admin', bearer.authenticate, (req, res) => {
  res.json({ tenant: targetTenant(res, req.query.tenant, PLATFORM_ADMINS_NAME_ANY) });
});
router.get('/t/checks', bearer.authenticate, (req, res) => {
  const other = String(req.query.other);
  res.json({
    platformAdmin: isPlatformAdmin(res),
    token: mayActOn(res, other),
    admin: mayActOn(res, other, PLATFORM_ADMINS_NAME_ANY),
    context: commandContext(res, targetTenant(res, req.query.tenant, PLATFORM_ADMINS_NAME_ANY)),
  });
});

type Ctx = { app: TestApp };
const test = suite<Ctx>('tenancy rule');

test.before(async (ctx) => {
  ctx.app = await startTestApp({ router });
});
test.after(async (ctx) => {
  await ctx.app.close();
});

const get = async (ctx: Ctx, path: string, token: string) => {
  const res = await fetch(`${ctx.app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    body: (await res.json()) as Record<string, unknown>,
  };
};

test("no tenant named, or the token's own: the token's tenant, on every rule", async (ctx) => {
  for (const path of ['/t/token', '/t/admin']) {
    assert.equal((await get(ctx, path, 'acme')).body, { tenant: 'acme' });
    assert.equal((await get(ctx, `${path}?tenant=acme`, 'acme')).body, { tenant: 'acme' });
    assert.equal((await get(ctx, `${path}?tenant=`, 'acme')).body, { tenant: 'acme' });
  }
});

test("token rule: another tenant needs tenant:cross AND the tenant in the client's allowed_access_tenants", async (ctx) => {
  const noScope = await get(ctx, '/t/token?tenant=beta', 'acme');
  assert.is(noScope.status, 403);
  assert.is(noScope.body.code, 'AUTH.TENANT_FORBIDDEN');
  assert.is(noScope.challenge, `Bearer error="insufficient_scope", scope="${CROSS_TENANT_SCOPE}"`);
  // listed for the client, but the token lacks the scope
  assert.is((await get(ctx, '/t/token?tenant=beta', 'acme-listed-noscope')).status, 403);
  assert.equal((await get(ctx, '/t/token?tenant=beta', 'acme-cross')).body, { tenant: 'beta' });
  const unlisted = await get(ctx, '/t/token?tenant=gamma', 'acme-cross');
  assert.is(unlisted.status, 403);
  assert.is(unlisted.body.code, 'AUTH.TENANT_FORBIDDEN');
  assert.is(unlisted.challenge, null);
  // the platform tenant gets nothing more where the route does not say so
  assert.is((await get(ctx, '/t/token?tenant=beta', 'platform')).status, 403);
});

test("admin rule: the platform tenant's admins name any tenant; others get TENANT.FORBIDDEN unless the token may cross", async (ctx) => {
  assert.equal((await get(ctx, '/t/admin?tenant=beta', 'platform')).body, { tenant: 'beta' });
  assert.equal((await get(ctx, '/t/admin?tenant=gamma', 'platform')).body, { tenant: 'gamma' });
  const tenantAdmin = await get(ctx, '/t/admin?tenant=beta', 'acme');
  assert.is(tenantAdmin.status, 403);
  assert.is(tenantAdmin.body.code, 'TENANT.FORBIDDEN');
  assert.equal(tenantAdmin.body.details, { tenant: 'beta' });
  assert.equal((await get(ctx, '/t/admin?tenant=beta', 'acme-cross')).body, { tenant: 'beta' });
  assert.is((await get(ctx, '/t/admin?tenant=gamma', 'acme-cross')).body.code, 'TENANT.FORBIDDEN');
});

test('a repeated parameter is not a tenant (403 on both rules)', async (ctx) => {
  assert.is((await get(ctx, '/t/token?tenant=beta&tenant=acme', 'acme-cross')).status, 403);
  assert.is((await get(ctx, '/t/admin?tenant=beta&tenant=acme', 'platform')).status, 403);
});

test('mayActOn and isPlatformAdmin answer what targetTenant decides; the command context names the actor with its own tenant', async (ctx) => {
  const acme = await get(ctx, '/t/checks?other=beta', 'acme-cross');
  assert.equal(acme.body, {
    platformAdmin: false,
    token: true,
    admin: true,
    context: {
      tenant: 'acme',
      actor: 'acme-admin@acme',
      correlationId: (acme.body.context as { correlationId: string }).correlationId,
      causationId: (acme.body.context as { causationId: string }).causationId,
    },
  });
  const platform = await get(ctx, '/t/checks?other=beta&tenant=beta', 'platform');
  assert.is(platform.body.platformAdmin, true);
  assert.is(platform.body.token, false);
  assert.is(platform.body.admin, true);
  assert.equal(
    [(platform.body.context as { tenant: string }).tenant, (platform.body.context as { actor: string }).actor],
    ['beta', 'platform-admin@platform'],
  );
});

test('no router reads the access context around the rule: res.locals.auth appears in http/core/tenancy.ts only', () => {
  const root = join(import.meta.dirname, '..', '..', '..');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [relative(root, p)] : [];
    });
  const http = files(join(root, 'http'));
  assert.ok(http.includes('http/core/tenancy.ts'));
  const readers = http.filter((f) => readFileSync(join(root, f), 'utf8').includes('locals.auth'));
  assert.equal(readers, ['http/core/tenancy.ts']);
});

test.run();
