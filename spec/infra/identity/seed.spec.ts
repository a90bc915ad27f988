import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { AUDIT_SCOPES } from '../../../domain/audit/audit.scopes.ts';
import { BRIDGE_SCOPES } from '../../../domain/bridge/bridge.scopes.ts';
import { HUB_SCOPES } from '../../../domain/hub/hub.scopes.ts';
import { IDENTITY_ADMIN_SCOPE as ADMIN_SCOPE } from '../../../domain/identity/identity.scopes.ts';
import { OPS_SCOPES } from '../../../domain/operations/operations.scopes.ts';
import { WORKFLOW_SCOPES } from '../../../domain/workflow/workflow.scopes.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { describeSeed, PLATFORM_ADMIN_CLIENT_ID, type SeedReport, seedIdentity } from '../../../infra/identity/seed.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

type Ctx = { dir: string; eventStore: EventStore; clock: ReturnType<typeof manualClock>; logs: string[] };
const it = suite<Ctx>('identity seed', {} as Ctx);

it.before.each((c) => {
  c.dir = mkdtempSync(path.join(tmpdir(), 'seed-'));
  c.eventStore = createSqliteEventStore({ file: path.join(c.dir, 'events.sqlite') });
  c.clock = manualClock('2026-03-01T10:00:00.000Z');
  c.logs = [];
});
it.after.each(async (c) => {
  await c.eventStore.close();
  rmSync(c.dir, { recursive: true, force: true });
});

const logTo = (lines: string[]) => ({
  info: (obj: object, msg: string) => void lines.push(JSON.stringify({ ...obj, msg })),
  warn: (obj: object, msg: string) => void lines.push(JSON.stringify({ ...obj, msg })),
});
const config = (env: Record<string, string> = {}) => loadConfig({ PUBLIC_BASE_URL: 'http://localhost:8080', ...env });
const allEvents = async (s: EventStore) => (await s.readAll({ limit: 10_000 })).length;

it('first start creates the tenants, users and clients, with generated secrets reported once', async (c) => {
  const report = await seedIdentity({ config: config(), eventStore: c.eventStore, clock: c.clock, log: logTo(c.logs) });
  assert.ok(report);
  assert.equal(report.tenantsCreated, ['platform', 'demo']);
  const directory = createDirectory({ eventStore: c.eventStore, clock: c.clock });

  // the admin: generated password that works, every service's scopes as roles (the portal shows it every area)
  assert.ok(report.admin?.password && report.admin.password.length >= 20);
  const admin = await directory.findUserByUsername('demo', 'default', 'admin');
  assert.ok(admin);
  assert.equal(
    [...admin.roles].sort(),
    [ADMIN_SCOPE, ...BRIDGE_SCOPES, ...AUDIT_SCOPES, ...HUB_SCOPES, ...WORKFLOW_SCOPES, ...OPS_SCOPES].sort(),
  );
  assert.is(await directory.verifyPassword(admin, report.admin.password), true);

  // the confidential client
  const demo = await directory.getClient('demo-client');
  assert.ok(demo && report.confidentialClient?.clientSecret);
  assert.equal(demo.grantTypes, ['authorization_code', 'client_credentials', 'refresh_token']);
  assert.is(demo.authMethod, 'client_secret_basic');
  assert.equal(demo.redirectUris, ['http://localhost:8080/demo/callback']);
  assert.ok(demo.scopes.includes(ADMIN_SCOPE));
  assert.is(demo.tenant, 'demo');
  assert.is(await directory.verifyClientSecret(demo, report.confidentialClient.clientSecret), true);
  const service = await directory.getUser('demo', demo.defaultUser!);
  assert.is(service?.username, 'demo-service', 'client_credentials tokens are issued for the machine user');

  // the public client
  const spa = await directory.getClient('demo-spa');
  assert.ok(spa);
  assert.is(spa.authMethod, 'none');
  assert.is(spa.secretHash, undefined);
  assert.equal(spa.grantTypes, ['authorization_code', 'refresh_token']);
  assert.equal(spa.redirectUris, ['http://localhost:8080/demo/callback']);

  // the platform's admin client
  const platform = await directory.getClient(PLATFORM_ADMIN_CLIENT_ID);
  assert.ok(platform && report.platformAdminClient?.clientSecret);
  assert.is(platform.tenant, 'platform');
  assert.equal(platform.grantTypes, ['client_credentials']);
  assert.is(await directory.verifyClientSecret(platform, report.platformAdminClient.clientSecret), true);

  // the printable lines carry the secrets; the log does not
  const text = describeSeed(report).join('\n');
  for (const s of [
    report.admin.password,
    report.confidentialClient.clientSecret,
    report.platformAdminClient.clientSecret,
  ]) {
    assert.ok(text.includes(s));
    assert.not.ok(c.logs.join('\n').includes(s), 'a secret in the log');
  }
  assert.ok(text.includes('demo-spa') && text.includes('http://localhost:8080/demo/callback'));
});

it('second start: null, nothing appended', async (c) => {
  const deps = { config: config(), eventStore: c.eventStore, clock: c.clock, log: logTo(c.logs) };
  assert.ok(await seedIdentity(deps));
  const count = await allEvents(c.eventStore);
  assert.is(await seedIdentity(deps), null);
  assert.is(await allEvents(c.eventStore), count);
});

