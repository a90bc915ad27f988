import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope } from '../../../domain/core/event.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { backgroundCheckpoints, startWalCheckpointer } from '../../../infra/sqlite/wal-checkpointer.ts';

const root = await mkdtemp(join(tmpdir(), 'wal-checkpointer-'));
const newFile = (name: string) => join(root, randomUUID(), name);

const test = suite('WAL checkpoints on a worker thread');

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

const envelope = (i: number): EventEnvelope => ({
  id: randomUUID(),
  type: 'Noted',
  data: { i, text: 'x'.repeat(200) },
  metadata: { tenant: 't', occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
});

/** 2,000 events of ~300 bytes: some 150 pages, far below the automatic checkpoint's 10,000 */
async function appendSome(store: EventStore) {
  for (let b = 0; b < 20; b++)
    await store.append(
      `note-${b}`,
      Array.from({ length: 100 }, (_, i) => envelope(b * 100 + i)),
      'no_stream',
    );
}
async function writeSome(store: ReadStore) {
  await store.transaction(async (tx) => {
    for (let i = 0; i < 2000; i++) await tx.collection('notes').upsert({ id: `n-${i}`, text: 'x'.repeat(200) });
  });
}

/** until the database file itself (not its WAL) holds more than `bytes`, or `ms` passed */
async function fileGrows(file: string, bytes: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  while (statSync(file).size <= bytes && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return statSync(file).size;
}

const stores = [
  {
    name: 'event store',
    file: 'events.sqlite',
    open: (file: string, ms?: number) => createSqliteEventStore({ file, ...(ms && { checkpointIntervalMs: ms }) }),
    write: (s: EventStore) => appendSome(s),
  },
  {
    name: 'read store',
    file: 'read-models.sqlite',
    open: (file: string, ms?: number) => createSqliteReadStore({ file, ...(ms && { checkpointIntervalMs: ms }) }),
    write: (s: ReadStore) => writeSome(s),
  },
] as const;

for (const kind of stores) {
  test(`${kind.name}: the writes reach the database file through the thread's checkpoints, not the writing connection's`, async () => {
    // the writing connection alone: below its automatic checkpoint the writes stay in the WAL
    const inlineFile = newFile(kind.file);
    const inline = kind.open(inlineFile);
    await kind.write(inline as never);
    // nothing but the writing connection touches this file, and its writes have returned: what the file
    // holds now, it holds until that connection's own automatic checkpoint
    const inlineSize = statSync(inlineFile).size;
    assert.ok(inlineSize < 200_000, `without the thread the database file stays small (${inlineSize} bytes)`);
    assert.ok(statSync(`${inlineFile}-wal`).size > 200_000, 'the writes are in the WAL');
    await inline.close();

    const file = newFile(kind.file);
    const store = kind.open(file, 20);
    await kind.write(store as never);
    const size = await fileGrows(file, 200_000, 5_000);
    assert.ok(size > 200_000, `the thread copied the WAL into the database file (${size} bytes)`);
    await store.close();
    // close() ended the thread and its connection (the last one closing checkpoints and removes the WAL)
    assert.not.ok(existsSync(`${file}-wal`), 'no WAL left after close');
  });
}

test('a thread that cannot open its file reports it once and ends; the store says so in a warning', async () => {
  const failures: string[] = [];
  const checkpointer = startWalCheckpointer({
    file: join(root, 'missing', 'x.sqlite'),
    intervalMs: 5,
    onFailure: (m) => failures.push(m),
  });
  await checkpointer.stop();
  assert.equal(failures.length, 1);
  assert.match(failures[0]!, /directory does not exist|unable to open/);

  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const failing = backgroundCheckpoints(join(root, 'missing', 'y.sqlite'), 5);
    await failing!.stop();
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', onWarning);
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /y\.sqlite: the WAL checkpoint thread stopped .*automatic checkpoint goes on alone/);
});

test('no thread for an in-memory database or without an interval', () => {
  assert.is(backgroundCheckpoints(':memory:', 5), undefined);
  assert.is(backgroundCheckpoints('', 5), undefined);
  assert.is(backgroundCheckpoints(join(root, 'z.sqlite'), 0), undefined);
  assert.is(backgroundCheckpoints(join(root, 'z.sqlite'), undefined), undefined);
});

test.run();
