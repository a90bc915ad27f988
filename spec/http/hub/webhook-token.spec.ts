// The platform tenant token on webhook calls out of the box: with no client configured (no HUB_CLIENT_ID,
// nothing in the configuration center) a send to a real receiver on loopback carries `Authorization:
// Bearer <jwt>` minted in-process for the tenant's machine client `hub-webhooks.<tenant>`: it verifies
// against the platform's JWKS (jose), names the message's tenant, and is reused across sends (the same jti
// and iat). Every tenant has that client: the seeded ones, and one created later through the admin API. A
// client configured in the configuration center wins.

import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HUB_WEBHOOK_SCOPE } from '../../../domain/hub/hub.scopes.ts';
import { BRIDGE_ADMIN_BASE } from '../../../http/bridge/bridge.paths.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let acme: Setup;
const OWN_SECRET = 'own-webhook-client-secret-0123';

test.before(async () => {
  // the harness configures HUB_CLIENT_ID / HUB_CLIENT_SECRET for the other specs: none here
  p = await startHubPlatform({ env: { HUB_CLIENT_ID: '', HUB_CLIENT_SECRET: '' } });
  rx = await startWebhookReceiver(() => 202);
  acme = await configure(p, 'acme', { receiverUrl: rx.url, preferencePolicy: 'BYPASS' });
  const spec = { tenant: 'platform', actor: 'spec' };
  // acme's own client for webhooks, and one of acme that may write its configuration; a platform administrator
  for (const [tenant, clientId, scopes] of [
    ['acme', 'acme-own-webhooks', []],
    ['acme', 'acme-config', ['bridge:admin']],
    ['platform', 'platform-tenants', ['identity:admin']],
  ] as const) {
    await p.commands.registerClient(
      {
        clientId,
        grantTypes: ['client_credentials'],
        defaultUser: 'hub-svc',
        scopes: [...scopes],
        clientSecret: OWN_SECRET,
      },
      { ...spec, tenant },
      `spec/client/${clientId}`,
    );
  }
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

const jwks = () => createRemoteJWKSet(new URL(`${p.base}/cas/oidc/jwks`));
const bearerOf = (auth: string | undefined) => {
  assert.ok(auth?.startsWith('Bearer '), `an Authorization bearer header: ${auth}`);
  return auth!.slice('Bearer '.length);
};
const verified = async (token: string): Promise<JWTPayload & { tenant?: string; client_id?: string; scope?: string }> =>
  (await jwtVerify(token, jwks(), { issuer: p.base, audience: p.base })).payload;

async function sendAndReceive(tenant: string, code: string) {
  const body = aSend(code);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token(tenant), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return p.eventually(
    async () => rx.received.find((s) => s.body.RequestId === body.RequestId),
    `the webhook of ${body.RequestId}`,
  );
}

async function clientToken(clientId: string, scope: string): Promise<string> {
  p.syncClock();
  const res = await fetch(`${p.base}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${OWN_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  const body = (await res.json()) as { access_token?: string };
  assert.is(res.status, 200, JSON.stringify(body));
  return body.access_token!;
}

test('no client configured: the webhook carries a token of the tenant minted for its machine client, verifiable with the JWKS, reused across sends', async () => {
  const first = await sendAndReceive('acme', acme.code);
  const token = bearerOf(first.headers.authorization);
  const claims = await verified(token);
  assert.equal(
    [claims.tenant, claims.client_id, claims.iss, claims.aud],
    ['acme', 'hub-webhooks.acme', p.base, p.base],
  );
  assert.ok(claims.scope!.split(' ').includes(HUB_WEBHOOK_SCOPE), claims.scope);
  assert.ok(
    !claims.scope!.split(' ').some((s) => ['hub:send', 'hub:admin', 'hub:operator'].includes(s)),
    "the token opens none of the hub's APIs",
  );

  const second = await verified(bearerOf((await sendAndReceive('acme', acme.code)).headers.authorization));
  assert.equal([second.jti, second.iat], [claims.jti, claims.iat], 'the cached token');

  const beta = await configure(p, 'beta', { receiverUrl: rx.url, preferencePolicy: 'BYPASS' });
  const other = await verified(bearerOf((await sendAndReceive('beta', beta.code)).headers.authorization));
  assert.equal([other.tenant, other.client_id], ['beta', 'hub-webhooks.beta'], "the message's tenant");
  assert.is.not(other.jti, claims.jti);
});

test('every tenant has the machine client: the seeded ones, and one created later through the admin API', async () => {
  const r = await p.call('POST', '/cas/admin/v1/tenants', {
    token: await clientToken('platform-tenants', 'identity:admin'),
    body: { code: 'gamma', name: 'Gamma' },
  });
  assert.is(r.status, 201, JSON.stringify(r.body));
  for (const tenant of ['platform', 'demo', 'acme', 'beta', 'gamma']) {
    // registered by the identity service's reactor on TenantCreated
    const client = await p.eventually(
      async () => (await p.platformDirectory.getClient(`hub-webhooks.${tenant}`)) ?? undefined,
      `hub-webhooks.${tenant}`,
    );
    assert.equal(
      [client.tenant, client.grantTypes, client.scopes, client.status],
      [tenant, ['client_credentials'], [HUB_WEBHOOK_SCOPE], 'active'],
    );
  }
  const identity = p.platform.services.find((s) => s.name === 'identity')!.identity!;
  const minted = await identity.tenantToken('gamma');
  assert.equal((await verified(minted!.token)).tenant, 'gamma');
});

test("a client configured in the tenant's configuration center wins over the machine client", async () => {
  const config = await clientToken('acme-config', 'bridge:admin');
  for (const [key, value, secret] of [
    ['comm-hub.auth.client-id', 'acme-own-webhooks', false],
    ['comm-hub.auth.client-secret', OWN_SECRET, true],
  ] as const) {
    const put = await p.call('PUT', `${BRIDGE_ADMIN_BASE}/config/${key}`, { token: config, body: { value, secret } });
    assert.ok(put.status < 300, `${key}: ${put.status} ${JSON.stringify(put.body)}`);
  }
  // each process keeps a configuration value 5 s (hub-settings.ts): past that on the manual clock
  p.advance(6000);
  const claims = await verified(bearerOf((await sendAndReceive('acme', acme.code)).headers.authorization));
  assert.equal([claims.tenant, claims.client_id], ['acme', 'acme-own-webhooks']);
});

test.run();