it('values from the environment are used and not repeated in the report', async (c) => {
  const env = {
    SEED_TENANT: 'insurer',
    SEED_ADMIN_USERNAME: 'root',
    SEED_ADMIN_PASSWORD: 'given admin password',
    SEED_CLIENT_ID: 'portal',
    SEED_CLIENT_SECRET: 'given client secret',
    SEED_PUBLIC_CLIENT_ID: 'portal-spa',
    SEED_REDIRECT_URI: 'https://portal.example/cb',
  };
  const report = await seedIdentity({
    config: config(env),
    eventStore: c.eventStore,
    clock: c.clock,
    log: logTo(c.logs),
  });
  assert.ok(report);
  assert.is(report.admin?.username, 'root');
  assert.is(report.admin?.password, undefined);
  assert.is(report.confidentialClient?.clientSecret, undefined);
  assert.not.ok(describeSeed(report).join('\n').includes('given'));
  const directory = createDirectory({ eventStore: c.eventStore, clock: c.clock });
  const root = await directory.authenticate('insurer', 'default', 'root', 'given admin password');
  assert.ok(root);
  const portal = await directory.getClient('portal');
  assert.is(await directory.verifyClientSecret(portal!, 'given client secret'), true);
  assert.equal((await directory.getClient('portal-spa'))?.redirectUris, ['https://portal.example/cb']);
});

it('a short SEED_ADMIN_PASSWORD stops the start with a clear message', async (c) => {
  try {
    await seedIdentity({
      config: config({ SEED_ADMIN_PASSWORD: 'short' }),
      eventStore: c.eventStore,
      clock: c.clock,
      log: logTo(c.logs),
    });
    assert.unreachable();
  } catch (err) {
    assert.match(String(err), /SEED_ADMIN_PASSWORD must be at least 8 characters/);
  }
});

it('two starts at once: everything is created once, each secret reported by the process that stored it', async (c) => {
  const other = createSqliteEventStore({ file: path.join(c.dir, 'events.sqlite') });
  try {
    const [a, b] = await Promise.all([
      seedIdentity({ config: config(), eventStore: c.eventStore, clock: c.clock, log: logTo(c.logs) }),
      seedIdentity({ config: config(), eventStore: other, clock: c.clock, log: logTo(c.logs) }),
    ]);
    const reports = [a, b].filter((r): r is SeedReport => r !== null);
    assert.ok(reports.length >= 1);
    const once = <T>(pick: (r: SeedReport) => T | undefined) => reports.map(pick).filter((x) => x !== undefined);
    assert.is(once((r) => r.admin).length, 1, 'the admin reported once');
    assert.is(once((r) => r.confidentialClient).length, 1);
    assert.is(once((r) => r.publicClient).length, 1);
    assert.is(once((r) => r.platformAdminClient).length, 1);
    // tenants hold no secret: both processes may report them (their appends were identical)
    assert.equal([...new Set(reports.flatMap((r) => r.tenantsCreated))].sort(), ['demo', 'platform']);
    const directory = createDirectory({ eventStore: c.eventStore, clock: c.clock });
    const admin = await directory.findUserByUsername('demo', 'default', 'admin');
    assert.is(
      await directory.verifyPassword(admin!, once((r) => r.admin)[0]!.password!),
      true,
      'the reported password is the stored one',
    );
    const demo = await directory.getClient('demo-client');
    assert.is(await directory.verifyClientSecret(demo!, once((r) => r.confidentialClient)[0]!.clientSecret!), true);
  } finally {
    await other.close();
  }
});

it('a start that died half-way is completed by the next one', async (c) => {
  let crash = true;
  const flaky: EventStore = {
    ...c.eventStore,
    async append(stream, events, expected) {
      if (crash && stream === 'client-platform.demo-client') {
        crash = false;
        throw new Error('simulated crash');
      }
      return c.eventStore.append(stream, events, expected);
    },
  };
  const deps = { config: config(), eventStore: flaky, clock: c.clock, log: logTo(c.logs) };
  try {
    await seedIdentity(deps);
    assert.unreachable();
  } catch (err) {
    assert.match(String(err), /simulated crash/);
  }
  const resumed = await seedIdentity(deps);
  assert.ok(resumed);
  assert.equal(resumed.tenantsCreated, [], 'the tenants were there already');
  assert.is(resumed.admin, undefined, 'created by the first start (its password was lost with it: reset it)');
  assert.ok(resumed.confidentialClient?.clientSecret);
  assert.ok(resumed.publicClient);
  assert.is(await seedIdentity(deps), null);
});

it('a store that already has tenants but no seed record is left alone', async (c) => {
  const commands = createDirectoryCommands({
    eventStore: c.eventStore,
    clock: c.clock,
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  await commands.createTenant({ name: 'Existing' }, { tenant: 'existing' }, 'x');
  const count = await allEvents(c.eventStore);
  assert.is(
    await seedIdentity({ config: config(), eventStore: c.eventStore, clock: c.clock, log: logTo(c.logs) }),
    null,
  );
  assert.is(await allEvents(c.eventStore), count);
});

it.run();
