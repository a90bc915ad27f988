import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { createKeyRing, decryptPrivateJwk, type KeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { createTokenService, type TokenServiceImpl } from '../../../commands/identity/token.service.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import { GRANT_CATEGORY } from '../../../domain/identity/grant.decider.ts';
import type { Client, User } from '../../../domain/identity/model.ts';
import { type KeyGeneratedData, SIGNING_KEY_CATEGORY } from '../../../domain/identity/signing-key.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { physicalName } from '../../../projections/core/projection.ts';
import {
  createRevocationList,
  REVOCATIONS_PROJECTION,
  revocationsProjection,
} from '../../../projections/identity/revocations.projection.ts';

const ISSUER = 'https://idp.example.test';
const SECRET = 'k'.repeat(48);
const DAY = 86400;

type Ctx = {
  dir: string;
  eventStore: SqliteEventStore;
  readStore: ReadStore;
  clock: ReturnType<typeof manualClock>;
  keyRing: KeyRing;
  tokens: TokenServiceImpl;
  user: User;
  client: Client;
};

const test = suite<Ctx>('token service');

const clientOf = (clientId: string, tenant = 'acme'): Client => ({
  clientId,
  tenant,
  redirectUris: ['https://app.test/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  authMethod: 'client_secret_basic',
  userSourceId: 'default',
  allowedAccessTenants: [],
  scopes: [],
  allowPlainPkce: false,
  status: 'active',
});

const newRing = (ctx: Ctx, secret = SECRET) =>
  createKeyRing({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    secret,
    publishDelaySeconds: 300,
    maxTokenLifetimeSeconds: DAY,
    refreshIntervalSeconds: 60,
  });

const newTokens = (ctx: Ctx, keyRing: KeyRing, extra: Partial<Parameters<typeof createTokenService>[0]> = {}) =>
  createTokenService({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    config: { issuer: ISSUER, accessTokenTtlSeconds: 7200, refreshTokenTtlSeconds: 30 * DAY },
    keyRing,
    directory: createDirectory({ eventStore: ctx.eventStore, clock: ctx.clock }),
    ...extra,
  });

let n = 0;
const issue = (ctx: Ctx, extra: Partial<Parameters<TokenServiceImpl['issue']>[0]> = {}) =>
  ctx.tokens.issue({
    client: ctx.client,
    tenant: 'acme',
    subject: ctx.user.userId,
    scopes: ['openid', 'profile', 'email'],
    refresh: false,
    commandId: `cmd-${++n}`,
    ...extra,
  });

async function rejects(
  p: Promise<unknown>,
  code: string,
  description?: RegExp,
): Promise<{ code: string; description: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: string; description?: string };
    assert.is(e.code, code, `expected ${code}, got ${String(err)}`);
    if (description) assert.match(e.description ?? '', description);
    return e as { code: string; description: string };
  }
  assert.unreachable(`expected ${code}`);
  throw new Error('unreachable');
}

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'token-service-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read-models.sqlite') });
  ctx.clock = manualClock('2026-03-01T10:00:00.000Z');
  const admin = createDirectoryCommands({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  const sys = { tenant: 'acme', actor: 'spec' };
  await admin.createTenant({ name: 'Acme', tokenLifetimeSeconds: 600 }, sys, 't1');
  ({ user: ctx.user } = await admin.registerUser(
    { username: 'alice', password: 'correct horse', name: 'Alice Doe', nickname: 'ali', email: 'alice@acme.test' },
    sys,
    'u1',
  ));
  ctx.client = clientOf('acme-app');
  ctx.keyRing = newRing(ctx);
  await ctx.keyRing.ensureKey();
  ctx.tokens = newTokens(ctx, ctx.keyRing);
});

