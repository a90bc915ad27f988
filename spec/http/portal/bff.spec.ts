// The portal's backend-for-frontend over HTTP, against the whole platform: the sign-in's authorization
// request (PKCE S256, state, nonce), the callback's checks, returnTo, the API proxy's header, session and
// path rules, errors passed through unchanged, the sign-out, and the BFF's OpenAPI document.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUDIT_OPENAPI_PATH } from '../../../http/audit/audit.paths.ts';
import { BRIDGE_OPENAPI_PATH } from '../../../http/bridge/bridge.paths.ts';
import { HUB_OPENAPI_PATH } from '../../../http/hub/hub.paths.ts';
import { ADMIN_OPENAPI_PATH } from '../../../http/identity/identity.paths.ts';
import { sessionView } from '../../../http/portal/auth.router.ts';
import { PROXIED_API_BASES } from '../../../http/portal/portal.router.ts';
import { WORKFLOW_BASES, WORKFLOW_OPENAPI } from '../../../http/workflow/workflow.paths.ts';
import {
  ADMIN,
  CookieJar,
  type PortalPlatform,
  portalApi,
  portalSignIn,
  startPortalPlatform,
} from './portal-harness.ts';

let p: PortalPlatform;
const test = suite('portal backend-for-frontend');
test.before(async () => {
  p = await startPortalPlatform();
});
test.after(async () => {
  await p.stop();
});

const login = (query: Record<string, string>) =>
  fetch(`${p.base}/portal/auth/login?${new URLSearchParams(query)}`, { redirect: 'manual' });
const grantsRevoked = async () =>
  (await p.platform.stores.eventStore.readAll()).filter((e) => e.type === 'GrantRevoked');
const cookieLine = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

test('the sign-in sends the browser to the provider with PKCE S256, state and nonce, and keeps them in a sealed cookie', async () => {
  const res = await login({ tenant: ADMIN.tenant });
  assert.is(res.status, 302);
  const to = new URL(res.headers.get('location')!);
  assert.is(`${to.origin}${to.pathname}`, `${p.base}/cas/oidc/authorize`);
  const q = to.searchParams;
  assert.is(q.get('response_type'), 'code');
  assert.is(q.get('client_id'), 'portal.demo');
  assert.is(q.get('redirect_uri'), `${p.base}/portal/auth/callback`);
  assert.is(q.get('code_challenge_method'), 'S256');
  assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.match(q.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.match(q.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);
  const scopes = (q.get('scope') ?? '').split(' ');
  for (const s of ['openid', 'profile', 'email', 'identity:admin', 'bridge:admin']) assert.ok(scopes.includes(s), s);
  assert.not.ok(scopes.includes('tenant:cross'));
  const cookie = cookieLine(res, 'portal_login')!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\/portal\/auth/);
  // sealed: neither the state nor the verifier can be read from it
  assert.not.ok(cookie.includes(q.get('state')!));
  // each sign-in is its own
  const again = new URL((await login({ tenant: ADMIN.tenant })).headers.get('location')!);
  assert.is.not(again.searchParams.get('state'), q.get('state'));
});

test('a sign-in without a tenant is for the seeded tenant; an unknown tenant goes back to the sign-in page', async () => {
  const plain = await login({});
  assert.is(new URL(plain.headers.get('location')!).searchParams.get('client_id'), 'portal.demo');
  const unknown = await login({ tenant: 'nosuchtenant' });
  assert.is(unknown.status, 303);
  assert.is(unknown.headers.get('location'), '/portal/sign-in?error=unknown_tenant&tenant=nosuchtenant');
});

test('a returnTo that leaves the portal is refused', async () => {
  for (const returnTo of [
    '//evil.example/portal/',
    'https://evil.example/portal/',
    '/\\evil.example',
    '/cas/admin/v1/tenants',
    '/portal/auth/logout',
    '/portal/api/cas/admin/v1/users',
    'portal/',
  ]) {
    const res = await login({ tenant: ADMIN.tenant, returnTo });
    assert.is(res.status, 400, returnTo);
    assert.is(((await res.json()) as { code: string }).code, 'PORTAL.RETURN_TO_INVALID');
  }
});

