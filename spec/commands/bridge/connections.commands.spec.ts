// Connections and API destinations against real SQLite stores: secrets are sealed before they reach the
// log (the events table's data column never holds them in clear, nor the read models' file), answers mask
// them, the delivery's reader opens them, and a store opened with another key-encryption secret cannot.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createApiDestinationCommands,
  createApiDestinationReader,
} from '../../../commands/bridge/api-destinations.commands.ts';
import { createConnectionCommands, createConnectionReader } from '../../../commands/bridge/connections.commands.ts';
import { createSecretBox } from '../../../commands/core/secret.box.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import {
  createIntegrationQueries,
  integrationsProjection,
} from '../../../projections/bridge/integrations.projection.ts';
import { applyBatch, projectionFilter } from '../../../projections/core/apply-batch.ts';
import { initCheckpoint, readCheckpoint } from '../../../projections/core/checkpoints.ts';

const SECRET = 'spec-key-encryption-secret-0123456789abcdef';
const dir = mkdtempSync(path.join(tmpdir(), 'connections-'));
const eventsFile = path.join(dir, 'events.sqlite');
const readFile = path.join(dir, 'read-models.sqlite');
const eventStore = createSqliteEventStore({ file: eventsFile });
const readStore = createSqliteReadStore({ file: readFile });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const connections = createConnectionCommands({ eventStore, clock, secret: SECRET });
const reader = createConnectionReader({ eventStore, secret: SECRET });
const ctx = { tenant: 'acme', actor: 'spec@acme' };

// clear secrets with characters that JSON or base64 would not hide
const CLEAR = {
  password: 'pässwörd "quoted" \\ 1',
  token: 'fixed-bearer-token-0123456789',
  clientSecret: 'client secret+/=&%',
  apiKey: 'api-key-value-ABCDEF',
};

async function catchUp() {
  const p = integrationsProjection;
  await initCheckpoint(readStore, p, clock.now().toISOString());
  for (;;) {
    const cp = (await readCheckpoint(readStore, p.name))!;
    const page = await eventStore.readAll({ after: cp.position, filter: projectionFilter(p), limit: 500 });
    if (page.length === 0) return;
    await readStore.transaction((tx) => applyBatch(tx, p, page, clock.now().toISOString()));
  }
}

const test = suite('connections: secrets at rest');

