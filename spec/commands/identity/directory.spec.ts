import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { derivedId } from '../../../commands/core/event-id.ts';
import { createDirectoryCommands, type DirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { verifySecret } from '../../../commands/identity/password.hash.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { RESERVATION_GRACE_MS } from '../../../domain/identity/username.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

// cheap scrypt for the bulk of the tests; password.hash.spec.ts covers the real cost
const FAST = { N: 1024, r: 8, p: 1 };
const ctx = { tenant: 'acme', actor: 'admin@acme', correlationId: 'corr-1', causationId: 'req-1' };

type Ctx = {
  dir: string;
  file: string;
  eventStore: EventStore;
  clock: ReturnType<typeof manualClock>;
  commands: DirectoryCommands;
  directory: ReturnType<typeof createDirectory>;
};
const it = suite<Ctx>('directory', {} as Ctx);

it.before.each(async (c) => {
  c.dir = mkdtempSync(path.join(tmpdir(), 'directory-'));
  c.file = path.join(c.dir, 'events.sqlite');
  c.eventStore = createSqliteEventStore({ file: c.file });
  c.clock = manualClock('2026-03-01T10:00:00.000Z');
  c.commands = createDirectoryCommands({ eventStore: c.eventStore, clock: c.clock, scrypt: FAST });
  c.directory = createDirectory({ eventStore: c.eventStore, clock: c.clock });
  await c.commands.createTenant({ name: 'Acme', supportMailGroup: 'support@acme.example' }, ctx, 't-acme');
});
it.after.each(async (c) => {
  await c.eventStore.close();
  rmSync(c.dir, { recursive: true, force: true });
});

const rejects = async (p: Promise<unknown>, code: string, status?: number) => {
  try {
    await p;
  } catch (err) {
    assert.ok(isDomainError(err), `expected a DomainError, got ${String(err)}`);
    assert.is(err.code, code);
    if (status !== undefined) assert.is(err.status, status);
    return err;
  }
  throw new assert.Assertion({
    message: `expected ${code}`,
    generated: false,
    operator: 'rejects',
    expects: code,
    actual: 'resolved',
  });
};

const ann = {
  username: 'Ann',
  password: 'correct horse battery',
  name: 'Ann Lee',
  email: 'ann@acme.example',
  roles: ['identity:admin'],
};

it('tenant: created with the default token lifetime, read back from its stream', async ({ directory, commands }) => {
  const t = await directory.getTenant('acme');
  assert.equal(t, {
    code: 'acme',
    name: 'Acme',
    tokenLifetimeSeconds: 7200,
    supportMailGroup: 'support@acme.example',
    status: 'active',
  });
  const { tenant, changed } = await commands.updateTenant(
    { tokenLifetimeSeconds: 600, supportMailGroup: null },
    ctx,
    't-acme-2',
  );
  assert.ok(changed);
  assert.equal(tenant, { code: 'acme', name: 'Acme', tokenLifetimeSeconds: 600, status: 'active' });
  assert.equal(await directory.getTenant('acme'), tenant);
  assert.is(await directory.getTenant('nobody'), null);
  assert.is(await directory.getTenant('Bad.Code'), null, 'a malformed code is simply not found');
  await rejects(commands.createTenant({ name: 'Again' }, ctx, 't-other'), 'TENANT.ALREADY_EXISTS', 409);
  await rejects(commands.updateTenant({ name: 'x' }, forTenant(ctx, 'nobody'), 't-x'), 'TENANT.NOT_FOUND', 404);
});

it('register a user, look them up by username (any case) and id, verify the password', async ({
  directory,
  commands,
}) => {
  const { user, created } = await commands.registerUser(ann, ctx, 'cmd-ann');
  assert.ok(created);
  assert.is(user.username, 'Ann');
  assert.is(user.directory, 'default');
  assert.ok(user.passwordHash.startsWith('scrypt$'));
  const found = await directory.findUserByUsername('acme', 'default', 'ann');
  assert.is(found?.userId, user.userId);
  assert.equal(await directory.getUser('acme', user.userId), found);
  assert.is(await directory.verifyPassword(found!, 'correct horse battery'), true);
  assert.is(await directory.verifyPassword(found!, 'wrong horse battery'), false);
  assert.is((await directory.authenticate('acme', 'default', 'ANN', 'correct horse battery'))?.userId, user.userId);
  assert.is(await directory.authenticate('acme', 'default', 'ann', 'nope'), null);
  assert.is(await directory.authenticate('acme', 'default', 'nobody', 'correct horse battery'), null);
  assert.is(await directory.findUserByUsername('acme', 'default', 'nobody'), null);
  assert.is(await directory.findUserByUsername('acme', 'ldap', 'ann'), null, 'another directory');
  assert.is(await directory.findUserByUsername('globex', 'default', 'ann'), null, 'another tenant');
});

it('a disabled user cannot sign in with the right password; enabled again, it can', async ({ directory, commands }) => {
  const { user } = await commands.registerUser(ann, ctx, 'cmd-ann');
  const { user: disabled, changed } = await commands.disableUser(user.userId, ctx, 'cmd-disable');
  assert.ok(changed);
  assert.is(disabled.status, 'disabled');
  const found = await directory.findUserByUsername('acme', 'default', 'ann');
  assert.is(await directory.verifyPassword(found!, 'correct horse battery'), false);
  assert.is(await directory.authenticate('acme', 'default', 'ann', 'correct horse battery'), null);
  assert.is(
    (await commands.disableUser(user.userId, ctx, 'cmd-disable-2')).changed,
    false,
    'disabling twice changes nothing',
  );
  await commands.enableUser(user.userId, ctx, 'cmd-enable');
  assert.is(
    await directory.verifyPassword((await directory.getUser('acme', user.userId))!, 'correct horse battery'),
    true,
  );
});

it('reset password: the old one stops working, the new one works', async ({ directory, commands }) => {
  const { user } = await commands.registerUser(ann, ctx, 'cmd-ann');
  await commands.resetPassword(user.userId, 'a brand new password', ctx, 'cmd-reset');
  const after = (await directory.getUser('acme', user.userId))!;
  assert.is(await directory.verifyPassword(after, 'correct horse battery'), false);
  assert.is(await directory.verifyPassword(after, 'a brand new password'), true);
  await rejects(commands.resetPassword(user.userId, 'short', ctx, 'cmd-reset-2'), 'USER.INVALID', 400);
  await rejects(commands.resetPassword('nobody', 'long enough pw', ctx, 'cmd-reset-3'), 'USER.NOT_FOUND', 404);
});

it('two concurrent registrations of one username: exactly one wins', async ({ directory, commands }) => {
  const attempts = await Promise.allSettled(
    ['a', 'b', 'c', 'd'].map((k) =>
      commands.registerUser({ ...ann, username: k === 'a' ? 'bob' : 'Bob', name: `Bob ${k}` }, ctx, `cmd-bob-${k}`),
    ),
  );
  const won = attempts.filter((a) => a.status === 'fulfilled');
  const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
  assert.is(won.length, 1);
  assert.is(lost.length, 3);
  for (const l of lost) {
    assert.ok(isDomainError(l.reason), String(l.reason));
    assert.is(l.reason.code, 'USER.USERNAME_TAKEN');
    assert.is(l.reason.status, 409);
  }
  const winner = (won[0] as PromiseFulfilledResult<{ user: { userId: string } }>).value.user;
  assert.is((await directory.findUserByUsername('acme', 'default', 'BOB'))?.userId, winner.userId);
});

it('a retry with the same command id answers the same user and writes nothing', async ({ commands, eventStore }) => {
  const first = await commands.registerUser(ann, ctx, 'cmd-ann');
  const count = (await eventStore.readAll({ limit: 1000 })).length;
  const second = await commands.registerUser(ann, ctx, 'cmd-ann');
  assert.is(second.created, false);
  assert.is(second.user.userId, first.user.userId);
  assert.is((await eventStore.readAll({ limit: 1000 })).length, count);
  await rejects(
    commands.registerUser({ ...ann, username: 'other' }, ctx, 'cmd-ann'),
    'REQUEST.IDEMPOTENCY_KEY_REUSED',
    422,
  );
  await rejects(commands.registerUser(ann, ctx, 'cmd-ann-again'), 'USER.USERNAME_TAKEN', 409);
});

it('the process dies between reservation and user: nothing half-written shows, a retry completes it', async (c) => {
  let crash = true;
  const flaky: EventStore = {
    ...c.eventStore,
    async append(stream, events, expected) {
      if (crash && stream.startsWith('user-')) {
        crash = false;
        throw new Error('simulated crash before the user append');
      }
      return c.eventStore.append(stream, events, expected);
    },
  };
  const commands = createDirectoryCommands({ eventStore: flaky, clock: c.clock, scrypt: FAST });
  try {
    await commands.registerUser(ann, ctx, 'cmd-crash');
    assert.unreachable();
  } catch (err) {
    assert.match(String(err), /simulated crash/);
  }
  assert.is(await c.directory.findUserByUsername('acme', 'default', 'ann'), null, 'no user behind the reservation');
  // someone else wants the name before the grace period: still held
  await rejects(commands.registerUser({ ...ann, name: 'Other Ann' }, ctx, 'cmd-other'), 'USER.USERNAME_TAKEN', 409);
  // the retry of the same command completes the registration
  const { user, created } = await commands.registerUser(ann, ctx, 'cmd-crash');
  assert.ok(created);
  assert.is(user.userId, derivedId('user/acme/cmd-crash'));
  assert.is((await c.directory.findUserByUsername('acme', 'default', 'ann'))?.userId, user.userId);
});

it('a stranded reservation nobody retries is reclaimed after the grace period', async (c) => {
  let crash = true;
  const flaky: EventStore = {
    ...c.eventStore,
    async append(stream, events, expected) {
      if (crash && stream.startsWith('user-')) {
        crash = false;
        throw new Error('simulated crash');
      }
      return c.eventStore.append(stream, events, expected);
    },
  };
  const commands = createDirectoryCommands({ eventStore: flaky, clock: c.clock, scrypt: FAST });
  await commands.registerUser(ann, ctx, 'cmd-lost').catch(() => undefined);
  c.clock.advance(RESERVATION_GRACE_MS);
  const { user, created } = await commands.registerUser(ann, ctx, 'cmd-new');
  assert.ok(created);
  assert.is((await c.directory.findUserByUsername('acme', 'default', 'ann'))?.userId, user.userId);
  // the lost command, retried late, must not create a second "ann"
  await rejects(commands.registerUser(ann, ctx, 'cmd-lost'), 'USER.USERNAME_TAKEN', 409);
  assert.is(await c.directory.getUser('acme', derivedId('user/acme/cmd-lost')), null);
});

it('registration is validated before anything is written', async ({ commands, eventStore }) => {
  const before = (await eventStore.readAll({ limit: 1000 })).length;
  await rejects(commands.registerUser({ ...ann, email: 'not-an-address' }, ctx, 'cmd-bad-1'), 'USER.INVALID', 400);
  await rejects(commands.registerUser({ ...ann, username: 'has space' }, ctx, 'cmd-bad-2'), 'USER.INVALID', 400);
  await rejects(commands.registerUser({ ...ann, password: 'short' }, ctx, 'cmd-bad-3'), 'USER.INVALID', 400);
  await rejects(commands.registerUser(ann, forTenant(ctx, 'globex'), 'cmd-bad-4'), 'TENANT.NOT_FOUND', 404);
  assert.is((await eventStore.readAll({ limit: 1000 })).length, before);
});

it('events carry the owning tenant and the caller context in metadata', async ({ commands, eventStore }) => {
  const { user } = await commands.registerUser(ann, ctx, 'cmd-ann');
  const [e] = await eventStore.readStream(`user-acme.${user.userId}`);
  assert.is(e?.type, 'UserRegistered');
  assert.is(e?.metadata.tenant, 'acme');
  assert.is(e?.metadata.actor, 'admin@acme');
  assert.is(e?.metadata.correlationId, 'corr-1');
  assert.is(e?.metadata.occurredAt, '2026-03-01T10:00:00.000Z');
});

it('confidential client: the secret is answered once, verified against its hash, rotated', async ({
  commands,
  directory,
}) => {
  const svc = await commands.registerUser({ username: 'svc', name: 'Service' }, ctx, 'cmd-svc');
  const reg = {
    appName: 'Portal',
    redirectUris: ['https://app.acme.example/cb'],
    grantTypes: ['authorization_code', 'client_credentials', 'refresh_token'],
    defaultUser: 'svc',
    scopes: ['identity:admin'],
  };
  const { client, clientSecret, created } = await commands.registerClient(reg, ctx, 'cmd-client');
  assert.ok(created);
  assert.match(clientSecret ?? '', /^[A-Za-z0-9_-]{43}$/, '256-bit secret');
  assert.is(client.authMethod, 'client_secret_basic', 'the spec default');
  assert.is(client.userSourceId, 'default');
  assert.is(client.defaultUser, svc.user.userId, 'default_user given as a username is stored as the user id');
  assert.is(client.clientId, derivedId('client/acme/cmd-client'));
  const stored = (await directory.getClient(client.clientId))!;
  assert.ok(stored.secretHash?.startsWith('scrypt$'));
  assert.is(await directory.verifyClientSecret(stored, clientSecret!), true);
  assert.is(await directory.verifyClientSecret(stored, clientSecret!), true, 'again (remembered)');
  assert.is(await directory.verifyClientSecret(stored, `${clientSecret!}x`), false);

  const retry = await commands.registerClient(reg, ctx, 'cmd-client');
  assert.is(retry.created, false);
  assert.is(retry.clientSecret, undefined, 'a retry cannot show the secret again');

  const rotated = await commands.rotateClientSecret(client.clientId, ctx, 'cmd-rotate');
  assert.ok(rotated.rotated && rotated.clientSecret !== undefined && rotated.clientSecret !== clientSecret);
  const after = (await directory.getClient(client.clientId))!;
  assert.is(await directory.verifyClientSecret(after, clientSecret!), false, 'the old secret is dead');
  assert.is(await directory.verifyClientSecret(after, rotated.clientSecret!), true);
});

it('overlapping checks of one secret share one scrypt; different secrets each get their own', async ({
  eventStore,
  clock,
  commands,
}) => {
  await commands.registerUser({ username: 'svc', name: 'Service' }, ctx, 'cmd-svc');
  const { client, clientSecret } = await commands.registerClient(
    {
      appName: 'Burst',
      redirectUris: [],
      grantTypes: ['client_credentials'],
      defaultUser: 'svc',
      scopes: ['identity:admin'],
    },
    ctx,
    'cmd-burst',
  );
  const checked: string[] = [];
  const directory = createDirectory({
    eventStore,
    clock,
    verifySecret: async (secret, hash) => {
      checked.push(secret);
      return verifySecret(secret, hash);
    },
  });
  const stored = (await directory.getClient(client.clientId))!;
  const burst = await Promise.all(
    Array.from({ length: 16 }, () => directory.verifyClientSecret(stored, clientSecret!)),
  );
  assert.equal(
    burst,
    Array.from({ length: 16 }, () => true),
  );
  assert.is(checked.length, 1, 'sixteen at once: one scrypt');
  assert.is(await directory.verifyClientSecret(stored, clientSecret!), true, 'then remembered');
  assert.is(checked.length, 1);
  const wrong = await Promise.all(
    ['a', 'b', 'a'].map((w) => directory.verifyClientSecret(stored, `${clientSecret!}${w}`)),
  );
  assert.equal(wrong, [false, false, false]);
  assert.equal(
    checked.slice(1).sort(),
    [`${clientSecret!}a`, `${clientSecret!}b`],
    'one per distinct wrong secret, none remembered',
  );
  assert.is(await directory.verifyClientSecret(stored, `${clientSecret!}a`), false);
  assert.is(checked.length, 4, 'a wrong secret is checked again when asked again');
});

it('public client: no secret, never verifies; cannot be rotated', async ({ commands, directory }) => {
  const { client, clientSecret } = await commands.registerClient(
    {
      clientId: 'spa',
      redirectUris: ['http://localhost:5173/cb'],
      grantTypes: ['authorization_code'],
      authMethod: 'none',
    },
    ctx,
    'cmd-spa',
  );
  assert.is(clientSecret, undefined);
  assert.is(client.secretHash, undefined);
  assert.is(await directory.verifyClientSecret(client, 'anything'), false);
  await rejects(commands.rotateClientSecret('spa', ctx, 'cmd-rot'), 'CLIENT.NO_SECRET', 400);
  await rejects(
    commands.registerClient(
      {
        clientId: 'spa',
        redirectUris: ['http://localhost/cb'],
        grantTypes: ['authorization_code'],
        authMethod: 'none',
      },
      ctx,
      'cmd-spa-2',
    ),
    'CLIENT.ALREADY_EXISTS',
    409,
  );
});

it('client registration rules reach the caller as 400 with field names; references are checked', async ({
  commands,
}) => {
  const err = await rejects(
    commands.registerClient({ grantTypes: ['authorization_code', 'implicit'] }, ctx, 'c-1'),
    'CLIENT.INVALID',
    400,
  );
  const fields = (err as { details: Array<{ field: string }> }).details.map((d) => d.field);
  assert.ok(fields.includes('grant_type') && fields.includes('signin_redirect_url'), fields.join());
  await rejects(
    commands.registerClient({ grantTypes: ['client_credentials'], defaultUser: 'ghost' }, ctx, 'c-2'),
    'CLIENT.INVALID',
    400,
  );
  await rejects(
    commands.registerClient(
      { grantTypes: ['authorization_code'], redirectUris: ['https://a.example/cb'], allowedAccessTenants: ['nowhere'] },
      ctx,
      'c-3',
    ),
    'CLIENT.INVALID',
    400,
  );
  await rejects(
    commands.registerClient(
      { grantTypes: ['authorization_code'], redirectUris: ['https://a.example/cb'] },
      forTenant(ctx, 'globex'),
      'c-4',
    ),
    'TENANT.NOT_FOUND',
    404,
  );
});

it('update, disable and enable a client', async ({ commands, directory }) => {
  const { client } = await commands.registerClient(
    { redirectUris: ['https://a.example/cb'], grantTypes: ['authorization_code'] },
    ctx,
    'c-upd',
  );
  const up = await commands.updateClient(
    client.clientId,
    { appName: 'Renamed', redirectUris: ['https://a.example/cb', 'https://b.example/cb'] },
    ctx,
    'c-upd-1',
  );
  assert.ok(up.changed);
  assert.equal(up.client.redirectUris, ['https://a.example/cb', 'https://b.example/cb']);
  assert.is((await commands.updateClient(client.clientId, { appName: 'Renamed' }, ctx, 'c-upd-2')).changed, false);
  await commands.disableClient(client.clientId, ctx, 'c-dis');
  assert.is((await directory.getClient(client.clientId))?.status, 'disabled');
  await commands.enableClient(client.clientId, ctx, 'c-en');
  assert.is((await directory.getClient(client.clientId))?.status, 'active');
  await rejects(commands.disableClient('nobody', ctx, 'c-x'), 'CLIENT.NOT_FOUND', 404);
  assert.is(await directory.getClient('no such client'), null);
});

it('no secret and no password is ever stored in clear: the events table holds only hashes', async (c) => {
  const password = 'my very secret password';
  await c.commands.registerUser({ ...ann, password }, ctx, 'cmd-ann');
  const { clientSecret } = await c.commands.registerClient(
    { redirectUris: ['https://a.example/cb'], grantTypes: ['authorization_code'] },
    ctx,
    'cmd-secret',
  );
  const given = await c.commands.registerClient(
    {
      clientId: 'seeded',
      redirectUris: ['https://a.example/cb'],
      grantTypes: ['authorization_code'],
      clientSecret: 'operator-chosen-secret',
    },
    ctx,
    'cmd-given',
  );
  const rotated = await c.commands.rotateClientSecret(given.client.clientId, ctx, 'cmd-rot');
  const reset = 'another secret password';
  const user = await c.directory.findUserByUsername('acme', 'default', 'ann');
  await c.commands.resetPassword(user!.userId, reset, ctx, 'cmd-reset');

  const db = new Database(c.file, { readonly: true });
  const rows = db.prepare('SELECT data, metadata FROM events').all() as Array<{ data: string; metadata: string }>;
  db.close();
  const everything = rows.map((r) => r.data + r.metadata).join('\n');
  for (const secret of [password, clientSecret!, 'operator-chosen-secret', rotated.clientSecret!, reset]) {
    assert.not.ok(everything.includes(secret), 'a secret in clear in the log');
    assert.not.ok(everything.includes(Buffer.from(secret).toString('base64')), 'a secret in base64 in the log');
  }
  assert.ok(everything.includes('scrypt$'), 'the hashes are there');
});

it.run();
