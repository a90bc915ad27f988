import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createLogReader } from '../../../infra/core/log-reader.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { readCheckpoint } from '../../../projections/core/checkpoints.ts';
import { isPartitionOf, type Projection, partitionedName } from '../../../projections/core/projection.ts';
import { createProjectionGroup } from '../../../projections/core/projection-group.ts';
import { projectionStore } from '../../../projections/core/projection-store.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { rebuildProjection } from '../../../projections/core/rebuild.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';

type Ctx = { dir: string; eventStore: EventStore; readStore: ReadStore };
const test = suite<Ctx>('projections: partitioned collections (one physical collection per tenant)', {} as Ctx);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'partitioned-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let n = 0;
async function emit(store: EventStore, tenant: string, colour: string) {
  const id = `e${++n}`;
  const metadata = { tenant, occurredAt: '2026-11-23T00:00:00.000Z', schemaVersion: 1 };
  await store.append(
    `item-${tenant}.${id}`,
    [{ id: eventIdFor(id, 0), type: 'ItemAdded', data: { colour }, metadata }],
    'no_stream',
  );
}

/** items per tenant (partitioned, with a declared index and one added per partition) and a shared total */
const byTenant: Projection = {
  name: 'test.byTenant',
  version: 1,
  categories: ['item'],
  collections: { items: { partitioned: true, indexes: [{ name: 'colour', fields: { colour: 1 } }] }, totals: {} },
  async apply(events, store) {
    for (const e of events) {
      const tenant = e.metadata.tenant;
      await store
        .collection('items', tenant, [{ name: 'stream', fields: { stream: 1 } }])
        .upsert({ id: e.stream, stream: e.stream, colour: (e.data as { colour: string }).colour });
      const totals = store.collection<{ id: string; count: number }>('totals');
      await totals.upsert({ id: 'all', count: ((await totals.get('all'))?.count ?? 0) + 1 });
    }
  },
};

const indexNames = (file: string, table: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(table) as Array<{
        name: string;
      }>
    )
      .map((r) => r.name)
      .sort();
  } finally {
    db.close();
  }
};

test('each tenant gets its own physical collection, created with the declared and the partition indexes', async ({
  dir,
  eventStore,
  readStore,
}) => {
  const group = createProjectionGroup({ eventStore, readStore, projections: [byTenant], clock: systemClock });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  reader.start();
  await emit(eventStore, 'acme', 'red');
  await emit(eventStore, 'acme', 'blue');
  await emit(eventStore, 'beta', 'red');
  await reader.reached(await eventStore.headPosition());
  await reader.stop();

  const acme = await readModel<{ id: string; colour: string }>(readStore, 'test.byTenant', 'items', 'acme').find(
    {},
    { sort: { colour: 1 } },
  );
  const beta = await readModel<{ id: string; colour: string }>(readStore, 'test.byTenant', 'items', 'beta').find({});
  assert.equal(
    acme.map((d) => d.colour),
    ['blue', 'red'],
  );
  assert.equal(
    beta.map((d) => d.colour),
    ['red'],
    'tenant beta sees only its own documents',
  );
  assert.equal(
    (await readModel<{ id: string; count: number }>(readStore, 'test.byTenant', 'totals').get('all'))?.count,
    3,
    'an unpartitioned collection works as before',
  );

  const names = await readStore.listCollections();
  assert.ok(names.includes('test.byTenant__acme__items__g1'));
  assert.ok(names.includes('test.byTenant__beta__items__g1'));
  assert.ok(names.includes('test.byTenant__totals__g1'));
  assert.not.ok(names.includes('test.byTenant__items__g1'), 'no shared collection for a partitioned one');
  const indexes = indexNames(path.join(dir, 'read.sqlite'), (await tableOf(dir, 'test.byTenant__acme__items__g1'))!);
  assert.ok(
    indexes.some((i) => i.includes('colour')),
    `declared index created: ${indexes.join(', ')}`,
  );
  assert.ok(
    indexes.some((i) => i.includes('stream')),
    `partition index created: ${indexes.join(', ')}`,
  );

  const live = await liveCollection<{ id: string; colour: string }>(readStore, 'test.byTenant', 'items', 'beta')();
  assert.is((await live.find({}))[0]?.colour, 'red', 'writers resolve the live partition too');
});

test('a rebuild fills every partition of the new generation and drops leftovers of an interrupted one', async ({
  eventStore,
  readStore,
}) => {
  await emit(eventStore, 'acme', 'green');
  await emit(eventStore, 'beta', 'green');
  // leftovers of an interrupted rebuild into generation 2
  await readStore
    .collection(partitionedName('test.byTenant', 'gamma', 'items', 2))
    .upsert({ id: 'stale', colour: 'x' });
  const result = await rebuildProjection({ eventStore, readStore, clock: systemClock, projection: byTenant });
  assert.is(result.generation, 2);
  assert.is((await readCheckpoint(readStore, 'test.byTenant'))!.generation, 2);
  const names = await readStore.listCollections();
  assert.not.ok(
    names.includes('test.byTenant__gamma__items__g2'),
    'the stale partition was dropped before the rebuild',
  );
  assert.equal((await readModel(readStore, 'test.byTenant', 'items', 'acme').find({})).length, 1);
  assert.equal((await readModel(readStore, 'test.byTenant', 'items', 'beta').find({})).length, 1);
});

test('partition names are checked; an unpartitioned collection refuses a partition and vice versa', async ({
  readStore,
}) => {
  await readStore.transaction(async (tx) => {
    const store = projectionStore(tx, byTenant, 1, (name, spec) => readStore.ensureCollection(name, spec));
    assert.throws(() => store.collection('items'), /partitioned: name the partition/);
    assert.throws(() => store.collection('totals', 'acme'), /not partitioned/);
    assert.throws(() => store.collection('items', 'a__b'), /invalid partition/);
    assert.throws(() => store.collection('items', 'a/b'), /invalid partition/);
  });
  assert.ok(isPartitionOf('p__acme.claims.2__search__g1', 'p', 'search', 1));
  assert.not.ok(isPartitionOf('p__search__g1', 'p', 'search', 1), 'the unpartitioned name is not a partition');
  assert.not.ok(isPartitionOf('p__acme__search__g10', 'p', 'search', 1));
});

async function tableOf(dir: string, collection: string): Promise<string | undefined> {
  const db = new Database(path.join(dir, 'read.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
    return rows.map((r) => r.name).find((t) => t.endsWith(collection));
  } finally {
    db.close();
  }
}

test.run();