test('a full sign-in lands on returnTo with an HttpOnly, SameSite=Strict session cookie; the session names the user and scopes', async () => {
  const { jar, callback } = await portalSignIn(p.base, { returnTo: '/portal/bridge/rules/r1?x=1' });
  assert.is(callback.status, 303);
  assert.is(callback.headers.get('location'), '/portal/bridge/rules/r1?x=1');
  const cookie = cookieLine(callback, 'portal_session')!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.match(cookie, /Path=\/portal(;|$)/);
  assert.not.match(cookie, /Secure/, 'plain http: no Secure flag');
  assert.match(cookieLine(callback, 'portal_login')!, /Max-Age=0/, 'the sign-in cookie is cleared');
  const session = await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: jar.header() } });
  assert.is(session.status, 200);
  assert.is(session.headers.get('cache-control'), 'no-store');
  const body = (await session.json()) as {
    tenant: string;
    user: { name: string; username: string };
    scopes: string[];
    platformAdmin: boolean;
    operator: boolean;
  };
  assert.is(body.tenant, 'demo');
  assert.is(body.user.username, 'admin');
  assert.is(body.user.name, 'Demo Administrator');
  assert.is(body.platformAdmin, false);
  assert.is(body.operator, true, 'the seed tenant is an operator tenant by default (OPS_OPERATOR_TENANTS)');
  for (const s of ['identity:admin', 'bridge:admin', 'audit:admin', 'workflow:admin', 'hub:admin'])
    assert.ok(body.scopes.includes(s), s);
  assert.not.ok(JSON.stringify(body).includes('eyJ'), 'no token in the answer');
});

test("the session answer's operator flag follows OPS_OPERATOR_TENANTS (the operations API's own list)", () => {
  const session = { id: 'h', tenant: 'demo', clientId: 'portal.demo', sub: 's', name: 'n', username: 'u', scopes: [] };
  const view = (operatorTenants: string[]) =>
    sessionView({ ...session, expiresAt: 0, accessExpiresAt: 0, tokens: {} as never }, operatorTenants);
  assert.is(view(['platform', 'demo']).operator, true);
  assert.is(view(['platform']).operator, false);
});

test('the callback refuses a wrong state, a missing sign-in cookie and a provider error, and starts no session', async () => {
  const jar = new CookieJar();
  const start = await login({ tenant: ADMIN.tenant });
  jar.store(start);
  const callback = (q: Record<string, string>, cookies = jar.header()) =>
    fetch(`${p.base}/portal/auth/callback?${new URLSearchParams(q)}`, {
      redirect: 'manual',
      headers: { cookie: cookies },
    });

  const wrong = await callback({ code: 'x'.repeat(43), state: 'not-the-state' });
  assert.is(wrong.status, 303);
  assert.is(wrong.headers.get('location'), '/portal/sign-in?error=state_mismatch&tenant=demo');
  assert.is(cookieLine(wrong, 'portal_session'), undefined);

  const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
  const noCookie = await callback({ code: 'x'.repeat(43), state }, '');
  assert.is(noCookie.headers.get('location'), '/portal/sign-in?error=login_expired');

  const tampered = await callback(
    { code: 'x'.repeat(43), state },
    `portal_login=${jar.cookies.get('portal_login')!.slice(0, -4)}AAAA`,
  );
  assert.is(tampered.headers.get('location'), '/portal/sign-in?error=login_expired');

  const otherIssuer = await callback({ code: 'x'.repeat(43), state, iss: 'https://evil.example' });
  assert.is(otherIssuer.headers.get('location'), '/portal/sign-in?error=issuer_mismatch&tenant=demo');

  const noIssuer = await callback({ code: 'x'.repeat(43), state });
  assert.is(noIssuer.headers.get('location'), '/portal/sign-in?error=issuer_mismatch&tenant=demo', 'iss is required');

  const refused = await callback({ error: 'access_denied', state, iss: p.base });
  assert.is(refused.headers.get('location'), '/portal/sign-in?error=provider_refused&tenant=demo&detail=access_denied');

  const badCode = await callback({ code: 'x'.repeat(43), state, iss: p.base });
  assert.is(badCode.headers.get('location'), '/portal/sign-in?error=token_refused&tenant=demo');
  assert.is(cookieLine(badCode, 'portal_session'), undefined);
});

