// The portal backend's relying-party client against a provider on a loopback port: the ID token's checks
// (signature against the published keys, issuer, audience, algorithm, expiry, nonce, tenant), the keys'
// outage as a retryable failure, and the token endpoint's answers mapped to ProviderError.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ProviderError } from '../../../http/portal/portal.ports.ts';
import { portalClientKey } from '../../../infra/portal/portal-client.key.ts';
import { createProviderClient } from '../../../infra/portal/provider.client.ts';

const test = suite('portal provider client');
const CLIENT = 'portal.demo';
const NONCE = 'n-0123456789';

const published = await generateKeyPair('RS256');
const stranger = await generateKeyPair('RS256');
const jwk: JWK = { ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };

let server: Server;
let issuer = '';
let keysUp = true;
let tokenAnswer: { status: number; body: unknown } = { status: 200, body: {} };
const tokenForms: URLSearchParams[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/cas/oidc/jwks') {
      if (!keysUp) {
        res.statusCode = 503;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      tokenForms.push(new URLSearchParams(body));
      res.statusCode = tokenAnswer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(tokenAnswer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => server.close(() => r())));

const client = () =>
  createProviderClient({ issuer, backChannel: issuer, key: portalClientKey('a key-encryption secret for this spec') });

type Claims = Record<string, unknown>;
type SigningKey = (typeof published)['privateKey'];
const idToken = (o: { claims?: Claims; key?: SigningKey; alg?: string; exp?: string | number } = {}) =>
  new SignJWT({ nonce: NONCE, tenant: 'demo', name: 'Demo Administrator', preferred_username: 'admin', ...o.claims })
    .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(CLIENT)
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime(o.exp ?? '5m')
    .sign(o.key ?? published.privateKey);

async function refused(p: Promise<unknown>, code: string, unavailable = false) {
  try {
    await p;
  } catch (err) {
    assert.instance(err, ProviderError);
    assert.is((err as ProviderError).error, code, (err as Error).message);
    assert.is((err as ProviderError).unavailable, unavailable);
    return (err as Error).message;
  }
  throw new Error(`expected ${code}`);
}

test('a valid ID token answers its subject, tenant, name and user name', async () => {
  const claims = await client().verifyIdToken({ clientId: CLIENT, idToken: await idToken(), nonce: NONCE });
  assert.equal(claims, { sub: 'user-1', tenant: 'demo', name: 'Demo Administrator', username: 'admin' });
});

test('a token signed by a key the provider does not publish is refused', async () => {
  const token = await idToken({ key: stranger.privateKey });
  await refused(client().verifyIdToken({ clientId: CLIENT, idToken: token, nonce: NONCE }), 'id_token_invalid');
});

test('another audience, another issuer or an expired token is refused', async () => {
  const c = client();
  const token = await idToken();
  await refused(c.verifyIdToken({ clientId: 'portal.other', idToken: token, nonce: NONCE }), 'id_token_invalid');
  const foreign = await new SignJWT({ nonce: NONCE, tenant: 'demo' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer('https://elsewhere.example')
    .setAudience(CLIENT)
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(published.privateKey);
  await refused(c.verifyIdToken({ clientId: CLIENT, idToken: foreign, nonce: NONCE }), 'id_token_invalid');
  const expired = await idToken({ exp: Math.floor(Date.now() / 1000) - 60 });
  await refused(c.verifyIdToken({ clientId: CLIENT, idToken: expired, nonce: NONCE }), 'id_token_invalid');
});

test("another sign-in's nonce or a token without a tenant is refused", async () => {
  const c = client();
  const message = await refused(
    c.verifyIdToken({ clientId: CLIENT, idToken: await idToken(), nonce: 'n-another' }),
    'id_token_invalid',
  );
  assert.match(message, /nonce/);
  const noTenant = await idToken({ claims: { tenant: undefined } });
  assert.match(
    await refused(c.verifyIdToken({ clientId: CLIENT, idToken: noTenant, nonce: NONCE }), 'id_token_invalid'),
    /tenant/,
  );
});

test('an algorithm other than RS256 is refused, even with a key the provider publishes', async () => {
  const hs = await new SignJWT({ nonce: NONCE, tenant: 'demo' })
    .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(CLIENT)
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
  await refused(client().verifyIdToken({ clientId: CLIENT, idToken: hs, nonce: NONCE }), 'id_token_invalid');
});

test("the provider's keys out of reach is a retryable failure, not an invalid token", async () => {
  keysUp = false;
  try {
    // a fresh client: its key set has nothing cached yet
    await refused(
      client().verifyIdToken({ clientId: CLIENT, idToken: await idToken(), nonce: NONCE }),
      'unavailable',
      true,
    );
  } finally {
    keysUp = true;
  }
});

test("the token endpoint's refusal keeps its error code; its outage is retryable; the call authenticates with a signed assertion", async () => {
  const c = client();
  tokenAnswer = { status: 400, body: { error: 'invalid_grant', error_description: 'the code was used' } };
  const message = await refused(
    c.redeemCode({ clientId: CLIENT, code: 'c', codeVerifier: 'v', redirectUri: `${issuer}/portal/auth/callback` }),
    'invalid_grant',
  );
  assert.match(message, /the code was used/);
  const form = tokenForms.at(-1)!;
  assert.is(form.get('grant_type'), 'authorization_code');
  assert.is(form.get('code_verifier'), 'v');
  assert.is(form.get('client_assertion_type'), 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  assert.match(form.get('client_assertion') ?? '', /^eyJ[^.]+\.[^.]+\.[^.]+$/);

  tokenAnswer = { status: 503, body: { error: 'temporarily_unavailable' } };
  await refused(c.refresh({ clientId: CLIENT, refreshToken: 'r' }), 'temporarily_unavailable', true);

  tokenAnswer = { status: 200, body: { access_token: 'at', expires_in: 60, scope: 'openid bridge:admin' } };
  assert.equal(await c.refresh({ clientId: CLIENT, refreshToken: 'r' }), {
    accessToken: 'at',
    expiresIn: 60,
    scopes: ['openid', 'bridge:admin'],
  });
});

test.run();
