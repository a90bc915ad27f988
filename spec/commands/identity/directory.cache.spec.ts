// The identity directory in memory (commands/identity/directory.cache.ts) as the log reader feeds it: these
// tests hand it the log's pages themselves (readAll → handle), without a reader.
// Two "processes" share one SQLite file: a second store instance writes, as another process would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createDirectoryCache,
  DIRECTORY_CATEGORIES,
  type DirectoryCache,
} from '../../../commands/identity/directory.cache.ts';
import { createDirectoryCommands, type DirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory, type DirectoryService } from '../../../commands/identity/directory.lookups.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { EventStore, ReadStreamOptions } from '../../../infra/core/event-store.port.ts';
import { START } from '../../../infra/core/position.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const FAST = { N: 1024, r: 8, p: 1 };
const sys = { tenant: 'acme', actor: 'spec' };

type Reads = { whole: number; revisionChecks: number; newer: number };
type Ctx = {
  dir: string;
  store: SqliteEventStore;
  /** another process's connection to the same file */
  other: SqliteEventStore;
  reads: Reads;
  cache: DirectoryCache;
  directory: DirectoryService;
  here: DirectoryCommands;
  elsewhere: DirectoryCommands;
  clock: ReturnType<typeof manualClock>;
};

const test = suite<Ctx>('directory cache');

/** The store this process's directory reads through, counting what it asks. */
function counting(store: EventStore, reads: Reads): EventStore {
  return {
    ...store,
    async readStream(stream: string, options: ReadStreamOptions = {}) {
      if (options.direction === 'backwards' && options.limit === 1) reads.revisionChecks += 1;
      else if (options.fromRevision !== undefined) reads.newer += 1;
      else reads.whole += 1;
      return store.readStream(stream, options);
    },
  };
}

/** What the log reader does for this consumer: start, then every page of its categories after its position. */
async function feed(ctx: Ctx, from?: string): Promise<string> {
  let position = from ?? (await ctx.cache.start());
  for (;;) {
    const events = await ctx.store.readAll({ after: position, filter: ctx.cache.filter, limit: 3 });
    if (events.length === 0) return position;
    position = await ctx.cache.handle({ events, position: events[events.length - 1]!.position });
  }
}

const resetReads = (ctx: Ctx) => Object.assign(ctx.reads, { whole: 0, revisionChecks: 0, newer: 0 });

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'directory-cache-'));
  const file = path.join(ctx.dir, 'events.sqlite');
  ctx.store = createSqliteEventStore({ file });
  ctx.other = createSqliteEventStore({ file });
  ctx.clock = manualClock('2026-03-01T10:00:00.000Z');
  ctx.reads = { whole: 0, revisionChecks: 0, newer: 0 };
  const eventStore = counting(ctx.store, ctx.reads);
  ctx.cache = createDirectoryCache({ eventStore });
  ctx.directory = createDirectory({ eventStore, clock: ctx.clock, cache: ctx.cache });
  ctx.here = createDirectoryCommands({ eventStore: ctx.store, clock: ctx.clock, scrypt: FAST });
  ctx.elsewhere = createDirectoryCommands({ eventStore: ctx.other, clock: ctx.clock, scrypt: FAST });
  await ctx.here.createTenant({ name: 'Acme', tokenLifetimeSeconds: 600 }, sys, 't-acme');
  await ctx.here.registerUser({ username: 'svc', password: 'machine password', name: 'Service' }, sys, 'u-svc');
});

