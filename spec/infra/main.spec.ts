import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../commands/core/event-id.ts';
import { loadConfig } from '../../infra/core/config.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { StoreUnavailableError } from '../../infra/core/store-errors.ts';
import { createEsdbEventStore } from '../../infra/esdb/event-store.esdb.ts';
import { startPlatform } from '../../infra/main.ts';
import { createSqliteEventStore } from '../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../infra/sqlite/read-store.sqlite.ts';
import { readModel } from '../../projections/core/read-model.ts';
import { eventually } from '../core/eventually.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'main-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  OUTBOUND_ALLOW: '127.0.0.1,::1,localhost',
});
const log = pino({ level: 'silent' });
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The SQLite event store behind a switch: while `down`, every call fails as a lost connection would. */
function switchable(inner: EventStore) {
  const state = { down: false };
  const guard = () => {
    if (state.down) throw new StoreUnavailableError('sqlite', 'simulated outage');
  };
  const store: EventStore = {
    append: async (...a) => (guard(), inner.append(...a)),
    appendMany: async (...a) => (guard(), inner.appendMany(...a)),
    async *subscribePages(o) {
      guard();
      for await (const page of inner.subscribePages(o)) {
        guard();
        yield page;
      }
    },
    readStream: async (...a) => (guard(), inner.readStream(...a)),
    readAll: async (...a) => (guard(), inner.readAll(...a)),
    async *subscribeAll(o) {
      guard();
      for await (const e of inner.subscribeAll(o)) {
        guard();
        yield e;
      }
    },
    headPosition: async () => (guard(), inner.headPosition()),
    ping: async () => (guard(), inner.ping()),
    close: () => inner.close(),
  };
  return { store, state };
}

const ev = (n: number) => ({
  id: eventIdFor(`m${n}`, 0),
  type: 'ThingHappened',
  data: { n },
  metadata: { tenant: 't', occurredAt: `2026-11-22T00:00:${String(n).padStart(2, '0')}.000Z`, schemaVersion: 1 },
});

test('a store outage: ready answers 503 while it lasts, the process stays up, and projections recover after', async () => {
  const sqlite = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
  const { store, state } = switchable(sqlite);
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const platform = await startPlatform({
    config,
    log,
    stores: {
      eventStore: store,
      readStore,
      kinds: { eventStore: 'sqlite', readStore: 'sqlite' },
      close: async () => {
        await sqlite.close();
        await readStore.close();
      },
    },
  });
  const ready = () => fetch(`${platform.url}/health/ready`);
  const streams = readModel(readStore, 'core.streams', 'streams');
  await sqlite.append('thing-t.1', [ev(1)], 'no_stream');
  await eventually(async () => (await streams.get('thing-t.1')) !== null, 'first projection');
  assert.is((await ready()).status, 200);

  state.down = true;
  await eventually(async () => (await ready()).status === 503, 'ready 503');
  const report = (await (await ready()).json()) as { checks: Array<{ name: string; ok: boolean; detail?: string }> };
  const es = report.checks.find((c) => c.name === 'eventStore')!;
  assert.is(es.ok, false);
  assert.match(es.detail!, /simulated outage/);
  assert.is((await fetch(`${platform.url}/health/live`)).status, 200, 'the process stays up');
  await sqlite.append('thing-t.2', [ev(2)], 'no_stream'); // another process keeps writing meanwhile

  state.down = false;
  await eventually(async () => (await ready()).status === 200, 'ready 200 again');
  await eventually(async () => (await streams.get('thing-t.2')) !== null, 'projection caught up after the outage');
  await platform.stop();
});

test('EventStoreDB unreachable: /health/ready 503 naming the event store', async () => {
  const eventStore = createEsdbEventStore({ connectionString: 'esdb://127.0.0.1:1?tls=false' });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read2.sqlite') });
  const platform = await startPlatform({
    config,
    log,
    workers: false,
    stores: {
      eventStore,
      readStore,
      kinds: { eventStore: 'eventstoredb', readStore: 'sqlite' },
      close: async () => {
        await eventStore.close();
        await readStore.close();
      },
    },
  });
  const res = await fetch(`${platform.url}/health/ready`);
  assert.is(res.status, 503);
  const body = (await res.json()) as { ok: boolean; checks: Array<{ name: string; ok: boolean }> };
  assert.is(body.ok, false);
  assert.equal(
    body.checks.map((c) => [c.name, c.ok]),
    [
      ['eventStore', false],
      ['readStore', true],
    ],
  );
  await platform.stop();
});

test.run();