test.after(async () => {
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('each kind is created; answers mask secrets; the reader opens them', async () => {
  const basic = await connections.create(
    { name: 'basic', auth: { kind: 'BASIC', username: 'svc', password: CLEAR.password } },
    ctx,
    'c-basic',
  );
  assert.equal(basic.connection.auth, { kind: 'BASIC', username: 'svc', password: '******' });
  await connections.create(
    { name: 'fixed', auth: { kind: 'BEARER', source: 'fixed', token: CLEAR.token } },
    ctx,
    'c-fixed',
  );
  await connections.create(
    {
      name: 'oauth',
      auth: {
        kind: 'OAUTH_CLIENT_CREDENTIALS',
        tokenUrl: 'https://idp.example/token',
        clientId: 'c1',
        clientSecret: CLEAR.clientSecret,
      },
    },
    ctx,
    'c-oauth',
  );
  await connections.create(
    { name: 'key', auth: { kind: 'API_KEY', headerName: 'X-Api-Key', value: CLEAR.apiKey } },
    ctx,
    'c-key',
  );

  assert.equal((await reader.resolve('acme', 'basic'))?.auth, {
    kind: 'BASIC',
    username: 'svc',
    password: CLEAR.password,
  });
  assert.equal((await reader.resolve('acme', 'fixed'))?.auth, { kind: 'BEARER', source: 'fixed', token: CLEAR.token });
  const oauth = (await reader.resolve('acme', 'oauth'))!.auth;
  assert.ok(
    oauth.kind === 'OAUTH_CLIENT_CREDENTIALS' &&
      oauth.clientSecret === CLEAR.clientSecret &&
      oauth.clientAuth === 'client_secret_basic' &&
      oauth.method === 'POST',
  );
  assert.equal((await reader.resolve('acme', 'key'))?.auth, {
    kind: 'API_KEY',
    headerName: 'X-Api-Key',
    value: CLEAR.apiKey,
  });
  assert.equal((await connections.get('acme', 'key'))?.auth, {
    kind: 'API_KEY',
    headerName: 'X-Api-Key',
    value: '******',
  });
  // another tenant sees nothing
  assert.is(await reader.resolve('globex', 'basic'), null);
  assert.is(await connections.get('globex', 'basic'), null);
});

test('update: a left-out secret is kept (still sealed), a new one replaces it', async () => {
  await connections.update('basic', { auth: { kind: 'BASIC', username: 'svc2' } }, ctx, 'u-basic-1');
  assert.equal((await reader.resolve('acme', 'basic'))?.auth, {
    kind: 'BASIC',
    username: 'svc2',
    password: CLEAR.password,
  });
  await connections.update(
    'basic',
    { auth: { kind: 'BASIC', username: 'svc2', password: `${CLEAR.password}-2` } },
    ctx,
    'u-basic-2',
  );
  assert.equal((await reader.resolve('acme', 'basic'))?.auth, {
    kind: 'BASIC',
    username: 'svc2',
    password: `${CLEAR.password}-2`,
  });
});

test('the events table never holds a secret in clear (data and metadata columns); nor the read models', async () => {
  await catchUp();
  const items = (await createIntegrationQueries(readStore).listConnections('acme', { limit: 10, offset: 0 })).items;
  assert.equal(
    items.map((c) => c.name),
    ['basic', 'fixed', 'key', 'oauth'],
  );
  await eventStore.close(); // flush the WAL into the file for the raw reads below
  await readStore.close();
  const db = new Database(eventsFile, { readonly: true });
  const rows = db.prepare(`SELECT type, data, metadata FROM events WHERE category = 'connection'`).all() as Array<{
    type: string;
    data: string;
    metadata: string;
  }>;
  db.close();
  assert.ok(rows.length >= 6, `connection events: ${rows.length}`);
  const clears = [...Object.values(CLEAR), `${CLEAR.password}-2`];
  const jsonForms = clears.flatMap((c) => [c, JSON.stringify(c).slice(1, -1), Buffer.from(c).toString('base64')]);
  for (const row of rows) {
    for (const s of jsonForms) {
      assert.not.ok(row.data.includes(s), `${row.type} data holds a secret in clear`);
      assert.not.ok(row.metadata.includes(s), `${row.type} metadata holds a secret`);
    }
    assert.match(row.data, /enc:v1:/);
  }
  const raw = new Database(readFile, { readonly: true });
  const tables = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const dump = JSON.stringify(raw.prepare(`SELECT * FROM "${name}"`).all());
    for (const s of jsonForms) assert.not.ok(dump.includes(s), `read model ${name} holds a secret`);
    assert.not.ok(dump.includes('enc:v1:'), `read model ${name} holds a sealed secret`);
  }
  raw.close();
});

test('another key-encryption secret cannot open them; a ciphertext moved to another field does not open', async () => {
  const store = createSqliteEventStore({ file: eventsFile });
  try {
    const other = createConnectionReader({ eventStore: store, secret: 'another-secret-of-at-least-32-characters!' });
    await other.resolve('acme', 'key').then(
      () => assert.unreachable('opened with the wrong secret'),
      (err: Error) => assert.match(err.message, /cannot decrypt a connection secret/),
    );
    const box = createSecretBox(SECRET);
    const sealed = box.seal('x', 'connection/acme/key/value');
    assert.is(box.open(sealed, 'connection/acme/key/value'), 'x');
    assert.throws(() => box.open(sealed, 'connection/acme/basic/password'), /cannot decrypt/);
  } finally {
    await store.close();
  }
});

test('API destinations: a named connection must exist; reader answers the destination', async () => {
  const store = createSqliteEventStore({ file: eventsFile });
  const cmds = createApiDestinationCommands({ eventStore: store, clock, secret: SECRET });
  try {
    const d = await cmds.create(
      {
        name: 'claims',
        urlTemplate: { url: 'https://api.example/claims', variables: {} },
        method: 'POST',
        connection: 'key',
      },
      ctx,
      'd-1',
    );
    assert.is(d.created, true);
    assert.equal(
      (await createApiDestinationReader({ eventStore: store, secret: SECRET, clock }).get('acme', 'claims'))
        ?.connection,
      'key',
    );
    try {
      await cmds.create(
        {
          name: 'other',
          urlTemplate: { url: 'https://api.example/x', variables: {} },
          method: 'POST',
          connection: 'nope',
        },
        ctx,
        'd-2',
      );
      assert.unreachable();
    } catch (err) {
      assert.ok(isDomainError(err) && err.code === 'API_DESTINATION.INVALID', String(err));
      assert.equal(err.details, [{ field: 'connection', message: 'no connection named nope' }]);
    }
  } finally {
    await store.close();
  }
});

test.run();
