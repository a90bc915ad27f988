// The identity service as composed (infra/identity/identity.service.ts), over HTTP with real SQLite stores:
// client_credentials tokens are issued without writing anything and stay revocable, and the directory in
// memory it exposes to the log reader (`consumers`) serves the client and tenant lookups.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createLogReader, type LogReader } from '../../../infra/core/log-reader.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createIdentityService, type IdentityService } from '../../../infra/identity/identity.service.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { startTestApp, type TestApp } from '../../http/core/harness.ts';

const SECRET = 'identity-service-spec-secret-0123456789';

type Ctx = {
  dir: string;
  eventStore: SqliteEventStore;
  readStore: ReadStore;
  app: TestApp;
  identity: IdentityService;
  reader: LogReader;
  auth: string;
};
const test = suite<Ctx>('identity service');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'identity-service-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read-models.sqlite') });
  let inner: Router | undefined;
  const outer = Router();
  outer.use((req, res, next) => (inner ? inner(req, res, next) : next()));
  ctx.app = await startTestApp({ routers: [{ service: 'identity', router: outer }] });
  const config = loadConfig({
    PUBLIC_BASE_URL: ctx.app.url,
    DATA_DIR: ctx.dir,
    SEED_CLIENT_SECRET: SECRET,
    SEED_ADMIN_PASSWORD: 'admin password 123',
  });
  ctx.identity = createIdentityService({
    config,
    eventStore: ctx.eventStore,
    readStore: ctx.readStore,
    clock: systemClock,
    log: pino({ level: 'silent' }),
  });
  await ctx.identity.seed();
  inner = ctx.identity.router;
  ctx.reader = createLogReader({ eventStore: ctx.eventStore, consumers: ctx.identity.consumers, retryDelayMs: 10 });
  ctx.reader.start();
  await ctx.reader.reached(await ctx.eventStore.headPosition());
  ctx.auth = `Basic ${Buffer.from(`${config.identity.seed.clientId}:${SECRET}`).toString('base64')}`;
});

test.after(async (ctx) => {
  await ctx.reader.stop();
  await ctx.app.close();
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const post = (ctx: Ctx, p: string, body: Record<string, string>) =>
  fetch(`${ctx.app.url}${p}`, {
    method: 'POST',
    headers: { authorization: ctx.auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

test('the directory and the revocation list in memory are the consumers the log reader feeds', (ctx) => {
  assert.equal(
    ctx.identity.consumers.map((c) => c.name),
    ['identity.directory-cache', 'identity.revocations-memory'],
  );
  assert.is(ctx.identity.consumers[0], ctx.identity.directoryCache);
  assert.ok(ctx.identity.directoryCache.live());
  assert.equal(
    ctx.reader.status().map((s) => s.state),
    ['joined', 'joined'],
  );
});

test('client_credentials over HTTP: no event, served from memory; the token is revocable at /cas/oidc/revoke', async (ctx) => {
  const head = await ctx.eventStore.headPosition();
  const before = ctx.identity.directoryCache.stats();
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await post(ctx, '/cas/oidc/token', { grant_type: 'client_credentials', scope: 'profile' });
    assert.is(res.status, 200);
    tokens.push(((await res.json()) as { access_token: string }).access_token);
  }
  assert.is(await ctx.eventStore.headPosition(), head, 'nothing written for three tokens');
  const after = ctx.identity.directoryCache.stats();
  assert.is(after.loaded, before.loaded, 'no stream read whole');
  assert.is(after.confirmed + after.caughtUp, before.confirmed + before.caughtUp, 'no stream revision asked for');
  assert.ok(after.atHead - before.atHead >= 3 && after.memory - before.memory >= 3, 'client and tenant from memory');

  const validate = (t: string) =>
    fetch(`${ctx.app.url}/cas/validate-token`, { headers: { authorization: `Bearer ${t}` } });
  assert.is((await validate(tokens[0]!)).status, 200);
  const revoked = await post(ctx, '/cas/oidc/revoke', { token: tokens[0]!, token_type_hint: 'access_token' });
  assert.is(revoked.status, 200);
  assert.is((await validate(tokens[0]!)).status, 401);
  assert.is((await validate(tokens[1]!)).status, 200, 'only that token');
  const written = await ctx.eventStore.readAll({ after: head });
  assert.equal(
    written.map((e) => e.type),
    ['TokenRevoked'],
  );
});

test('a client disabled through the admin commands is refused at once, whatever memory holds', async (ctx) => {
  // the admin API writes through the same store; the reader may not have handed the event over yet
  const ctxAdmin = { tenant: 'platform', actor: 'spec' };
  const clientId = (await ctx.identity.directory.getClient('demo-client'))!.clientId;
  const commands = createDirectoryCommands({ eventStore: ctx.eventStore, clock: systemClock });
  await commands.disableClient(clientId, ctxAdmin, 'spec-disable');
  const res = await post(ctx, '/cas/oidc/token', { grant_type: 'client_credentials' });
  assert.is(res.status, 401);
  await commands.enableClient(clientId, ctxAdmin, 'spec-enable');
  assert.is((await post(ctx, '/cas/oidc/token', { grant_type: 'client_credentials' })).status, 200);
});

test.run();
