// The token endpoint's error mapping, with fakes behind it: whatever fails, the answer is RFC 6749 5.2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OAuthError } from '../../../commands/identity/oauth.error.ts';
import type { Client } from '../../../domain/identity/model.ts';
import { createTokenEndpointRouter } from '../../../http/identity/token-endpoint.router.ts';
import { StoreUnavailableError } from '../../../infra/core/store-errors.ts';
import { looksLikeStack, startTestApp } from '../core/harness.ts';

const client: Client = {
  clientId: 'svc',
  tenant: 'acme',
  redirectUris: [],
  postLogoutRedirectUris: [],
  grantTypes: ['client_credentials'],
  authMethod: 'client_secret_basic',
  defaultUser: 'machine',
  userSourceId: 'default',
  allowedAccessTenants: [],
  scopes: ['audit:read'],
  allowPlainPkce: false,
  status: 'active',
};
let failure: unknown;
const issued: unknown[] = [];
const router = createTokenEndpointRouter({
  directory: { getUser: async () => null, findUserByUsername: async () => null, verifyPassword: async () => false },
  tokens: {
    issue: async (input) => {
      if (failure !== undefined) throw failure;
      issued.push(input);
      return {
        access_token: 'at',
        token_type: 'Bearer',
        expires_in: 7200,
        scope: input.scopes.join(' '),
        grantId: 'g',
      };
    },
    refresh: async () => {
      throw new OAuthError('invalid_grant', 'unknown refresh token');
    },
  },
  codes: { redeem: async () => Promise.reject(new OAuthError('invalid_grant', 'invalid authorization code')) },
  authenticateClient: async (req) => {
    if (req.headers.authorization !== 'Basic ok')
      throw new OAuthError('invalid_client', 'client authentication failed', {
        headers: { 'WWW-Authenticate': 'Basic realm="platform"' },
      });
    return { client, method: 'client_secret_basic' };
  },
  limiter: {
    check: async () => ({ allowed: true }),
    recordFailure: async () => undefined,
    recordSuccess: async () => undefined,
  },
  clock: { now: () => new Date('2026-03-01T10:00:00Z') },
});
const app = await startTestApp({ routers: [{ service: 'identity', router }] });
test.after(() => app.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/cas/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic ok', ...headers },
    body,
  });

async function rfc6749(res: Response, status: number, error: string) {
  assert.is(res.status, status);
  assert.is(res.headers.get('cache-control'), 'no-store');
  const text = await res.text();
  assert.not.ok(looksLikeStack(text), text);
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.equal(Object.keys(body).sort(), ['error', 'error_description']);
  assert.is(body.error, error);
}

test('client_credentials: the default_user is the subject; scope defaults to openid profile email + the client scopes', async () => {
  issued.length = 0;
  const res = await post('grant_type=client_credentials');
  assert.is(res.status, 200);
  assert.is(res.headers.get('pragma'), 'no-cache');
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type'], 'no grantId leaks');
  assert.is(body.scope, 'openid profile email audit:read');
  assert.is((issued[0] as { subject: string }).subject, 'machine');
  assert.is((issued[0] as { refresh: boolean }).refresh, false);
});

test('an unknown failure is server_error 500; a store outage server_error 503 with Retry-After; never a stack', async () => {
  failure = new Error('boom at /work/main/secret.ts:12');
  await rfc6749(await post('grant_type=client_credentials'), 500, 'server_error');
  failure = new StoreUnavailableError('sqlite', 'disk gone');
  const res = await post('grant_type=client_credentials');
  assert.is(res.headers.get('retry-after'), '5');
  await rfc6749(res, 503, 'server_error');
  failure = undefined;
});

test('request errors: wrong content type, missing or repeated grant_type, unknown grant, unregistered grant', async () => {
  await rfc6749(
    await post('{"grant_type":"client_credentials"}', { 'content-type': 'application/json' }),
    400,
    'invalid_request',
  );
  await rfc6749(await post(''), 400, 'invalid_request');
  await rfc6749(await post('grant_type=client_credentials&grant_type=client_credentials'), 400, 'invalid_request');
  await rfc6749(await post('grant_type=urn:x'), 400, 'unsupported_grant_type');
  await rfc6749(await post('grant_type=password&username=a&password=b'), 400, 'unauthorized_client');
  await rfc6749(await post('grant_type=client_credentials&scope=openid%20identity:admin'), 400, 'invalid_scope');
});

test('client authentication failure: 401 with its challenge; GET: 405', async () => {
  const res = await post('grant_type=client_credentials', { authorization: 'Basic nope' });
  assert.is(res.headers.get('www-authenticate'), 'Basic realm="platform"');
  await rfc6749(res, 401, 'invalid_client');
  const get = await fetch(`${app.url}/cas/oidc/token`);
  assert.is(get.headers.get('allow'), 'POST');
  await rfc6749(get, 405, 'invalid_request');
});

test('CORS: browser apps may call the token endpoint (no cookies are involved)', async () => {
  const pre = await fetch(`${app.url}/cas/oidc/token`, {
    method: 'OPTIONS',
    headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' },
  });
  assert.is(pre.status, 204);
  assert.is(pre.headers.get('access-control-allow-origin'), '*');
  const res = await post('grant_type=client_credentials', {
    authorization: 'Basic nope',
    origin: 'https://spa.example',
  });
  assert.is(res.headers.get('access-control-allow-origin'), '*', 'errors too, so the app can read them');
});

test.run();
