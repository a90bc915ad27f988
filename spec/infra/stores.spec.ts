import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NoStoreError, openCommandStores, openStores } from '../../infra/stores.ts';

// Run in its own process (npm test spawns one per file): the module cache holds only what this file loaded.
const loaded = (pkg: string) =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes(`/node_modules/${pkg}/`));

test('the embedded default opens SQLite stores without loading the production drivers (about 50 MB resident)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stores-'));
  const stores = await openStores({
    dataDir: dir,
    esdbUrl: undefined,
    mongodbUrl: undefined,
    mongodbDatabase: 'platform',
  });
  try {
    assert.equal(stores.kinds, { eventStore: 'sqlite', readStore: 'sqlite' });
    await stores.eventStore.append(
      'probe-1',
      [
        {
          id: '00000000-0000-4000-8000-000000000001',
          type: 'Probed',
          data: {},
          metadata: { tenant: 'platform', occurredAt: new Date().toISOString(), schemaVersion: 1 },
        },
      ],
      'no_stream',
    );
    assert.is((await stores.eventStore.readStream('probe-1')).length, 1);
    assert.not.ok(loaded('mongodb'), 'mongodb was loaded');
    assert.not.ok(loaded('@eventstore/db-client'), '@eventstore/db-client was loaded');
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a configured MongoDB URL loads its adapter on demand', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stores-'));
  // the driver connects lazily: opening the store touches no server
  const stores = await openStores({
    dataDir: dir,
    esdbUrl: undefined,
    mongodbUrl: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200',
    mongodbDatabase: 'platform',
  });
  try {
    assert.equal(stores.kinds, { eventStore: 'sqlite', readStore: 'mongodb' });
    assert.ok(loaded('mongodb'));
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a one-shot command's stores: no events.sqlite in DATA_DIR is a NoStoreError, and nothing is created", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stores-'));
  try {
    for (const mongodbUrl of [undefined, 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200']) {
      try {
        await openCommandStores({
          dataDir: path.join(dir, 'data'),
          esdbUrl: undefined,
          mongodbUrl,
          mongodbDatabase: 'platform',
        });
        assert.unreachable('opened');
      } catch (e) {
        assert.ok(e instanceof NoStoreError, String(e));
        assert.is(e.dataDir, path.join(dir, 'data'));
      }
    }
    assert.equal(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a one-shot command's stores: the log in EventStoreDB (ESDB_URL) is not looked for in DATA_DIR; a missing read store is created", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stores-'));
  // the client connects lazily: opening touches no server
  const stores = await openCommandStores({
    dataDir: dir,
    esdbUrl: 'esdb://127.0.0.1:1?tls=false',
    mongodbUrl: undefined,
    mongodbDatabase: 'platform',
  });
  try {
    assert.equal(stores.kinds, { eventStore: 'eventstoredb', readStore: 'sqlite' });
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
