// A tenant's machine client for a platform service (the hub's `hub-webhooks.<tenant>`): registered once
// however often it is ensured, its token minted in-process with the token endpoint's claims for that client
// (verifiable with the published keys), none when it is disabled; the reactor registers it for every
// tenant created and skips, with a warning, a tenant where the machine user's username is taken.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands, type DirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { createKeyRing, type KeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { createTenantMachineClientReactor } from '../../../commands/identity/tenant-machine-client.reactor.ts';
import {
  createTenantMachineClient,
  type TenantMachineClient,
} from '../../../commands/identity/tenant-machine-client.ts';
import { createTokenService } from '../../../commands/identity/token.service.ts';
import { clientStream } from '../../../domain/identity/client.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';

const ISSUER = 'https://idp.example.test';
type Ctx = {
  dir: string;
  eventStore: SqliteEventStore;
  readStore: ReadStore;
  clock: ReturnType<typeof manualClock>;
  keyRing: KeyRing;
  commands: DirectoryCommands;
  machine: TenantMachineClient;
};
const test = suite<Ctx>('tenant machine client');
const sys = { tenant: 'platform', actor: 'spec' };

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'machine-client-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read-models.sqlite') });
  ctx.clock = manualClock('2026-03-01T10:00:00.000Z');
  ctx.commands = createDirectoryCommands({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  await ctx.commands.createTenant({ name: 'Acme', tokenLifetimeSeconds: 600 }, { ...sys, tenant: 'acme' }, 't-acme');
  ctx.keyRing = createKeyRing({ eventStore: ctx.eventStore, clock: ctx.clock, secret: 'k'.repeat(48) });
  await ctx.keyRing.ensureKey();
  const directory = createDirectory({ eventStore: ctx.eventStore, clock: ctx.clock });
  const tokens = createTokenService({
    eventStore: ctx.eventStore,
    clock: ctx.clock,
    config: { issuer: ISSUER, accessTokenTtlSeconds: 7200, refreshTokenTtlSeconds: 86400 },
    keyRing: ctx.keyRing,
    directory,
  });
  ctx.machine = createTenantMachineClient({
    commands: ctx.commands,
    directory,
    tokens,
    name: 'hub-webhooks',
    appName: 'Notification hub webhooks',
    scopes: ['hub:webhook'],
  });
});
test.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('ensured twice, or by two callers at once: one client, one machine user', async ({ machine, eventStore }) => {
  const [a, b] = await Promise.all([machine.ensure('acme'), machine.ensure('acme')]);
  const c = await machine.ensure('acme');
  assert.equal([a.clientId, b.clientId, c.clientId], ['hub-webhooks.acme', 'hub-webhooks.acme', 'hub-webhooks.acme']);
  assert.equal(
    [c.tenant, c.grantTypes, c.scopes, c.authMethod, c.status],
    ['acme', ['client_credentials'], ['hub:webhook'], 'client_secret_basic', 'active'],
  );
  assert.is((await eventStore.readStream(clientStream('hub-webhooks.acme'))).length, 1);
  const users = await eventStore.readAll({ filter: { categories: ['user'] } });
  assert.is(users.length, 1);
  assert.is(c.defaultUser, (users[0]!.data as { userId: string }).userId);
});

test("its token: the token endpoint's client_credentials claims for the client, verifiable with the published keys; none once disabled", async ({
  machine,
  keyRing,
  commands,
  clock,
}) => {
  const minted = await machine.token('acme');
  assert.ok(minted !== undefined);
  assert.is(minted!.expiresIn, 600, "the tenant's token lifetime");
  const client = await machine.ensure('acme');
  const { payload, protectedHeader } = await jwtVerify(
    minted!.token,
    createLocalJWKSet({ keys: (await keyRing.publishedJwks()) as never }),
    { issuer: ISSUER, audience: ISSUER, currentDate: clock.now() },
  );
  assert.is(protectedHeader.alg, 'RS256');
  const { jti, ...claims } = payload;
  const iat = Math.floor(clock.now().getTime() / 1000);
  assert.equal(claims, {
    iss: ISSUER,
    sub: client.defaultUser,
    aud: ISSUER,
    exp: iat + 600,
    iat,
    scope: 'openid profile email hub:webhook',
    client_id: 'hub-webhooks.acme',
    tenant: 'acme',
  });
  assert.match(String(jti), /^[A-Za-z0-9_-]{16,64}\./);
  await commands.disableClient('hub-webhooks.acme', sys, 'disable');
  assert.is(await machine.token('acme'), undefined);
});

test('the reactor registers the client of every tenant created; a taken username is skipped with a warning', async (ctx) => {
  await ctx.commands.createTenant({ name: 'Beta' }, { ...sys, tenant: 'beta' }, 't-beta');
  await ctx.commands.registerUser(
    { username: 'hub-webhooks', name: 'someone else' },
    { tenant: 'beta', actor: 'spec' },
    'u-beta',
  );
  await ctx.commands.createTenant({ name: 'Gamma' }, { ...sys, tenant: 'gamma' }, 't-gamma');
  const warnings: object[] = [];
  const reactor = createTenantMachineClientReactor({
    name: 'spec.machine-clients',
    eventStore: ctx.eventStore,
    readStore: ctx.readStore,
    clock: ctx.clock,
    machineClient: ctx.machine,
    log: { info: () => undefined, error: () => undefined, warn: (o) => warnings.push(o) },
  });
  assert.is(await reactor.drain(), 3);
  const directory = createDirectory({ eventStore: ctx.eventStore, clock: ctx.clock });
  assert.ok((await directory.getClient('hub-webhooks.acme')) !== null);
  assert.ok((await directory.getClient('hub-webhooks.gamma')) !== null);
  assert.is(await directory.getClient('hub-webhooks.beta'), null);
  assert.equal(
    warnings.map((w) => (w as { tenant: string }).tenant),
    ['beta'],
  );
  assert.is(await reactor.drain(), 0, 'the checkpoint moved past them');
});

test('a client that cannot be registered for good (its username taken) gives no token, and is not retried on every call', async (ctx) => {
  await ctx.commands.createTenant({ name: 'Beta' }, { ...sys, tenant: 'beta' }, 't-beta');
  await ctx.commands.registerUser(
    { username: 'hub-webhooks', name: 'someone else' },
    { tenant: 'beta', actor: 'spec' },
    'u-beta',
  );
  let registrations = 0;
  let at = 0;
  const machine = createTenantMachineClient({
    commands: {
      registerUser: (...a) => {
        registrations++;
        return ctx.commands.registerUser(...a);
      },
      registerClient: ctx.commands.registerClient,
    },
    directory: createDirectory({ eventStore: ctx.eventStore, clock: ctx.clock }),
    tokens: { issue: () => Promise.reject(new Error('not reached')) },
    name: 'hub-webhooks',
    appName: 'Notification hub webhooks',
    scopes: ['hub:webhook'],
    now: () => at,
  });
  assert.is(await machine.token('beta'), undefined);
  assert.is(await machine.token('beta'), undefined);
  assert.is(registrations, 1, 'remembered');
  at += 60_001;
  assert.is(await machine.token('beta'), undefined);
  assert.is(registrations, 2, 'asked again after a minute');
});

test.run();
