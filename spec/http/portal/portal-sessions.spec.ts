// The portal's sessions in the shared read store: tokens sealed at rest, expiry, and the refresh of a
// rotating refresh token one at a time (in a process: callers share it; across processes: a lease).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKeyedSecretBox } from '../../../commands/core/secret.box.ts';
import { errorHandler } from '../../../http/core/errors.ts';
import { apiProxy } from '../../../http/portal/api-proxy.ts';
import { PORTAL_HEADER, SESSION_COOKIE } from '../../../http/portal/portal.paths.ts';
import { ProviderError, type TokenSet } from '../../../http/portal/portal.ports.ts';
import { createPortalSessions, PORTAL_SESSIONS } from '../../../http/portal/portal-sessions.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-sessions-'));
let readStore: ReadStore;
const sealer = createKeyedSecretBox({ current: 'a key-encryption secret of at least 32 characters' });
const clock = manualClock('2026-03-01T10:00:00.000Z');

/** a provider whose refreshes wait until released, counting them */
function fakeProvider() {
  let n = 0;
  const pending: Array<() => void> = [];
  let fail: ProviderError | undefined;
  let called: () => void = () => undefined;
  let calledOnce = new Promise<void>((resolve) => (called = resolve));
  return {
    /** resolves once a refresh has reached the provider */
    get started() {
      return calledOnce;
    },
    get refreshes() {
      return n;
    },
    failWith(e: ProviderError) {
      fail = e;
    },
    release() {
      for (const r of pending.splice(0)) r();
    },
    async refresh({ refreshToken }: { clientId: string; refreshToken: string }): Promise<TokenSet> {
      n++;
      const wait = new Promise<void>((resolve) => pending.push(resolve));
      called();
      calledOnce = new Promise<void>((resolve) => (called = resolve));
      await wait;
      if (fail) throw fail;
      return {
        accessToken: `access-${n}`,
        refreshToken: `${refreshToken}+`,
        expiresIn: 3600,
        scopes: ['openid', 'bridge:admin'],
      };
    },
  };
}

const tokens: TokenSet = {
  accessToken: 'access-0',
  refreshToken: 'refresh-0',
  idToken: 'id-0',
  expiresIn: 120,
  scopes: ['openid', 'bridge:admin'],
};
const claims = { sub: 'u1', name: 'Ann Lee', username: 'ann' };

const test = suite('portal sessions');
test.before(async () => {
  readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
});
test.after(async () => {
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a session is found by its cookie only; the tokens are sealed in the store; it ends at its expiry', async () => {
  const sessions = createPortalSessions({ readStore, sealer, provider: fakeProvider(), clock, ttlSeconds: 3600 });
  await sessions.ensure();
  const { cookie, session } = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  assert.match(cookie, /^[A-Za-z0-9_-]{43}$/);
  assert.is.not(session.id, cookie, 'the store keys the session by a hash of the cookie');
  const stored = JSON.stringify(await readStore.collection(PORTAL_SESSIONS).get(session.id));
  assert.not.ok(
    stored.includes('access-0') || stored.includes('refresh-0') || stored.includes(cookie),
    'no token and no cookie value at rest',
  );
  assert.is((await sessions.get(cookie))?.tokens.accessToken, 'access-0');
  assert.is(await sessions.get(`${cookie.slice(0, -1)}A`), null);
  assert.is(await sessions.get('short'), null);
  clock.advance(3600_000);
  assert.is(await sessions.get(cookie), null, 'expired');
  assert.is(await readStore.collection(PORTAL_SESSIONS).get(session.id), null, 'and removed');
});

test('near its expiry the access token is refreshed once for concurrent callers; the rotated refresh token is kept', async () => {
  const provider = fakeProvider();
  const sessions = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const { cookie } = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  const session = (await sessions.get(cookie))!;
  assert.is(await sessions.accessToken(session), 'access-0', 'still valid for longer than the margin: no refresh');
  clock.advance(61_000); // 59 s left: inside the 60 s margin
  const calls = [sessions.accessToken(session), sessions.accessToken(session), sessions.accessToken(session)];
  await provider.started;
  provider.release();
  assert.equal(await Promise.all(calls), ['access-1', 'access-1', 'access-1']);
  assert.is(provider.refreshes, 1);
  const after = (await sessions.get(cookie))!;
  assert.is(after.tokens.refreshToken, 'refresh-0+');
  assert.is(after.tokens.idToken, 'id-0');
  assert.is(await sessions.accessToken(after), 'access-1');
});

test('across processes a lease lets one refresh; the other uses the token it has while it lasts', async () => {
  const provider = fakeProvider();
  const one = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const two = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const { cookie } = await one.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  clock.advance(61_000);
  const first = one.accessToken((await one.get(cookie))!);
  await provider.started;
  assert.is(
    await two.accessToken((await two.get(cookie))!),
    'access-0',
    'the other process does not refresh the same token',
  );
  provider.release();
  assert.is(await first, 'access-1');
  assert.is(provider.refreshes, 1);
});

test('a refresh the provider refuses ends the session', async () => {
  const provider = fakeProvider();
  provider.failWith(new ProviderError('invalid_grant', 'revoked'));
  const sessions = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const { cookie } = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  clock.advance(61_000);
  const pending = sessions.accessToken((await sessions.get(cookie))!);
  await provider.started;
  provider.release();
  assert.is(await pending, null);
  assert.is(await sessions.get(cookie), null);
});

test('a session whose access token ends and that holds no refresh token ends with it', async () => {
  const provider = fakeProvider();
  const sessions = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const { refreshToken: _none, ...withoutRefresh } = tokens;
  const { cookie } = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens: withoutRefresh });
  clock.advance(61_000);
  assert.is(await sessions.accessToken((await sessions.get(cookie))!), null);
  assert.is(await sessions.get(cookie), null, 'no half-alive session is left');
  assert.is(provider.refreshes, 0);
});

test('a provider that cannot be reached keeps the session, and the proxy answers 502 PORTAL.PROVIDER_UNAVAILABLE with Retry-After', async () => {
  const provider = fakeProvider();
  provider.failWith(new ProviderError('unavailable', 'connection refused', true));
  const sessions = createPortalSessions({ readStore, sealer, provider, clock, ttlSeconds: 3600 });
  const { cookie } = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  clock.advance(61_000);
  const app = express();
  app.use(apiProxy({ sessions, apiBases: ['/api/'] }));
  app.use(errorHandler(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const answer = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/portal/api/api/x`, {
      headers: { cookie: `${SESSION_COOKIE}=${cookie}`, [PORTAL_HEADER]: '1' },
    });
    await provider.started;
    provider.release();
    const res = await answer;
    assert.is(res.status, 502);
    assert.is(res.headers.get('retry-after'), '5');
    assert.is(((await res.json()) as { code: string }).code, 'PORTAL.PROVIDER_UNAVAILABLE');
    assert.ok((await sessions.get(cookie)) !== null, 'a passing outage does not end the session');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('end removes the session; purgeExpired removes the expired ones', async () => {
  const sessions = createPortalSessions({ readStore, sealer, provider: fakeProvider(), clock, ttlSeconds: 60 });
  const a = await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  assert.is((await sessions.end(a.cookie))?.sub, 'u1');
  assert.is(await sessions.get(a.cookie), null);
  await sessions.create({ tenant: 'acme', clientId: 'portal.acme', claims, tokens });
  clock.advance(61_000);
  assert.ok((await sessions.purgeExpired()) >= 1);
  assert.is(await readStore.collection(PORTAL_SESSIONS).count({ expiresAt: { $lte: clock.now().getTime() } }), 0);
});

test.run();