test('the API proxy needs the portal header and a session, and passes on only the API paths', async () => {
  const { jar } = await portalSignIn(p.base);
  const noHeader = await fetch(`${p.base}/portal/api/cas/admin/v1/tenants`, { headers: { cookie: jar.header() } });
  assert.is(noHeader.status, 403);
  assert.is(((await noHeader.json()) as { code: string }).code, 'PORTAL.HEADER_REQUIRED');

  const noSession = await fetch(`${p.base}/portal/api/cas/admin/v1/tenants`, { headers: { 'x-portal': '1' } });
  assert.is(noSession.status, 401);
  assert.is(((await noSession.json()) as { code: string }).code, 'PORTAL.NO_SESSION');
  const forged = await fetch(`${p.base}/portal/api/cas/admin/v1/tenants`, {
    headers: { 'x-portal': '1', cookie: `portal_session=${'A'.repeat(43)}` },
  });
  assert.is(forged.status, 401);

  const ok = await portalApi(p.base, jar, '/cas/admin/v1/tenants');
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('cache-control'), 'no-store');
  assert.equal(
    ((await ok.json()) as { items: Array<{ code: string }> }).items.map((t) => t.code),
    ['demo'],
  );

  for (const path of [
    '/cas/oidc/token',
    '/cas/oidc/userinfo',
    '/health/ready',
    '/metrics',
    '/portal/auth/session',
    '/cas/admin/v1/%2e%2e/%2e%2e/oidc/jwks',
  ]) {
    const res = await portalApi(p.base, jar, path);
    assert.is(res.status, 404, path);
    assert.is(((await res.json()) as { code: string }).code, 'PORTAL.NOT_PROXIED', path);
  }
});

test("the API's errors reach the browser unchanged: code, message and details", async () => {
  const { jar } = await portalSignIn(p.base);
  const missing = await portalApi(p.base, jar, '/cas/admin/v1/users/no-such-user');
  assert.is(missing.status, 404);
  const m = (await missing.json()) as { code: string; message: string };
  assert.is(m.code, 'USER.NOT_FOUND');

  const invalid = await portalApi(p.base, jar, '/cas/admin/v1/users', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: '', name: 'x', surprise: 1 }),
  });
  assert.is(invalid.status, 400);
  const body = (await invalid.json()) as { code: string; details: Array<{ field: string }> };
  assert.is(body.code, 'REQUEST.INVALID');
  assert.ok(
    body.details.some((d) => d.field === 'surprise'),
    JSON.stringify(body.details),
  );
});

test('what the API refuses a user stays refused through the portal: a bridge-only user cannot use the identity admin API', async () => {
  const admin = await portalSignIn(p.base);
  const created = await portalApi(p.base, admin.jar, '/cas/admin/v1/users', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'bff-bridge',
      password: 'bridge only password',
      name: 'Bridge Only',
      roles: ['bridge:admin'],
    }),
  });
  assert.is(created.status, 201);
  const { jar } = await portalSignIn(p.base, { username: 'bff-bridge', password: 'bridge only password' });
  const session = (await (
    await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: jar.header() } })
  ).json()) as { scopes: string[] };
  assert.equal(
    session.scopes.filter((s) => s.includes(':')),
    ['bridge:admin'],
  );
  const refused = await portalApi(p.base, jar, '/cas/admin/v1/tenants');
  assert.is(refused.status, 403);
  assert.is(((await refused.json()) as { code: string }).code, 'AUTH.INSUFFICIENT_SCOPE');
  assert.is((await portalApi(p.base, jar, '/api/platform/platform-pub/eventBridge/admin/v1/buses')).status, 200);
});

test('a new sign-in in the same browser ends the session it had', async () => {
  const { jar } = await portalSignIn(p.base);
  const first = jar.header();
  await portalSignIn(p.base, { jar });
  assert.is.not(jar.header(), first, 'a new session cookie');
  assert.is((await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: jar.header() } })).status, 200);
  assert.is(
    (await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: first } })).status,
    401,
    'the previous session is gone, even for a kept cookie',
  );
});