test.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('issue → verify: RS256 JWT with kid and typ JWT, the access claims, expires_in from the tenant', async (ctx) => {
  const res = await issue(ctx);
  assert.is(res.token_type, 'Bearer');
  assert.is(res.expires_in, 600); // the tenant's lifetime, not the default 7200
  assert.is(res.scope, 'openid profile email');
  const header = decodeProtectedHeader(res.access_token);
  assert.equal(header, { alg: 'RS256', kid: header.kid, typ: 'JWT' });
  assert.ok(typeof header.kid === 'string' && header.kid.length > 0);
  const claims = decodeJwt(res.access_token);
  assert.is(claims.iss, ISSUER);
  assert.is(claims.aud, ISSUER);
  assert.is(claims.sub, ctx.user.userId);
  assert.is(claims.client_id, 'acme-app');
  assert.is(claims.tenant, 'acme');
  assert.is(claims.scope, 'openid profile email');
  assert.is(claims.exp, (claims.iat ?? 0) + 600);
  assert.ok(typeof claims.jti === 'string' && claims.jti.startsWith(`${res.grantId}.`));

  const context = await ctx.tokens.verifyAccessToken(res.access_token);
  assert.equal(context, {
    tenant: 'acme',
    subject: ctx.user.userId,
    clientId: 'acme-app',
    scopes: ['openid', 'profile', 'email'],
    jti: claims.jti,
    exp: claims.exp,
  });
});

test('the default lifetime applies to a tenant without its own', async (ctx) => {
  const res = await issue(ctx, { tenant: 'nowhere' });
  assert.is(res.expires_in, 7200);
});

test('ID token: the spec claims plus iss, iat, nonce, auth_time, azp; verifiable with the JWKS', async (ctx) => {
  const res = await issue(ctx, { idToken: { user: ctx.user, nonce: 'n-0S6', authTime: 1_772_359_000 } });
  assert.ok(res.id_token);
  const jwks = createLocalJWKSet(await ctx.tokens.jwks());
  const { payload, protectedHeader } = await jwtVerify(res.id_token!, jwks, {
    issuer: ISSUER,
    audience: 'acme-app',
    currentDate: ctx.clock.now(),
  });
  assert.is(protectedHeader.typ, 'JWT');
  assert.equal(payload.aud, ['acme-app']);
  assert.is(payload.sub, ctx.user.userId);
  assert.is(payload.nonce, 'n-0S6');
  assert.is(payload.auth_time, 1_772_359_000);
  assert.is(payload.azp, 'acme-app');
  assert.is(payload.name, 'Alice Doe');
  assert.is(payload.nickname, 'ali');
  assert.is(payload.preferred_username, 'alice');
  assert.is(payload.userName, 'alice');
  assert.is(payload.email, 'alice@acme.test');
  assert.is(payload.tenant, 'acme');
  assert.ok(typeof payload.iat === 'number' && typeof payload.exp === 'number');
  // an ID token is not an access token
  await rejects(ctx.tokens.verifyAccessToken(res.id_token!), 'invalid_token');
});

test('ID token without the profile and email scopes carries only the platform claims', async (ctx) => {
  const res = await issue(ctx, { scopes: ['openid'], idToken: { user: ctx.user, authTime: 1 } });
  const payload = decodeJwt(res.id_token!);
  assert.is(payload.name, undefined);
  assert.is(payload.email, undefined);
  assert.is(payload.userName, 'alice');
  assert.is(payload.tenant, 'acme');
});

test('an expired token → invalid_token', async (ctx) => {
  const res = await issue(ctx);
  ctx.clock.advance(599_000);
  await ctx.tokens.verifyAccessToken(res.access_token);
  ctx.clock.advance(1_000);
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /expired/);
});

test('a forged signature (another key, same kid) and an unknown kid → invalid_token', async (ctx) => {
  const res = await issue(ctx);
  const claims = decodeJwt(res.access_token);
  const { kid } = decodeProtectedHeader(res.access_token);
  const { privateKey } = await generateKeyPair('RS256');
  const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: kid!, typ: 'JWT' }).sign(privateKey);
  await rejects(ctx.tokens.verifyAccessToken(forged), 'invalid_token', /signature/);
  const unknownKid = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'nope', typ: 'JWT' })
    .sign(privateKey);
  await rejects(ctx.tokens.verifyAccessToken(unknownKid), 'invalid_token', /unknown key/);
  // a tampered payload under the genuine signature
  const [h, , s] = res.access_token.split('.');
  const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'openid identity:admin' })).toString('base64url');
  await rejects(ctx.tokens.verifyAccessToken(`${h}.${widened}.${s}`), 'invalid_token');
  await rejects(ctx.tokens.verifyAccessToken('not-a-jwt'), 'invalid_token');
});

