// The platform tenant token: client_credentials with the configured client, cached until expires_in minus
// the margin, shared by concurrent callers, refetched after invalidate; none without credentials; errors
// retryable unless the credentials are refused. Without a configured client, minted for the tenant
// (the identity provider's machine client), cached the same way; a configured client wins.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type HubSettings, TenantTokenError } from '../../../commands/hub/hub.contracts.ts';
import { createTenantTokenCache } from '../../../commands/hub/tenant-token.cache.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { HttpClient, HttpRequest } from '../../../infra/core/http-client.port.ts';

const calls: HttpRequest[] = [];
let answer = { status: 200, body: '{"access_token":"t1","token_type":"Bearer","expires_in":120}' };
const http: HttpClient = {
  async send(r) {
    calls.push(r);
    await new Promise((x) => setTimeout(x, 5));
    return { status: answer.status, headers: {}, body: answer.body };
  },
};
const values: Record<string, string | undefined> = {
  'comm-hub.auth.client-id': 'hub client',
  'comm-hub.auth.client-secret': 's3cret:+',
};
const settings: HubSettings = { get: async (tenant, key) => (tenant === 'none' ? undefined : values[key]) };
const clock = manualClock('2026-01-01T00:00:00Z');
const cache = createTenantTokenCache({ http, clock, settings, tokenUrl: 'https://idp.example/cas/oidc/token' });

test('client_credentials with client_secret_basic (form-encoded id and secret); concurrent callers share one fetch', async () => {
  const [a, b] = await Promise.all([cache.token('acme'), cache.token('acme')]);
  assert.equal([a, b], ['t1', 't1']);
  assert.is(calls.length, 1);
  assert.is(calls[0]!.body, 'grant_type=client_credentials');
  assert.is(calls[0]!.headers!.authorization, `Basic ${Buffer.from('hub+client:s3cret%3A%2B').toString('base64')}`);
});

test('cached until expires_in minus the margin (30 s); invalidate drops it', async () => {
  answer = { status: 200, body: '{"access_token":"t2","expires_in":120}' };
  clock.advance(89_000);
  assert.is(await cache.token('acme'), 't1');
  clock.advance(1000);
  assert.is(await cache.token('acme'), 't2');
  answer = { status: 200, body: '{"access_token":"t3","expires_in":120}' };
  cache.invalidate('acme', 't2');
  assert.is(await cache.token('acme'), 't3');
});

test('no credentials configured: no token; refused credentials are not retryable, an unreachable endpoint is', async () => {
  assert.is(await cache.token('none'), undefined);
  answer = { status: 401, body: '{"error":"invalid_client"}' };
  const err = await cache.token('beta').catch((e: unknown) => e);
  assert.instance(err, TenantTokenError);
  assert.equal(
    [(err as TenantTokenError).retryable, (err as Error).message],
    [false, 'the token endpoint answered 401: invalid_client'],
  );
  answer = { status: 503, body: '' };
  assert.is(((await cache.token('gamma').catch((e: unknown) => e)) as TenantTokenError).retryable, true);
});

test('no client configured: the minted token of the tenant, cached until its expiresIn minus the margin; concurrent callers share one mint', async () => {
  const mints: string[] = [];
  let n = 0;
  const minted = createTenantTokenCache({
    http,
    clock,
    settings: { get: async () => undefined },
    tokenUrl: 'https://idp.example/cas/oidc/token',
    mint: async (tenant) => {
      mints.push(tenant);
      await new Promise((x) => setTimeout(x, 5));
      return tenant === 'nobody' ? undefined : { token: `${tenant}-m${++n}`, expiresIn: 120 };
    },
  });
  const before = calls.length;
  assert.equal(await Promise.all([minted.token('acme'), minted.token('acme')]), ['acme-m1', 'acme-m1']);
  assert.is(await minted.token('beta'), 'beta-m2', 'per tenant');
  clock.advance(89_000);
  assert.is(await minted.token('acme'), 'acme-m1');
  clock.advance(1000);
  assert.is(await minted.token('acme'), 'acme-m3');
  minted.invalidate('acme', 'acme-m3');
  assert.is(await minted.token('acme'), 'acme-m4');
  assert.is(await minted.token('nobody'), undefined, 'no machine client: no token');
  assert.equal(mints, ['acme', 'beta', 'acme', 'acme', 'nobody']);
  assert.is(calls.length, before, 'the token endpoint is not called');
});

test('a configured client wins over the minted token; a mint that fails is retryable', async () => {
  const config: Record<string, string | undefined> = {};
  answer = { status: 200, body: '{"access_token":"configured","expires_in":120}' };
  let fail = false;
  const both = createTenantTokenCache({
    http,
    clock,
    settings: { get: async (_tenant, key) => config[key] },
    tokenUrl: 'https://idp.example/cas/oidc/token',
    mint: async () => {
      if (fail) throw new Error('the store is down');
      return { token: 'minted', expiresIn: 120 };
    },
  });
  assert.is(await both.token('acme'), 'minted');
  Object.assign(config, values);
  assert.is(await both.token('acme'), 'configured', 'the configured client at once, the minted entry notwithstanding');
  Object.assign(config, { 'comm-hub.auth.client-id': undefined, 'comm-hub.auth.client-secret': undefined });
  fail = true;
  const err = await both.token('acme').catch((e: unknown) => e);
  assert.instance(err, TenantTokenError);
  assert.equal(
    [(err as TenantTokenError).retryable, (err as Error).message],
    [true, "the tenant's token could not be minted: the store is down"],
  );
});

test.run();
