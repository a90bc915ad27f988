// The OAuth client-credentials token cache: POST against this platform's own identity provider (a client
// registered with client_credentials, client_secret_basic and client_secret_post), GET against a small real
// token server (our token endpoint takes POST only, as RFC 6749 requires). Expiry with a manual clock;
// concurrent callers share one fetch.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createOAuthTokenCache,
  isOAuthTokenError,
  type OAuthClientCredentials,
} from '../../../commands/bridge/oauth-token.cache.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { HttpClient } from '../../../infra/core/http-client.port.ts';
import { eventually } from '../../core/eventually.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../../http/identity/identity-harness.ts';
import { loopbackHttpClient as createHttpClient } from '../../infra/net/loopback-client.ts';

// characters that must survive the form encoding of client_secret_basic (RFC 6749 2.3.1)
const CLIENT_SECRET = 'bridge secret+with:special/chars&=%';
let idp: IdentityPlatform;

/** an HttpClient that counts what goes through it */
function counting(inner: HttpClient) {
  const requests: Array<{ method: string; url: string }> = [];
  return {
    requests,
    http: { send: (r) => (requests.push({ method: r.method, url: r.url }), inner.send(r)) } as HttpClient,
  };
}

/** the small token server for GET: records each request, answers what `answer` says */
type Seen = { method: string; query: Record<string, string>; body: Record<string, string>; authorization?: string };
function tokenServer() {
  const seen: Seen[] = [];
  let answer: (n: number) => { status: number; body: unknown } = (n) => ({
    status: 200,
    body: { access_token: `tok-${n}`, token_type: 'Bearer', expires_in: 120 },
  });
  let hold: Promise<void> = Promise.resolve();
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.all('/token', async (req, res) => {
    seen.push({
      method: req.method,
      query: { ...(req.query as Record<string, string>) },
      body: { ...((req.body ?? {}) as Record<string, string>) },
      ...(req.headers.authorization !== undefined && { authorization: req.headers.authorization }),
    });
    const n = seen.length;
    await hold;
    const a = answer(n);
    res.status(a.status).json(a.body);
  });
  const server: Server = createServer(app);
  return {
    seen,
    setAnswer: (f: typeof answer) => void (answer = f),
    setHold: (p: Promise<void>) => void (hold = p),
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const test = suite('OAuth client-credentials token cache');
const server = tokenServer();
let getUrl = '';

test.before(async () => {
  idp = await startIdentityPlatform({ redirectUri: 'http://127.0.0.1/callback' });
  const sys = { tenant: 'platform', actor: 'spec' };
  await idp.commands.createTenant({ name: 'ACME' }, forTenant(sys, 'acme'), 'spec/tenant/acme');
  await idp.commands.registerUser(
    { username: 'bridge-out', name: 'outbound' },
    { ...sys, tenant: 'acme' },
    'spec/user',
  );
  await idp.commands.registerClient(
    {
      clientId: 'acme-outbound',
      grantTypes: ['client_credentials'],
      defaultUser: 'bridge-out',
      scopes: ['claims:write'],
      clientSecret: CLIENT_SECRET,
    },
    { ...sys, tenant: 'acme' },
    'spec/client',
  );
  getUrl = await server.start();
});
test.after(async () => {
  await server.close();
  await idp.stop();
});

const ourIdp = (o: Partial<OAuthClientCredentials> = {}): OAuthClientCredentials => ({
  kind: 'OAUTH_CLIENT_CREDENTIALS',
  tokenUrl: `${idp.base}/cas/oidc/token`,
  clientId: 'acme-outbound',
  clientSecret: CLIENT_SECRET,
  method: 'POST',
  clientAuth: 'client_secret_basic',
  scope: 'claims:write',
  ...o,
});

async function validate(token: string) {
  idp.syncClock();
  const res = await fetch(`${idp.base}/cas/validate-token`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: res.status,
    body: (await res.json()) as { active?: boolean; client_id?: string; tenant?: string; scope?: string },
  };
}

test('POST with client_secret_basic to our identity provider: a token it accepts', async () => {
  idp.syncClock();
  const { http, requests } = counting(createHttpClient());
  const cache = createOAuthTokenCache({ http, clock: manualClock() });
  const token = await cache.token({ tenant: 'acme', connection: 'idp', revision: 0 }, ourIdp());
  assert.equal(
    requests.map((r) => r.method),
    ['POST'],
  );
  const v = await validate(token);
  assert.is(v.status, 200, JSON.stringify(v.body));
  assert.is(v.body.client_id, 'acme-outbound');
  assert.is(v.body.tenant, 'acme');
  assert.match(v.body.scope ?? '', /claims:write/);
});

test('POST with client_secret_post to our identity provider', async () => {
  idp.syncClock();
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  const token = await cache.token(
    { tenant: 'acme', connection: 'idp-post', revision: 0 },
    ourIdp({ clientAuth: 'client_secret_post' }),
  );
  assert.is((await validate(token)).body.client_id, 'acme-outbound');
});

test('a wrong secret: not retryable, the status and RFC 6749 error named, the secret never', async () => {
  idp.syncClock();
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  try {
    await cache.token(
      { tenant: 'acme', connection: 'bad', revision: 0 },
      ourIdp({ clientSecret: 'wrong-secret-value' }),
    );
    assert.unreachable();
  } catch (err) {
    assert.ok(isOAuthTokenError(err), String(err));
    assert.is(err.retryable, false);
    assert.is(err.httpStatus, 401);
    assert.match(err.message, /invalid_client/);
    assert.not.match(err.message, /wrong-secret-value/);
  }
});

test('our token endpoint refuses GET (RFC 6749 3.2): the GET method is for token services that take it', async () => {
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  try {
    await cache.token({ tenant: 'acme', connection: 'idp-get', revision: 0 }, ourIdp({ method: 'GET' }));
    assert.unreachable();
  } catch (err) {
    assert.ok(isOAuthTokenError(err) && !err.retryable, String(err));
  }
});

const getConfig = (o: Partial<OAuthClientCredentials> = {}): OAuthClientCredentials => ({
  kind: 'OAUTH_CLIENT_CREDENTIALS',
  tokenUrl: getUrl,
  clientId: 'client one',
  clientSecret: CLIENT_SECRET,
  method: 'GET',
  clientAuth: 'client_secret_basic',
  scope: 'a b',
  audience: 'https://api.example',
  params: { resource: 'claims' },
  ...o,
});

test('GET: the grant in the query string, Basic credentials form-encoded', async () => {
  server.seen.length = 0;
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  assert.is(await cache.token({ tenant: 'acme', connection: 'get', revision: 0 }, getConfig()), 'tok-1');
  const [s] = server.seen;
  assert.is(s?.method, 'GET');
  assert.equal(s?.query, {
    grant_type: 'client_credentials',
    scope: 'a b',
    audience: 'https://api.example',
    resource: 'claims',
  });
  const decoded = Buffer.from(s!.authorization!.replace(/^Basic /, ''), 'base64').toString('utf8');
  const formDecode = (x: string) => decodeURIComponent(x.replace(/\+/g, ' '));
  // one colon only: the one inside the secret is encoded
  assert.is(decoded.split(':').length, 2);
  assert.is(formDecode(decoded.slice(0, decoded.indexOf(':'))), 'client one');
  assert.is(formDecode(decoded.slice(decoded.indexOf(':') + 1)), CLIENT_SECRET);
  // client_secret_post with GET: the credentials among the query parameters
  const post = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  await post.token(
    { tenant: 'acme', connection: 'get-post', revision: 0 },
    getConfig({ clientAuth: 'client_secret_post' }),
  );
  const last = server.seen[server.seen.length - 1]!;
  assert.is(last.authorization, undefined);
  assert.is(last.query.client_id, 'client one');
  assert.is(last.query.client_secret, CLIENT_SECRET);
});

test('cached until expires_in minus the margin (manual clock), per connection and revision', async () => {
  server.seen.length = 0;
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock });
  const key = { tenant: 'acme', connection: 'cached', revision: 3 };
  assert.is(await cache.token(key, getConfig()), 'tok-1');
  assert.is(await cache.token(key, getConfig()), 'tok-1');
  clock.advance((120 - 30 - 1) * 1000); // expires_in 120, margin 30: still good one second before
  assert.is(await cache.token(key, getConfig()), 'tok-1');
  assert.is(server.seen.length, 1);
  clock.advance(2000);
  assert.is(await cache.token(key, getConfig()), 'tok-2');
  assert.is(server.seen.length, 2);
  // another connection, or the same one changed (new revision): its own token
  assert.is(await cache.token({ ...key, connection: 'other' }, getConfig()), 'tok-3');
  assert.is(await cache.token({ ...key, revision: 4 }, getConfig()), 'tok-4');
  assert.is(await cache.token({ ...key, revision: 4 }, getConfig()), 'tok-4');
  // a 401 drops only the token that was refused
  cache.invalidate(key, 'tok-unrelated');
  assert.is(await cache.token({ ...key, revision: 4 }, getConfig()), 'tok-4');
  cache.invalidate(key, 'tok-4');
  assert.is(await cache.token({ ...key, revision: 4 }, getConfig()), 'tok-5');
  assert.is(server.seen.length, 5);
});