test('sign-out needs the header, ends the session, and answers the provider end-session URL that ends its session too', async () => {
  const { jar } = await portalSignIn(p.base);
  const noHeader = await fetch(`${p.base}/portal/auth/logout`, { method: 'POST', headers: { cookie: jar.header() } });
  assert.is(noHeader.status, 403);
  assert.is(
    (await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: jar.header() } })).status,
    200,
    'still signed in',
  );

  const revokedBefore = await grantsRevoked();
  const out = await fetch(`${p.base}/portal/auth/logout`, {
    method: 'POST',
    headers: { cookie: jar.header(), 'x-portal': '1' },
  });
  assert.is(out.status, 200);
  // the provider took the revocation: the session's grant (its refresh token and access tokens) is revoked
  const revoked = (await grantsRevoked()).slice(revokedBefore.length);
  assert.is(revoked.length, 1, 'one grant revoked by the sign-out');
  const [started] = await p.platform.stores.eventStore.readStream(revoked[0]!.stream);
  assert.is((started!.data as { clientId: string }).clientId, 'portal.demo', "the portal's grant");
  assert.match(cookieLine(out, 'portal_session')!, /Max-Age=0/);
  const to = new URL(((await out.json()) as { redirectTo: string }).redirectTo);
  assert.is(`${to.origin}${to.pathname}`, `${p.base}/cas/oidc/logout`);
  assert.is(to.searchParams.get('post_logout_redirect_uri'), `${p.base}/portal/`);
  assert.is(to.searchParams.get('client_id'), 'portal.demo');
  assert.match(to.searchParams.get('id_token_hint') ?? '', /^eyJ/);
  const oldCookie = jar.header();
  jar.store(out);
  assert.is(
    (await fetch(`${p.base}/portal/auth/session`, { headers: { cookie: oldCookie } })).status,
    401,
    'the session is gone, even for a kept cookie',
  );
  assert.is(
    (await portalApi(p.base, new CookieJar(), '/cas/admin/v1/tenants', { headers: { cookie: oldCookie } })).status,
    401,
  );

  // the provider's end-session endpoint ends its own session and comes back to the portal
  const end = await fetch(to, { redirect: 'manual', headers: { cookie: jar.header() } });
  assert.is(end.status, 302);
  assert.is(end.headers.get('location'), `${p.base}/portal/`);
  jar.store(end);
  assert.not.ok(jar.cookies.has('platform_session'), "the provider's session cookie is cleared");
  // and a new sign-in meets the login form again
  const again = await login({ tenant: ADMIN.tenant });
  const form = await fetch(again.headers.get('location')!, { redirect: 'manual', headers: { cookie: jar.header() } });
  assert.is(form.status, 200);
  assert.match(await form.text(), /name="password"/);

  const outAgain = await fetch(`${p.base}/portal/auth/logout`, { method: 'POST', headers: { 'x-portal': '1' } });
  assert.is(
    ((await outAgain.json()) as { redirectTo: string }).redirectTo,
    '/portal/sign-in',
    'without a session: back to the sign-in',
  );
});

test('the proxy reaches every operation of the services: each OpenAPI path starts with a proxied base', async () => {
  const documents = [
    ADMIN_OPENAPI_PATH,
    BRIDGE_OPENAPI_PATH,
    AUDIT_OPENAPI_PATH,
    `${WORKFLOW_BASES[0]}${WORKFLOW_OPENAPI}`,
    HUB_OPENAPI_PATH,
  ];
  const outside: string[] = [];
  for (const d of documents) {
    const doc = (await (await fetch(`${p.base}${d}`)).json()) as { paths: Record<string, unknown> };
    for (const path of Object.keys(doc.paths))
      if (!PROXIED_API_BASES.some((b) => path.toLowerCase().startsWith(b.toLowerCase()))) outside.push(path);
  }
  assert.equal(outside, []);
});

test("the BFF's OpenAPI document lists its endpoints", async () => {
  const doc = (await (await fetch(`${p.base}/portal/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  assert.equal(Object.keys(doc.paths).sort(), [
    '/portal/auth/callback',
    '/portal/auth/login',
    '/portal/auth/logout',
    '/portal/auth/session',
  ]);
});

test.run();

const without = suite('platform start --services without portal');
let q: PortalPlatform;
without.before(async () => {
  q = await startPortalPlatform({ services: ['identity', 'bridge'] });
});
without.after(async () => {
  await q.stop();
});
without('/portal and its backend answer the JSON 404', async () => {
  for (const path of ['/portal', '/portal/', '/portal/bridge', '/portal/auth/login', '/portal/auth/session']) {
    const res = await fetch(`${q.base}${path}`, { redirect: 'manual' });
    assert.is(res.status, 404, path);
    assert.is(((await res.json()) as { code: string }).code, 'ROUTE.NOT_FOUND', path);
  }
});
without.run();
