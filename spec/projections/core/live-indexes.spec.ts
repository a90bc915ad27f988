import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { createProjectionConsumer } from '../../../projections/core/projection-consumer.ts';

// A new version of the code declares another index on a collection of the same projection version: the
// live generation gets it when the projection starts, without a rebuild, and keeps its documents.
const projection = (fields: Record<string, 1>): Projection => ({
  name: 'demo.due',
  version: 1,
  categories: ['demo'],
  collections: { due: { indexes: [{ name: 'by_due', fields }] } },
  async apply(events, store) {
    for (const e of events)
      await store.collection('due').upsert({ id: e.id, dueAt: '2026-01-01T00:00:00.000Z', leaseUntil: '' });
  },
});

test('changed index definitions reach the live generation at start; the documents stay', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'live-indexes-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const indexSql = () => {
    const db = new Database(path.join(dir, 'read.sqlite'), { readonly: true });
    try {
      return db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE '%by_due%'`)
        .pluck()
        .get() as string;
    } finally {
      db.close();
    }
  };
  const consumer = (fields: Record<string, 1>) =>
    createProjectionConsumer({
      eventStore,
      readStore,
      projection: projection(fields),
      clock: systemClock,
      rebuild: async () => assert.unreachable('no rebuild'),
    });
  try {
    const first = consumer({ dueAt: 1 });
    const position = await first.start();
    await eventStore.append(
      'demo-acme.1',
      [
        {
          id: crypto.randomUUID(),
          type: 'Made',
          data: {},
          metadata: { tenant: 'acme', occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 } as never,
        },
      ],
      'no_stream',
    );
    const [e] = await eventStore.readAll({ after: position });
    await first.handle({ events: [e!], position: e!.position });
    assert.not.match(indexSql(), /leaseUntil/);

    await consumer({ dueAt: 1, leaseUntil: 1 }).start();
    assert.match(indexSql(), /'\$\.dueAt'\), json_extract\(doc, '\$\.leaseUntil'\)/);
    assert.is(await readStore.collection('demo.due__due__g1').count(), 1);
  } finally {
    await eventStore.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