test('concurrent callers share one fetch', async () => {
  server.seen.length = 0;
  let release!: () => void;
  server.setHold(new Promise<void>((r) => (release = r)));
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  const key = { tenant: 'acme', connection: 'concurrent', revision: 0 };
  const calls = Array.from({ length: 8 }, () => cache.token(key, getConfig()));
  // every caller is waiting on the one request the server holds
  await eventually(() => server.seen.length > 0, 'the server holds the one request');
  release();
  const tokens = await Promise.all(calls);
  server.setHold(Promise.resolve());
  assert.equal(new Set(tokens), new Set(['tok-1']));
  assert.is(server.seen.length, 1);
});

test('token endpoint failures: 503 and unreachable are retryable, 400 is not; nothing is cached', async () => {
  server.seen.length = 0;
  const cache = createOAuthTokenCache({ http: createHttpClient(), clock: manualClock() });
  const key = { tenant: 'acme', connection: 'failing', revision: 0 };
  server.setAnswer(() => ({ status: 503, body: { error: 'temporarily_unavailable' } }));
  await cache.token(key, getConfig()).then(
    () => assert.unreachable(),
    (err: unknown) => assert.ok(isOAuthTokenError(err) && err.retryable && err.httpStatus === 503, String(err)),
  );
  server.setAnswer(() => ({ status: 400, body: { error: 'invalid_scope', error_description: 'no such scope' } }));
  await cache.token(key, getConfig()).then(
    () => assert.unreachable(),
    (err: unknown) =>
      assert.ok(
        isOAuthTokenError(err) && !err.retryable && /invalid_scope \(no such scope\)/.test(err.message),
        String(err),
      ),
  );
  server.setAnswer(() => ({ status: 200, body: { token_type: 'Bearer' } }));
  await cache.token(key, getConfig()).then(
    () => assert.unreachable(),
    (err: unknown) => assert.ok(isOAuthTokenError(err) && /without an access_token/.test(err.message), String(err)),
  );
  server.setAnswer((n) => ({ status: 200, body: { access_token: `tok-${n}`, token_type: 'Bearer', expires_in: 120 } }));
  assert.is(await cache.token(key, getConfig()), 'tok-4');
  await cache.token({ ...key, connection: 'unreachable' }, getConfig({ tokenUrl: 'http://127.0.0.1:9/token' })).then(
    () => assert.unreachable(),
    (err: unknown) => assert.ok(isOAuthTokenError(err) && err.retryable, String(err)),
  );
});

test.run();
