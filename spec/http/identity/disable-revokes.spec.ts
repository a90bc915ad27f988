// Disabling a user or a client revokes what was issued to it, at once, in every process,
// as a new user meets it over HTTP: the whole platform on a loopback port (identity-harness.ts), a second
// process on the same stores, the admin API to disable and enable.
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type RunningPlatform, startPlatform } from '../../../infra/main.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';
import { type CookieJar, type IdentityPlatform, SEED, signIn, startIdentityPlatform } from './identity-harness.ts';

const REDIRECT = 'https://rp.example/callback';
const ctx: IdentityPlatform = await startIdentityPlatform({ redirectUri: REDIRECT });
const base = ctx.base;
const test = suite('disabling revokes');

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const demoBasic = basic(SEED.clientId, SEED.clientSecret);

async function form(url: string, fields: Record<string, string>, authorization?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization !== undefined && { authorization }),
    },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
}

async function clientToken(authorization: string, scope: string): Promise<string> {
  const r = await form(`${base}/cas/oidc/token`, { grant_type: 'client_credentials', scope }, authorization);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.access_token as string;
}

const admin = await clientToken(demoBasic, 'identity:admin');

async function adminCall(method: string, pathName: string, body?: unknown) {
  const res = await fetch(`${base}/cas/admin/v1${pathName}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
}

/** what a resource server, a relying party and an introspecting client each say about a token */
async function verdicts(token: string, at = base) {
  const bearer = { authorization: `Bearer ${token}` };
  const validate = (await fetch(`${at}/cas/validate-token`, { headers: bearer })).status;
  const userinfo = (await fetch(`${at}/cas/oidc/userinfo`, { headers: bearer })).status;
  // a bearer-protected route of the platform (the middleware every service uses)
  const bearerRoute = (await fetch(`${at}/cas/exchange-code/get`, { method: 'POST', headers: bearer })).status;
  const introspection = await form(`${at}/cas/oidc/introspect`, { token }, demoBasic);
  return { validate, userinfo, bearerRoute, active: introspection.body.active as boolean };
}
const ACCEPTED = { validate: 200, userinfo: 200, bearerRoute: 200, active: true };
const REFUSED = { validate: 401, userinfo: 401, bearerRoute: 401, active: false };

/** a user signs in with the confidential demo client: tokens and the browser's session */
async function userSignIn(
  username: string,
  password: string,
): Promise<{ access: string; refresh: string; jar: CookieJar }> {
  const url = `${base}/cas/oidc/authorize?${new URLSearchParams({ client_id: SEED.clientId, response_type: 'code', scope: 'openid profile', redirect_uri: REDIRECT, state: 's' })}`;
  const { response, jar } = await signIn(url, username, password);
  assert.is(response.status, 302);
  const code = new URL(response.headers.get('location')!).searchParams.get('code')!;
  const r = await form(
    `${base}/cas/oidc/token`,
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
    demoBasic,
  );
  assert.is(r.status, 200, JSON.stringify(r.body));
  return { access: r.body.access_token, refresh: r.body.refresh_token, jar };
}

/** does the session still sign the user in without the form? (302 with a code, else the form) */
async function sessionSignsIn(jar: CookieJar): Promise<boolean> {
  const url = `${base}/cas/oidc/authorize?${new URLSearchParams({ client_id: SEED.clientId, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT, state: 's2' })}`;
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  return res.status === 302 && new URL(res.headers.get('location')!).searchParams.has('code');
}

let second: RunningPlatform | undefined;

test.after(async () => {
  await second?.stop();
  await ctx.stop();
});

test('disabling a user: its tokens, refresh token and session stop working at once, and stay revoked after enabling', async () => {
  const created = await adminCall('POST', '/users', { username: 'bob', password: 'bob password 123', name: 'Bob' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const bob = await userSignIn('bob', 'bob password 123');
  assert.equal(await verdicts(bob.access), ACCEPTED);
  assert.ok(await sessionSignsIn(bob.jar), 'the session signs bob in without the form');

  assert.is((await adminCall('POST', `/users/${created.body.user_id}/disable`)).status, 200);
  assert.equal(await verdicts(bob.access), REFUSED, 'refused by the very next requests');
  const refreshed = await form(
    `${base}/cas/oidc/token`,
    { grant_type: 'refresh_token', refresh_token: bob.refresh },
    demoBasic,
  );
  assert.is(refreshed.status, 400);
  assert.is(refreshed.body.error, 'invalid_grant');
  assert.not.ok(await sessionSignsIn(bob.jar), 'the session is over');

  assert.is((await adminCall('POST', `/users/${created.body.user_id}/enable`)).status, 200);
  ctx.clock.advance(2000); // token times are whole seconds: the second of the disabling is covered too
  assert.equal(await verdicts(bob.access), REFUSED, 'enabling again does not bring old tokens back');
  assert.is(
    (await form(`${base}/cas/oidc/introspect`, { token: bob.refresh }, demoBasic)).body.active,
    false,
    'nor the refresh token',
  );
  assert.not.ok(await sessionSignsIn(bob.jar), 'nor the session');
  const again = await userSignIn('bob', 'bob password 123');
  assert.equal(await verdicts(again.access), ACCEPTED, 'what is issued after the enabling works');
});

test('disabling a client revokes every token issued to it (client_credentials tokens included, never recorded)', async () => {
  const reg = await adminCall('POST', '/clients', {
    grant_type: 'client_credentials',
    default_user: 'demo-service',
    scopes: ['openid'],
  });
  assert.is(reg.status, 201, JSON.stringify(reg.body));
  const auth = basic(reg.body.client_id, reg.body.client_secret);
  const token = await clientToken(auth, 'openid');
  const before = await verdicts(token);
  assert.is(before.validate, 200);
  assert.is(before.bearerRoute, 200);
  assert.is(before.active, true);
  const untouched = await clientToken(demoBasic, 'openid');

  assert.is((await adminCall('POST', `/clients/${reg.body.client_id}/disable`)).status, 200);
  const after = await verdicts(token);
  assert.is(after.validate, 401);
  assert.is(after.bearerRoute, 401);
  assert.is(after.active, false);
  assert.is((await verdicts(untouched)).validate, 200, 'another client of the same machine user keeps its token');

  assert.is((await adminCall('POST', `/clients/${reg.body.client_id}/enable`)).status, 200);
  ctx.clock.advance(2000);
  assert.is((await verdicts(token)).validate, 401, 'still revoked');
  assert.is((await verdicts(await clientToken(auth, 'openid'))).validate, 200, 'a new token works');
});

test('in every process: another process on the same stores refuses them too, also one started afterwards', async () => {
  const openSecond = async () => {
    const eventStore = createSqliteEventStore({ file: path.join(ctx.config.dataDir, 'events.sqlite') });
    const readStore = createSqliteReadStore({ file: path.join(ctx.config.dataDir, 'read-models.sqlite') });
    return startPlatform({
      // the same issuer: the second process serves the same platform behind another port
      config: { ...ctx.config, publicBaseUrl: base },
      log: pino({ level: 'silent' }),
      clock: ctx.clock,
      services: ['identity'],
      workers: false,
      stores: {
        eventStore,
        readStore,
        kinds: { eventStore: 'sqlite', readStore: 'sqlite' },
        async close() {
          await eventStore.close();
          await readStore.close();
        },
      },
    });
  };
  second = await openSecond();
  const other = second.url;
  const created = await adminCall('POST', '/users', {
    username: 'carol',
    password: 'carol password 123',
    name: 'Carol',
  });
  const carol = await userSignIn('carol', 'carol password 123');
  assert.is((await verdicts(carol.access, other)).validate, 200);

  assert.is((await adminCall('POST', `/users/${created.body.user_id}/disable`)).status, 200);
  // the other process learns it from the log (one page of its log reader): no restart, no cache to wait out
  await eventually(
    async () => (await verdicts(carol.access, other)).validate === 401,
    'the other process refuses the token',
  );
  assert.equal(await verdicts(carol.access, other), REFUSED);

  // a process started after the disabling answers from the read model until its memory has caught up
  await second.stop();
  second = await openSecond();
  assert.equal(await verdicts(carol.access, second.url), REFUSED);
});

test.run();