test.after.each(async (ctx) => {
  await ctx.store.close();
  await ctx.other.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const registerClient = (commands: DirectoryCommands, clientId: string, commandId = `c-${clientId}`) =>
  commands.registerClient({ clientId, grantTypes: ['client_credentials'], defaultUser: 'svc' }, sys, commandId);

test('a LogConsumer of the directory categories; start() forgets everything and answers START', async (ctx) => {
  assert.is(ctx.cache.name, 'identity.directory-cache');
  assert.equal(ctx.cache.filter, { categories: DIRECTORY_CATEGORIES });
  assert.equal([...DIRECTORY_CATEGORIES].sort(), ['client', 'tenant', 'user', 'username']);
  const { clientSecret } = await registerClient(ctx.here, 'app');
  const head = await feed(ctx);
  assert.is(head, await ctx.store.headPosition());
  assert.ok(ctx.cache.live());
  resetReads(ctx);
  const client = (await ctx.directory.getClient('app'))!;
  assert.is(client.defaultUser !== undefined, true);
  assert.equal(
    ctx.reads,
    { whole: 0, revisionChecks: 0, newer: 0 },
    'memory has seen the whole log: a client is served from it',
  );
  assert.is(ctx.cache.stats().atHead, 1);
  assert.is(await ctx.directory.verifyClientSecret(client, clientSecret!), true);

  assert.is(await ctx.cache.start(), START);
  assert.not.ok(ctx.cache.live(), 'not live again until it has caught up');
  resetReads(ctx);
  await ctx.directory.getClient('app');
  assert.is(ctx.reads.whole, 1, 'forgotten: read from the store');
});

test('tenant lifetimes come from memory once it follows the log; before that they are confirmed', async (ctx) => {
  resetReads(ctx);
  assert.is((await ctx.directory.getTenant('acme'))?.tokenLifetimeSeconds, 600);
  assert.is((await ctx.directory.getTenant('acme'))?.tokenLifetimeSeconds, 600);
  assert.equal(ctx.reads, { whole: 1, revisionChecks: 1, newer: 0 }, 'no reader yet: read through, then confirmed');

  const position = await feed(ctx);
  resetReads(ctx);
  for (let i = 0; i < 5; i++) assert.is((await ctx.directory.getTenant('acme'))?.tokenLifetimeSeconds, 600);
  assert.equal(ctx.reads, { whole: 0, revisionChecks: 0, newer: 0 }, 'live: memory alone');

  // another process shortens the lifetime: memory follows as soon as the reader hands it the event
  await ctx.elsewhere.updateTenant({ tokenLifetimeSeconds: 300 }, sys, 't-acme-2');
  await feed(ctx, position);
  assert.is((await ctx.directory.getTenant('acme'))?.tokenLifetimeSeconds, 300);
  assert.equal(ctx.reads, { whole: 0, revisionChecks: 0, newer: 0 });
  assert.is(await ctx.directory.getTenant('nowhere'), null);
});

test('a client registered a moment ago by another process is found (a miss reads the stream)', async (ctx) => {
  await feed(ctx);
  const { clientSecret } = await registerClient(ctx.elsewhere, 'fresh');
  resetReads(ctx);
  const client = await ctx.directory.getClient('fresh');
  assert.is(client?.clientId, 'fresh');
  assert.is(ctx.reads.whole, 1);
  assert.is(await ctx.directory.verifyClientSecret(client!, clientSecret!), true);
  // now in memory, but memory has not seen the whole log (the reader is behind): the revision is confirmed
  resetReads(ctx);
  await ctx.directory.getClient('fresh');
  assert.equal(ctx.reads, { whole: 0, revisionChecks: 1, newer: 0 });
  // an unknown client is not remembered (probing ids cannot grow memory), and stays unknown
  assert.is(await ctx.directory.getClient('nobody'), null);
  assert.is(await ctx.directory.getClient('nobody'), null);
});

test('security decisions are never served stale: a disabled client, a rotated secret, a disabled user', async (ctx) => {
  const { client: registered, clientSecret } = await registerClient(ctx.here, 'app');
  await feed(ctx); // memory is live and holds the client
  const before = (await ctx.directory.getClient('app'))!;
  assert.is(await ctx.directory.verifyClientSecret(before, clientSecret!), true);

  // another process disables it; this process's reader has not seen the event yet
  await ctx.elsewhere.disableClient('app', sys, 'c-off');
  resetReads(ctx);
  assert.is((await ctx.directory.getClient('app'))?.status, 'disabled', 'seen at once, without the reader');
  assert.equal(ctx.reads, { whole: 0, revisionChecks: 1, newer: 1 }, 'only the newer event was read');
  await ctx.elsewhere.enableClient('app', sys, 'c-on');

  // the secret is rotated elsewhere: the old one is refused at once, though it was verified (and remembered)
  const rotated = await ctx.elsewhere.rotateClientSecret('app', sys, 'c-rotate');
  const after = (await ctx.directory.getClient('app'))!;
  assert.is(after.status, 'active');
  assert.is(await ctx.directory.verifyClientSecret(after, clientSecret!), false, 'the old secret is dead');
  assert.is(await ctx.directory.verifyClientSecret(after, rotated.clientSecret!), true);

  // a user disabled elsewhere
  const user = (await ctx.directory.getUser('acme', registered.defaultUser!))!;
  assert.is(user.status, 'active');
  await ctx.elsewhere.disableUser(user.userId, sys, 'u-off');
  assert.is((await ctx.directory.getUser('acme', user.userId))?.status, 'disabled');
  assert.is(await ctx.directory.authenticate('acme', 'default', 'svc', 'machine password'), null);
});

test('memory folds the events it is handed; what a lookup read first is not folded twice', async (ctx) => {
  await registerClient(ctx.here, 'app');
  // a lookup reads the stream before the reader has handed over anything
  assert.is((await ctx.directory.getClient('app'))?.scopes.length, 0);
  await ctx.here.updateClient('app', { scopes: ['audit:read'] }, sys, 'c-scopes');
  await feed(ctx);
  resetReads(ctx);
  assert.equal((await ctx.directory.getClient('app'))?.scopes, ['audit:read']);
  assert.equal(ctx.reads, { whole: 0, revisionChecks: 0, newer: 0 });
  const stats = ctx.cache.stats();
  assert.ok(stats.folded > 0 && stats.atHead > 0);
});

test('a gap in what memory saw drops the entry; the next lookup reads the stream', async (ctx) => {
  await registerClient(ctx.here, 'app');
  const position = await feed(ctx);
  await ctx.here.updateClient('app', { scopes: ['a:1'] }, sys, 'c-1');
  await ctx.here.updateClient('app', { scopes: ['a:2'] }, sys, 'c-2');
  // hand over only the last event: the one before it is missing
  const events = await ctx.store.readAll({ after: position, filter: ctx.cache.filter });
  await ctx.cache.handle({ events: events.slice(-1), position: events[events.length - 1]!.position });
  resetReads(ctx);
  assert.equal((await ctx.directory.getClient('app'))?.scopes, ['a:2']);
  assert.is(ctx.reads.whole, 1, 'read whole: memory had dropped it');
});

test.run();
