import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type ClientAuthRequest,
  createClientAuthenticator,
  JWT_BEARER_ASSERTION,
} from '../../../commands/identity/client.authenticator.ts';
import type { Directory } from '../../../commands/identity/identity.contracts.ts';
import { OAuthError } from '../../../commands/identity/oauth.error.ts';
import type { Client, PublicJwk } from '../../../domain/identity/model.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'client-auth-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const ISSUER = 'https://id.example';
const TOKEN_ENDPOINT = `${ISSUER}/cas/oidc/token`;

const base: Client = {
  clientId: 'x',
  tenant: 'acme',
  redirectUris: ['https://app.example/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'client_credentials'],
  authMethod: 'client_secret_basic',
  userSourceId: 'default',
  allowedAccessTenants: [],
  scopes: [],
  allowPlainPkce: false,
  status: 'active',
};

// client ids and secrets with every character RFC 6749 2.3.1 makes clients form-encode
const SPECIAL_ID = 'app:1 é+%/&=?';
const SPECIAL_SECRET = 'p@ss:w/rd+ &=%~"';
const keys = await generateKeyPair('RS256');
const otherKeys = await generateKeyPair('RS256');
const publicJwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', use: 'sig' } as PublicJwk;

const clients: Record<string, Client> = {
  [SPECIAL_ID]: { ...base, clientId: SPECIAL_ID, secretHash: `plain:${SPECIAL_SECRET}` },
  conf: { ...base, clientId: 'conf', secretHash: 'plain:s3cret', authMethod: 'client_secret_post' },
  spa: { ...base, clientId: 'spa', authMethod: 'none' },
  jwt: { ...base, clientId: 'jwt', authMethod: 'private_key_jwt', jwks: [publicJwk] },
  off: { ...base, clientId: 'off', secretHash: 'plain:s3cret', status: 'disabled' },
};
const directory: Pick<Directory, 'getClient' | 'verifyClientSecret'> = {
  getClient: async (id) => clients[id] ?? null,
  verifyClientSecret: async (client, secret) => client.secretHash === `plain:${secret}`,
};
const auth = createClientAuthenticator({ directory, eventStore, clock, issuer: ISSUER, endpoints: [TOKEN_ENDPOINT] });

/** application/x-www-form-urlencoded encoding of one component, as RFC 6749 2.3.1 asks of clients */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString('base64')}`;
const req = (body: Record<string, unknown> = {}, authorization?: string): ClientAuthRequest => ({
  headers: authorization === undefined ? {} : { authorization },
  body,
});

async function refused(p: Promise<unknown>, code: string, opts: { basic?: boolean } = {}): Promise<OAuthError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, OAuthError);
    const e = err as OAuthError;
    assert.is(e.code, code);
    const r = e.toResponse();
    assert.is(r.status, code === 'invalid_client' ? 401 : 400);
    assert.equal(Object.keys(r.body).sort(), ['error', 'error_description']);
    if (opts.basic !== undefined) {
      assert.is(r.headers['WWW-Authenticate'], opts.basic ? 'Basic realm="platform"' : undefined);
    }
    return e;
  }
  assert.unreachable(`expected ${code}`);
  throw new Error('unreachable');
}

const assertion = (claims: Record<string, unknown> = {}, key = keys.privateKey, kid = 'k1') => {
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({
    jti: crypto.randomUUID(),
    iss: 'jwt',
    sub: 'jwt',
    aud: TOKEN_ENDPOINT,
    iat: now,
    exp: now + 60,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid })
    .sign(key);
};
const jwtBody = (jwt: string, extra: Record<string, unknown> = {}) => ({
  client_assertion_type: JWT_BEARER_ASSERTION,
  client_assertion: jwt,
  ...extra,
});

const basicSuite = suite('client_secret_basic');
basicSuite('decodes base64, then form-url-decodes id and secret (special characters)', async () => {
  const r = await auth.authenticateClient(req({}, basic(SPECIAL_ID, SPECIAL_SECRET)));
  assert.is(r.client.clientId, SPECIAL_ID);
  assert.is(r.method, 'client_secret_basic');
});
basicSuite('a client_id in the body must be the Basic one', async () => {
  const ok = await auth.authenticateClient(req({ client_id: SPECIAL_ID }, basic(SPECIAL_ID, SPECIAL_SECRET)));
  assert.is(ok.client.clientId, SPECIAL_ID);
  await refused(
    auth.authenticateClient(req({ client_id: 'conf' }, basic(SPECIAL_ID, SPECIAL_SECRET))),
    'invalid_request',
  );
});
basicSuite(
  'wrong secret, unknown client, disabled client, malformed header: 401 with WWW-Authenticate Basic',
  async () => {
    await refused(auth.authenticateClient(req({}, basic(SPECIAL_ID, 'nope'))), 'invalid_client', { basic: true });
    await refused(auth.authenticateClient(req({}, basic('ghost', 'x'))), 'invalid_client', { basic: true });
    await refused(auth.authenticateClient(req({}, basic('off', 's3cret'))), 'invalid_client', { basic: true });
    await refused(auth.authenticateClient(req({}, 'Basic !!!')), 'invalid_client', { basic: true });
    await refused(
      auth.authenticateClient(req({}, `Basic ${Buffer.from('no-colon').toString('base64')}`)),
      'invalid_client',
      { basic: true },
    );
    await refused(
      auth.authenticateClient(req({}, `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`)),
      'invalid_client',
      { basic: true },
    );
  },
);
basicSuite('the raw (not form-encoded) special id does not authenticate', async () => {
  const raw = `Basic ${Buffer.from(`${SPECIAL_ID}:${SPECIAL_SECRET}`).toString('base64')}`;
  await refused(auth.authenticateClient(req({}, raw)), 'invalid_client', { basic: true });
});
basicSuite('a public client cannot authenticate with a secret', async () => {
  await refused(auth.authenticateClient(req({}, basic('spa', 'anything'))), 'invalid_client', { basic: true });
});
basicSuite.run();

const postSuite = suite('client_secret_post');
postSuite('client_id and client_secret in the form', async () => {
  const r = await auth.authenticateClient(req({ client_id: 'conf', client_secret: 's3cret' }));
  assert.is(r.client.clientId, 'conf');
  assert.is(r.method, 'client_secret_post');
  // basic-registered clients may post their secret too: both are "the client has a secret"
  const special = await auth.authenticateClient(req({ client_id: SPECIAL_ID, client_secret: SPECIAL_SECRET }));
  assert.is(special.method, 'client_secret_post');
});
postSuite('wrong secret: 401 without a Basic challenge; secret without client_id: invalid_request', async () => {
  await refused(auth.authenticateClient(req({ client_id: 'conf', client_secret: 'wrong' })), 'invalid_client', {
    basic: false,
  });
  await refused(auth.authenticateClient(req({ client_secret: 's3cret' })), 'invalid_request');
});
postSuite('two methods at once, or a repeated parameter: invalid_request', async () => {
  await refused(
    auth.authenticateClient(req({ client_id: 'conf', client_secret: 's3cret' }, basic('conf', 's3cret'))),
    'invalid_request',
  );
  await refused(
    auth.authenticateClient(req({ client_id: ['conf', 'conf'], client_secret: 's3cret' })),
    'invalid_request',
  );
});
postSuite.run();

const noneSuite = suite('none (public clients)');
noneSuite('a public client is identified by client_id alone', async () => {
  const r = await auth.authenticateClient(req({ client_id: 'spa' }));
  assert.is(r.client.clientId, 'spa');
  assert.is(r.method, 'none');
});
noneSuite(
  'a confidential client without credentials, an unknown client, no client at all: invalid_client',
  async () => {
    await refused(auth.authenticateClient(req({ client_id: 'conf' })), 'invalid_client', { basic: false });
    await refused(auth.authenticateClient(req({ client_id: 'ghost' })), 'invalid_client');
    await refused(auth.authenticateClient(req({})), 'invalid_client');
    await refused(auth.authenticateClient({ headers: {}, body: undefined }), 'invalid_client');
  },
);
noneSuite.run();

const jwtSuite = suite('private_key_jwt (RFC 7523)');
jwtSuite('an assertion signed with the registered key authenticates', async () => {
  const r = await auth.authenticateClient(req(jwtBody(await assertion())));
  assert.is(r.client.clientId, 'jwt');
  assert.is(r.method, 'private_key_jwt');
});
jwtSuite('the issuer is an accepted audience too, and client_id in the body may accompany it', async () => {
  const jwt = await assertion({ aud: ISSUER });
  const r = await auth.authenticateClient(req(jwtBody(jwt, { client_id: 'jwt' })));
  assert.is(r.client.clientId, 'jwt');
});
jwtSuite('a replayed assertion (same jti) is refused', async () => {
  const jwt = await assertion();
  await auth.authenticateClient(req(jwtBody(jwt)));
  const e = await refused(auth.authenticateClient(req(jwtBody(jwt))), 'invalid_client');
  assert.match(e.description, /already used/);
});
jwtSuite('two concurrent uses of one assertion: exactly one passes', async () => {
  const jwt = await assertion();
  const results = await Promise.allSettled([1, 2, 3].map(() => auth.authenticateClient(req(jwtBody(jwt)))));
  assert.is(results.filter((r) => r.status === 'fulfilled').length, 1);
});
jwtSuite('wrong key, wrong audience, expired, iss/sub not the client, no jti, bad type: invalid_client', async () => {
  await refused(auth.authenticateClient(req(jwtBody(await assertion({}, otherKeys.privateKey)))), 'invalid_client');
  await refused(
    auth.authenticateClient(req(jwtBody(await assertion({}, otherKeys.privateKey, 'other')))),
    'invalid_client',
  );
  await refused(
    auth.authenticateClient(req(jwtBody(await assertion({ aud: 'https://elsewhere.example/token' })))),
    'invalid_client',
  );
  const old = await assertion();
  clock.advance(120_000);
  await refused(auth.authenticateClient(req(jwtBody(old))), 'invalid_client');
  await refused(auth.authenticateClient(req(jwtBody(await assertion({ iss: 'spa' })))), 'invalid_client');
  const noJti = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer('jwt')
    .setSubject('jwt')
    .setAudience(TOKEN_ENDPOINT)
    .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 60)
    .sign(keys.privateKey);
  await refused(auth.authenticateClient(req(jwtBody(noJti))), 'invalid_client');
  await refused(
    auth.authenticateClient(req({ client_assertion_type: 'urn:other', client_assertion: await assertion() })),
    'invalid_client',
  );
  await refused(auth.authenticateClient(req({ client_assertion_type: JWT_BEARER_ASSERTION })), 'invalid_request');
  await refused(auth.authenticateClient(req(jwtBody('not-a-jwt'))), 'invalid_client');
});
jwtSuite('a secret client cannot use an assertion, a jwt client cannot use a secret', async () => {
  const forConf = await new SignJWT({ jti: 'j' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer('conf')
    .setSubject('conf')
    .setAudience(TOKEN_ENDPOINT)
    .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 60)
    .sign(keys.privateKey);
  await refused(auth.authenticateClient(req(jwtBody(forConf))), 'invalid_client');
  await refused(auth.authenticateClient(req({ client_id: 'jwt', client_secret: 'x' })), 'invalid_client');
});
jwtSuite.after(async () => {
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});
jwtSuite.run();
