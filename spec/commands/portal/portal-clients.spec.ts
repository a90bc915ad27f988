// The portal client of each tenant: registered when missing, brought back to its settings when they
// changed, left alone when an administrator disabled it; the reactor registers one for every tenant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { createPortalClientsReactor } from '../../../commands/portal/portal-clients.reactor.ts';
import { createPortalClients } from '../../../commands/portal/portal-clients.ts';
import type { PublicJwk } from '../../../domain/identity/model.ts';
import { PORTAL_SCOPES } from '../../../domain/portal/portal.scopes.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { portalClientKey } from '../../../infra/portal/portal-client.key.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-clients-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const commands = createDirectoryCommands({ eventStore, clock });
const directory = () => createDirectory({ eventStore, clock });
const ctx = { tenant: 'platform', actor: 'spec' };
const key = portalClientKey('a key-encryption secret of at least 32 characters');

const clients = (o: { issuer?: string; jwks?: PublicJwk[] } = {}) =>
  createPortalClients({
    eventStore,
    clock,
    issuer: o.issuer ?? 'https://platform.example',
    jwks: () => o.jwks ?? [key.publicJwk],
    scopes: PORTAL_SCOPES,
    clientIdOf: (t) => `portal.${t}`,
    callbackPath: '/portal/auth/callback',
    postLogoutPath: '/portal/',
  });

const test = suite('portal clients');
test.before(async () => {
  for (const code of ['acme', 'beta', 'gamma'])
    await commands.createTenant({ name: code }, { ...ctx, tenant: code }, `spec/tenant/${code}`);
});
test.after(async () => {
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a missing client is registered: confidential (private_key_jwt), code + refresh, the portal redirect URIs and scopes', async () => {
  assert.is(await clients().ensure('acme'), 'portal.acme');
  const c = (await directory().getClient('portal.acme'))!;
  assert.is(c.tenant, 'acme');
  assert.is(c.authMethod, 'private_key_jwt');
  assert.equal(c.grantTypes.sort(), ['authorization_code', 'refresh_token']);
  assert.equal(c.redirectUris, ['https://platform.example/portal/auth/callback']);
  assert.equal(c.postLogoutRedirectUris, ['https://platform.example/portal/']);
  assert.equal(c.scopes, [...PORTAL_SCOPES]);
  assert.equal(c.jwks, [key.publicJwk]);
  assert.is(c.secretHash, undefined, 'no secret to keep anywhere');
});

test('ensuring again (another process) appends nothing', async () => {
  const before = (await eventStore.readStream('client-platform.portal.acme')).length;
  assert.is(await clients().ensure('acme'), 'portal.acme');
  assert.is((await eventStore.readStream('client-platform.portal.acme')).length, before);
});

test('another public base URL or a rotated key brings the client up to date', async () => {
  const other = portalClientKey('another key-encryption secret of 32 characters or more');
  assert.is(
    await clients({ issuer: 'https://console.example', jwks: [other.publicJwk, key.publicJwk] }).ensure('acme'),
    'portal.acme',
  );
  const c = (await directory().getClient('portal.acme'))!;
  assert.equal(c.redirectUris, ['https://console.example/portal/auth/callback']);
  assert.equal(c.jwks, [other.publicJwk, key.publicJwk]);
  // and back: the same change from another state is a new command
  await clients().ensure('acme');
  assert.equal((await directory().getClient('portal.acme'))!.redirectUris, [
    'https://platform.example/portal/auth/callback',
  ]);
});

test('a client an administrator disabled stays disabled; an unknown tenant gets none; another tenant cannot take the id', async () => {
  await clients().ensure('beta');
  await commands.disableClient('portal.beta', { ...ctx, tenant: 'beta' }, 'spec/disable-beta');
  assert.is(await clients().ensure('beta'), null);
  assert.is((await directory().getClient('portal.beta'))!.status, 'disabled');
  assert.is(await clients().ensure('nosuch'), null);
  await commands.createTenant({ name: 'delta' }, { ...ctx, tenant: 'delta' }, 'spec/tenant/delta');
  try {
    await commands.registerClient(
      { clientId: 'portal.delta', grantTypes: ['authorization_code'], redirectUris: ['https://x.example/cb'] },
      { ...ctx, tenant: 'gamma' },
      'spec/squat',
    );
    assert.unreachable('another tenant registered portal.delta');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'CLIENT.INVALID');
  }
  assert.is(await clients().ensure('delta'), 'portal.delta', "delta's own client, registered by the platform");
});

test("one process notices an administrator's edit of its client after a while and undoes it", async () => {
  const portal = clients();
  assert.is(await portal.ensure('gamma'), 'portal.gamma');
  await commands.updateClient(
    'portal.gamma',
    { redirectUris: ['https://elsewhere.example/cb'] },
    { ...ctx, tenant: 'gamma' },
    'spec/edit-gamma',
  );
  await portal.ensure('gamma');
  assert.equal((await directory().getClient('portal.gamma'))!.redirectUris, ['https://elsewhere.example/cb']);
  clock.advance(5 * 60_000 + 1);
  await portal.ensure('gamma');
  assert.equal((await directory().getClient('portal.gamma'))!.redirectUris, [
    'https://platform.example/portal/auth/callback',
  ]);
});

test('the reactor registers the portal client of every tenant created', async () => {
  const portal = clients();
  const reactor = createPortalClientsReactor({ eventStore, readStore, clock, ensure: portal.ensure });
  await commands.createTenant({ name: 'epsilon' }, { ...ctx, tenant: 'epsilon' }, 'spec/tenant/epsilon');
  assert.ok((await reactor.drain()) >= 5);
  assert.is((await directory().getClient('portal.epsilon'))?.tenant, 'epsilon');
  assert.is((await directory().getClient('portal.gamma'))?.tenant, 'gamma');
});

test.run();