test('wrong iss, wrong aud, wrong typ, alg none → invalid_token', async (ctx) => {
  const res = await issue(ctx);
  const claims = decodeJwt(res.access_token);
  const { kid, privateKey } = await ctx.keyRing.signingKey();
  const sign = (c: Record<string, unknown>, typ = 'JWT') =>
    new SignJWT(c).setProtectedHeader({ alg: 'RS256', kid, typ }).sign(privateKey);
  // control: our key, our claims, verifies
  await ctx.tokens.verifyAccessToken(await sign(claims));
  await rejects(
    ctx.tokens.verifyAccessToken(await sign({ ...claims, iss: 'https://evil.test' })),
    'invalid_token',
    /issuer/,
  );
  await rejects(
    ctx.tokens.verifyAccessToken(await sign({ ...claims, aud: 'https://other.test' })),
    'invalid_token',
    /resource/,
  );
  await rejects(ctx.tokens.verifyAccessToken(await sign(claims, 'at+jwt')), 'invalid_token');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${res.access_token.split('.')[1]}.`;
  await rejects(ctx.tokens.verifyAccessToken(none), 'invalid_token');
  // an internal token (signInternal) has another audience
  await rejects(
    ctx.tokens.verifyAccessToken(
      await ctx.tokens.signInternal({ sub: 'x', scope: 'openid', client_id: 'c', tenant: 'acme' }, 60),
    ),
    'invalid_token',
  );
});

test('revoke: refused at once here; another process sees it through the revocation list or the grant stream', async (ctx) => {
  const res = await issue(ctx);
  const other = await issue(ctx);
  await ctx.tokens.revoke(ctx.client, res.access_token);
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  await ctx.tokens.verifyAccessToken(other.access_token); // only that token

  // another process without the projection reads the grant stream
  const ring2 = newRing(ctx);
  const fallback = newTokens(ctx, ring2);
  await rejects(fallback.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);

  // another process with the projection: before it has applied the events it does not know; after, it does
  const projected = newTokens(ctx, ring2, { revocations: createRevocationList(ctx.readStore) });
  await projected.verifyAccessToken(res.access_token);
  await applyRevocations(ctx);
  await rejects(projected.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  await projected.verifyAccessToken(other.access_token);
});

test("revoke of another client's token, a forged token or garbage changes nothing", async (ctx) => {
  const res = await issue(ctx);
  await ctx.tokens.revoke(clientOf('someone-else'), res.access_token);
  await ctx.tokens.revoke(ctx.client, 'garbage');
  await ctx.tokens.revoke(ctx.client, 'abcdefghijklmnopqrstuv.xyz');
  await ctx.tokens.verifyAccessToken(res.access_token);
  const grantEvents = await ctx.eventStore.readAll({ filter: { categories: [GRANT_CATEGORY] } });
  assert.equal(
    grantEvents.map((e) => e.type),
    ['GrantStarted'],
  );
});

test('refresh rotates; reuse of a spent refresh token revokes the whole chain', async (ctx) => {
  const first = await issue(ctx, { refresh: true });
  assert.ok(first.refresh_token && first.refresh_token.length >= 43 + 23);
  ctx.clock.advance(60_000);
  const second = await ctx.tokens.refresh(ctx.client, first.refresh_token!, undefined, 'r1');
  assert.ok(second.refresh_token && second.refresh_token !== first.refresh_token);
  assert.is(second.expires_in, 600);
  assert.is(second.scope, 'openid profile email');
  assert.is(decodeJwt(second.access_token).sub, ctx.user.userId);
  await ctx.tokens.verifyAccessToken(first.access_token);
  await ctx.tokens.verifyAccessToken(second.access_token);

  const third = await ctx.tokens.refresh(ctx.client, second.refresh_token!, ['openid'], 'r2');
  assert.is(third.scope, 'openid');
  // narrower scopes at refresh are fine; anything beyond the grant's original scopes is not (RFC 6749 6)
  await rejects(
    ctx.tokens.refresh(ctx.client, third.refresh_token!, ['openid', 'identity:admin'], 'r3'),
    'invalid_scope',
  );

  // the first refresh token again: reuse
  await rejects(ctx.tokens.refresh(ctx.client, first.refresh_token!, undefined, 'r4'), 'invalid_grant', /used before/);
  for (const t of [first, second, third])
    await rejects(ctx.tokens.verifyAccessToken(t.access_token), 'invalid_token', /revoked/);
  await rejects(ctx.tokens.refresh(ctx.client, third.refresh_token!, undefined, 'r5'), 'invalid_grant');

  const types = (await ctx.eventStore.readStream(`grant-platform.${first.grantId}`)).map((e) => e.type);
  assert.equal(types, [
    'GrantStarted',
    'RefreshTokenRotated',
    'AccessTokenIssued',
    'RefreshTokenRotated',
    'AccessTokenIssued',
    'RefreshTokenReused',
    'GrantRevoked',
  ]);
  // only hashes of refresh tokens reach the log
  const log = JSON.stringify(await ctx.eventStore.readAll({}));
  for (const t of [first, second, third]) assert.not.ok(log.includes(t.refresh_token!.split('.')[1]!));
});

test('refresh: another client, an expired refresh token, a disabled user → invalid_grant', async (ctx) => {
  const res = await issue(ctx, { refresh: true });
  await rejects(ctx.tokens.refresh(clientOf('other'), res.refresh_token!, undefined, 'x1'), 'invalid_grant');
  await rejects(ctx.tokens.refresh(ctx.client, 'nonsense', undefined, 'x2'), 'invalid_grant');
  ctx.clock.advance(30 * DAY * 1000);
  await rejects(ctx.tokens.refresh(ctx.client, res.refresh_token!, undefined, 'x3'), 'invalid_grant', /expired/);
});

test('refresh after the user was disabled ends the grant', async (ctx) => {
  const res = await issue(ctx, { refresh: true });
  const admin = createDirectoryCommands({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  await admin.disableUser(ctx.user.userId, { tenant: 'acme', actor: 'spec' }, 'd1');
  await rejects(ctx.tokens.refresh(ctx.client, res.refresh_token!, undefined, 'x1'), 'invalid_grant', /disabled/);
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
});

test('revokeByCode revokes the grant of the code, and a grant revoked before it started never starts', async (ctx) => {
  const res = await issue(ctx, { codeId: 'code-1', refresh: true });
  await ctx.tokens.revokeByCode('code-1', 'code reused');
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  await rejects(ctx.tokens.refresh(ctx.client, res.refresh_token!, undefined, 'x'), 'invalid_grant');

  // the reuse is detected before the first redemption has written its grant
  await ctx.tokens.revokeByCode('code-2', 'code reused');
  await rejects(issue(ctx, { codeId: 'code-2' }), 'invalid_grant');
  // one grant per code
  await issue(ctx, { codeId: 'code-3' });
  await rejects(issue(ctx, { codeId: 'code-3' }), 'invalid_grant');
});

test('revoking the refresh token ends the grant (RFC 7009 2.1)', async (ctx) => {
  const res = await issue(ctx, { refresh: true });
  await ctx.tokens.revoke(ctx.client, res.refresh_token!, 'refresh_token');
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  await rejects(ctx.tokens.refresh(ctx.client, res.refresh_token!, undefined, 'x'), 'invalid_grant');
});

test('introspect: access and refresh tokens, active and inactive', async (ctx) => {
  const res = await issue(ctx, { refresh: true });
  const active = await ctx.tokens.introspect(res.access_token);
  assert.is(active.active, true);
  assert.is(active.client_id, 'acme-app');
  assert.is(active.sub, ctx.user.userId);
  assert.is(active.tenant, 'acme');
  assert.is(active.scope, 'openid profile email');
  assert.is(active.token_type, 'Bearer');
  const refresh = await ctx.tokens.introspect(res.refresh_token!);
  assert.is(refresh.active, true);
  assert.is(refresh.token_type, 'refresh_token');
  assert.equal(await ctx.tokens.introspect('garbage'), { active: false });
  await ctx.tokens.revoke(ctx.client, res.refresh_token!);
  assert.equal(await ctx.tokens.introspect(res.access_token), { active: false });
  assert.equal(await ctx.tokens.introspect(res.refresh_token!), { active: false });
});

test('verifyIdTokenHint accepts our ID tokens even expired, refuses access tokens', async (ctx) => {
  const res = await issue(ctx, { idToken: { user: ctx.user, authTime: 1 } });
  ctx.clock.advance(2 * 600_000);
  const hint = await ctx.tokens.verifyIdTokenHint(res.id_token!);
  assert.equal(hint, { sub: ctx.user.userId, aud: ['acme-app'], tenant: 'acme' });
  await rejects(ctx.tokens.verifyIdTokenHint(res.access_token), 'invalid_request');
  await rejects(ctx.tokens.verifyIdTokenHint('x.y.z'), 'invalid_request');
});

test('rotation: the new key is in the JWKS before it signs; the old one verifies its tokens until withdrawn', async (ctx) => {
  const before = await issue(ctx);
  const oldKid = decodeProtectedHeader(before.access_token).kid!;
  const rotation = await ctx.keyRing.rotate();
  assert.is.not(rotation.kid, oldKid);
  assert.is(rotation.activatesAt, new Date(ctx.clock.now().getTime() + 300_000).toISOString());
  assert.equal(
    rotation.superseded.map((s) => s.kid),
    [oldKid],
  );

  // published, not signing yet
  let kids = (await ctx.tokens.jwks()).keys.map((k) => k.kid);
  assert.ok(kids.includes(rotation.kid) && kids.includes(oldKid));
  const during = await issue(ctx);
  assert.is(decodeProtectedHeader(during.access_token).kid, oldKid);

  // another process learns the new key before it signs (its periodic re-read)
  const ring2 = newRing(ctx);
  const process2 = newTokens(ctx, ring2);
  await ring2.reload();

  ctx.clock.advance(300_000);
  const after = await issue(ctx);
  assert.is(decodeProtectedHeader(after.access_token).kid, rotation.kid);
  await process2.verifyAccessToken(after.access_token);
  await ctx.tokens.verifyAccessToken(during.access_token); // old key still verifies its tokens
  kids = (await ctx.tokens.jwks()).keys.map((k) => k.kid);
  assert.ok(kids.includes(oldKid));
  const p2 = await process2.issue({
    client: ctx.client,
    tenant: 'acme',
    subject: 'u',
    scopes: ['openid'],
    refresh: false,
    commandId: 'p2',
  });
  assert.is(decodeProtectedHeader(p2.access_token).kid, rotation.kid);

  // the old key stays published for the longest token lifetime (+ one refresh interval) after it stopped signing
  ctx.clock.advance(DAY * 1000);
  kids = (await ctx.tokens.jwks()).keys.map((k) => k.kid);
  assert.ok(kids.includes(oldKid));
  ctx.clock.advance(60_000);
  await ctx.keyRing.maintain();
  kids = (await ctx.tokens.jwks()).keys.map((k) => k.kid);
  assert.equal(kids, [rotation.kid]);
  const keyEvents = await ctx.eventStore.readStream(`signingKey-platform.${oldKid}`);
  assert.equal(
    keyEvents.map((e) => e.type),
    ['KeyGenerated', 'KeyActivated', 'KeyRetired', 'KeyWithdrawn'],
  );
  await rejects(ctx.tokens.verifyAccessToken(during.access_token), 'invalid_token');
});

test('rotate --now signs at once; a process that has not re-read finds the new kid on a miss', async (ctx) => {
  const ring2 = newRing(ctx);
  const process2 = newTokens(ctx, ring2);
  await ring2.reload();
  const rotation = await ctx.keyRing.rotate({ now: true });
  const res = await issue(ctx);
  assert.is(decodeProtectedHeader(res.access_token).kid, rotation.kid);
  await process2.verifyAccessToken(res.access_token);
});

test('two processes starting on an empty store end up signing with one key', async (ctx) => {
  const fresh = path.join(ctx.dir, 'fresh.sqlite');
  const store = createSqliteEventStore({ file: fresh });
  try {
    const a = createKeyRing({ eventStore: store, clock: ctx.clock, secret: SECRET });
    const b = createKeyRing({ eventStore: store, clock: ctx.clock, secret: SECRET });
    await Promise.all([a.ensureKey(), b.ensureKey()]);
    await a.maintain();
    await b.reload();
    assert.is((await a.signingKey()).kid, (await b.signingKey()).kid);
  } finally {
    await store.close();
  }
});

test('the private key is never in clear in the events table; another secret cannot sign', async (ctx) => {
  await ctx.keyRing.rotate({ now: true });
  const keyEvents = await ctx.eventStore.readAll({ filter: { categories: [SIGNING_KEY_CATEGORY] } });
  const generated = keyEvents.filter((e) => e.type === 'KeyGenerated') as RecordedEvent<
    'KeyGenerated',
    KeyGeneratedData
  >[];
  assert.is(generated.length, 2);
  const db = new Database(path.join(ctx.dir, 'events.sqlite'), { readonly: true });
  try {
    const table = (db.prepare('SELECT data, metadata FROM events').all() as Array<{ data: string; metadata: string }>)
      .map((r) => `${r.data}${r.metadata}`)
      .join('\n');
    for (const e of generated) {
      const priv = decryptPrivateJwk(e.data.encryptedPrivateJwk, e.data.kid, SECRET) as Record<string, string>;
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
        assert.ok(typeof priv[member] === 'string' && priv[member]!.length > 20);
        assert.not.ok(table.includes(priv[member]!), `private member ${member} found in the events table`);
      }
      assert.not.ok('d' in e.data.publicJwk);
    }
    assert.not.match(table, /"d":/);
  } finally {
    db.close();
  }
  const wrong = newRing(ctx, 'w'.repeat(48));
  await wrong.reload();
  try {
    await wrong.signingKey();
    assert.unreachable('signed with the wrong secret');
  } catch (err) {
    assert.match(String(err), /cannot decrypt signing key/);
  }
});

const machineClient = (): Client => ({
  ...clientOf('acme-svc'),
  grantTypes: ['client_credentials'],
  defaultUser: 'machine',
});
const issueCc = (ctx: Ctx, client = machineClient()) =>
  ctx.tokens.issue({
    client,
    tenant: 'acme',
    subject: 'machine',
    scopes: ['profile'],
    refresh: false,
    commandId: `cc-${++n}`,
    grantType: 'client_credentials',
  });

test('client_credentials writes nothing; its token verifies, introspects, and carries the tenant lifetime', async (ctx) => {
  const before = (await ctx.eventStore.readAll({})).length;
  const res = await issueCc(ctx);
  assert.is((await ctx.eventStore.readAll({})).length, before, 'no event for a client_credentials token');
  assert.is(res.expires_in, 600);
  assert.is(res.refresh_token, undefined);
  assert.is(res.id_token, undefined);
  const claims = decodeJwt(res.access_token);
  assert.ok(typeof claims.jti === 'string' && claims.jti.startsWith(`${res.grantId}.`));
  assert.equal(decodeProtectedHeader(res.access_token), {
    alg: 'RS256',
    kid: (await ctx.keyRing.signingKey()).kid,
    typ: 'JWT',
  });
  const context = await ctx.tokens.verifyAccessToken(res.access_token);
  assert.equal(context, {
    tenant: 'acme',
    subject: 'machine',
    clientId: 'acme-svc',
    scopes: ['profile'],
    jti: claims.jti,
    exp: claims.exp,
  });
  // the JWKS verifies it as any relying party would
  const { payload } = await jwtVerify(res.access_token, createLocalJWKSet(await ctx.tokens.jwks()), {
    issuer: ISSUER,
    audience: ISSUER,
    currentDate: ctx.clock.now(),
  });
  assert.is(payload.client_id, 'acme-svc');
  assert.is((await ctx.tokens.introspect(res.access_token)).active, true);
  // a process without the projection (it reads the grant stream, empty for this token) accepts it too
  assert.is((await newTokens(ctx, ctx.keyRing).verifyAccessToken(res.access_token)).jti, claims.jti);
});

test('client_credentials tokens stay revocable: here at once, elsewhere through the grant stream or the revocation list', async (ctx) => {
  const res = await issueCc(ctx);
  const other = await issueCc(ctx);
  // another client's revocation and a token of ours that it cannot have forged change nothing
  await ctx.tokens.revoke(clientOf('someone-else'), res.access_token);
  assert.equal(await ctx.eventStore.readAll({ filter: { categories: [GRANT_CATEGORY] } }), []);
  await ctx.tokens.verifyAccessToken(res.access_token);

  await ctx.tokens.revoke(machineClient(), res.access_token, 'access_token');
  const written = await ctx.eventStore.readAll({ filter: { categories: [GRANT_CATEGORY] } });
  assert.equal(
    written.map((e) => [e.type, e.stream]),
    [['TokenRevoked', `grant-platform.${res.grantId}`]],
  );
  assert.is((written[0]!.data as { exp: number }).exp, decodeJwt(res.access_token).exp);
  await rejects(ctx.tokens.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  assert.equal(await ctx.tokens.introspect(res.access_token), { active: false });
  await ctx.tokens.verifyAccessToken(other.access_token); // only that token

  const ring2 = newRing(ctx);
  await rejects(newTokens(ctx, ring2).verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  const projected = newTokens(ctx, ring2, { revocations: createRevocationList(ctx.readStore) });
  await projected.verifyAccessToken(res.access_token);
  await applyRevocations(ctx);
  await rejects(projected.verifyAccessToken(res.access_token), 'invalid_token', /revoked/);
  await projected.verifyAccessToken(other.access_token);

  // revoking it again writes nothing more
  await ctx.tokens.revoke(machineClient(), res.access_token);
  assert.is((await ctx.eventStore.readAll({ filter: { categories: [GRANT_CATEGORY] } })).length, 1);
});

test('a client_credentials token never comes with a refresh token, a code or an ID token', async (ctx) => {
  for (const extra of [{ refresh: true }, { codeId: 'code-x' }, { idToken: { user: ctx.user, authTime: 1 } }]) {
    try {
      await ctx.tokens.issue({
        client: machineClient(),
        tenant: 'acme',
        subject: 'machine',
        scopes: ['openid'],
        refresh: false,
        commandId: `x-${++n}`,
        grantType: 'client_credentials',
        ...extra,
      });
      assert.unreachable(`accepted ${JSON.stringify(Object.keys(extra))}`);
    } catch (err) {
      assert.match(String(err), /without refresh token, code or ID token/);
    }
  }
  assert.equal(await ctx.eventStore.readAll({ filter: { categories: [GRANT_CATEGORY] } }), []);
});

/** What the projection runner does, without its timing: apply the grant events to generation 1. */
async function applyRevocations(ctx: Ctx): Promise<void> {
  const events = await ctx.eventStore.readAll({
    filter: { categories: [GRANT_CATEGORY], eventTypes: revocationsProjection.eventTypes! },
  });
  await ctx.readStore.transaction((tx) =>
    revocationsProjection.apply(events, {
      collection: (name) => tx.collection(physicalName(REVOCATIONS_PROJECTION, name, 1)),
    }),
  );
}

test.run();
