import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope, RecordedEvent } from '../../../domain/core/event.ts';
import { START } from '../../../infra/core/position.ts';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../../../infra/core/store-errors.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { eventStoreContract } from '../../core/event-store.contract.ts';

const root = await mkdtemp(join(tmpdir(), 'event-store-sqlite-'));
const newFile = () => join(root, randomUUID(), 'events.sqlite'); // a missing folder: the store creates it

// the second run checkpoints the WAL from a worker thread every 5 ms beside every test (wal-checkpointer.ts)
for (const checkpointIntervalMs of [undefined, 5])
  eventStoreContract(
    `event store contract on SQLite${checkpointIntervalMs ? ', WAL checkpointed by a worker thread' : ''}`,
    async () => {
      const file = newFile();
      const store = createSqliteEventStore({
        file,
        pollIntervalMs: 50,
        ...(checkpointIntervalMs && { checkpointIntervalMs }),
      });
      return {
        store,
        interrupt: () => store.interruptSubscriptions(),
        async cleanup() {
          await store.close();
          await rm(join(file, '..'), { recursive: true, force: true });
        },
      };
    },
  );

/** a file as the store wrote it before streams were numbered: events indexed by (stream, revision) */
function legacyFile(): string {
  const file = newFile();
  mkdirSync(join(file, '..'), { recursive: true });
  const db = new Database(file);
  db.exec(`CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    category TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision));
    CREATE INDEX events_category_position ON events (category, position);`);
  db.close();
  return file;
}

// the whole contract again on a file of the earlier layout: it is read and appended as it was
eventStoreContract('event store contract on SQLite, a file of the layout before streams were numbered', async () => {
  const file = legacyFile();
  const store = createSqliteEventStore({ file, pollIntervalMs: 50 });
  return {
    store,
    interrupt: () => store.interruptSubscriptions(),
    async cleanup() {
      await store.close();
      await rm(join(file, '..'), { recursive: true, force: true });
    },
  };
});

/** a stream's events as `revision:type` */
const revisionsOf = async (store: SqliteEventStore, stream: string) =>
  (await store.readStream(stream)).map((e) => `${e.revision}:${e.type}`);

const test = suite('SQLite event store');

test("changes() moves on an append through the store and on another connection's commit, and stands still otherwise", async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  const other = createSqliteEventStore({ file });
  try {
    const first = store.changes();
    assert.is(store.changes(), first, 'nothing appended: still');
    await store.append('rule-acme.own', [event('RuleCreated')], 'no_stream');
    const afterOwn = store.changes();
    assert.ok(afterOwn !== first, 'an append through the store');
    await other.append('rule-acme.foreign', [event('RuleCreated')], 'no_stream');
    assert.ok(store.changes() !== afterOwn, "another connection's commit");
  } finally {
    await other.close();
    await store.close();
  }
});

test('a stream number handed out by a batch that failed is not remembered: the next new stream takes it, and each stream reads its own events', async () => {
  const store = createSqliteEventStore({ file: newFile() });
  try {
    const taken = event('RuleCreated');
    await store.append('rule-acme.a', [taken], 'no_stream');
    // x is created, then appended to again in the same batch (its head is its uncommitted number), then an entry
    // reuses an event id stored in another stream: the whole batch fails and rolls back
    await rejection(
      store.appendMany([
        { stream: 'rule-acme.x', events: [event('RuleCreated')], expected: 'no_stream' },
        { stream: 'rule-acme.x', events: [event('RuleRenamed')], expected: 0 },
        { stream: 'rule-acme.y', events: [{ ...taken }], expected: 'no_stream' },
      ]),
    );
    // one append: w's first event is inserted, its second fails, the append rolls back
    await rejection(store.append('rule-acme.w', [event('RuleCreated'), { ...taken }], 'no_stream'));
    await store.append('rule-acme.z', [event('RuleCreated')], 'no_stream'); // takes the number x, then w, had
    await store.append('rule-acme.x', [event('RuleUpdated')], 'no_stream');
    await store.append('rule-acme.w', [event('RuleEnabled')], 'no_stream');
    assert.equal(
      (await store.readStream('rule-acme.z')).map((e) => e.type),
      ['RuleCreated'],
    );
    assert.equal(
      (await store.readStream('rule-acme.x')).map((e) => e.type),
      ['RuleUpdated'],
    );
    assert.equal(
      (await store.readStream('rule-acme.w')).map((e) => e.type),
      ['RuleEnabled'],
    );
    await store.append('rule-acme.x', [event('RuleDisabled')], 0);
    await store.append('rule-acme.z', [event('RuleDisabled')], 0);
    await store.append('rule-acme.w', [event('RuleDisabled')], 0);
    assert.equal(await revisionsOf(store, 'rule-acme.x'), ['0:RuleUpdated', '1:RuleDisabled']);
    assert.equal(await revisionsOf(store, 'rule-acme.z'), ['0:RuleCreated', '1:RuleDisabled']);
    assert.equal(await revisionsOf(store, 'rule-acme.w'), ['0:RuleEnabled', '1:RuleDisabled']);
    assert.equal(await store.readStream('rule-acme.y'), []);
  } finally {
    await store.close();
  }
});

test('a new file numbers each stream at its first event and indexes its events by (number, revision); a refused append numbers nothing; a file of the earlier layout keeps it', async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  try {
    await store.append('rule-acme.b', [event('RuleCreated')], 'no_stream');
    await store.append('rule-acme.a', [event('RuleCreated'), event('RuleUpdated')], 'no_stream');
    await store.append('rule-acme.b', [event('RuleUpdated')], 0);
    assert.instance(
      await rejection(store.append('rule-acme.c', [event('RuleUpdated')], 3)),
      WrongExpectedRevisionError,
    );
    assert.equal(
      await store
        .appendMany([{ stream: 'rule-acme.d', events: [event('RuleCreated')], expected: 0 }])
        .then((r) => r.map((x) => x instanceof WrongExpectedRevisionError)),
      [true],
    );
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(
        db.prepare('SELECT sid, stream, revision FROM events ORDER BY position').raw().all(),
        [
          [1, 'rule-acme.b', 0],
          [2, 'rule-acme.a', 0],
          [2, 'rule-acme.a', 1],
          [1, 'rule-acme.b', 1],
        ],
        'a stream is numbered by the position of its first event',
      );
      assert.ok(
        db
          .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND sql LIKE '%UNIQUE (sid, revision)%'")
          .get(),
        'indexed by number',
      );
    } finally {
      db.close();
    }
    // the name index takes first events only, and refuses a second first event of one name
    const raw = new Database(file);
    try {
      assert.match(
        raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'events_stream_start'").pluck().get() as string,
        /^CREATE UNIQUE INDEX .* WHERE revision = 0$/,
      );
      const insert = raw.prepare(
        "INSERT INTO events (id, sid, stream, revision, category, type, data, metadata) VALUES (?, 99, 'rule-acme.b', 0, 'rule', 'RuleCreated', '{}', '{}')",
      );
      assert.throws(() => insert.run(randomUUID()), /UNIQUE constraint failed: events\.stream/);
      // a new stream's number is the position its first event takes, as AUTOINCREMENT computes it, even with
      // the sequence's row gone (a copied table)
      raw.exec('DELETE FROM sqlite_sequence');
    } finally {
      raw.close();
    }
    const again = createSqliteEventStore({ file });
    try {
      const created = await again.append('rule-acme.e', [event('RuleCreated')], 'no_stream');
      await again.append('rule-acme.e', [event('RuleUpdated')], 0);
      assert.equal(
        (await again.readStream('rule-acme.e')).map((e) => `${e.revision}:${e.position === created.position}`),
        ['0:true', '1:false'],
      );
    } finally {
      await again.close();
    }
  } finally {
    await store.close();
  }
  const old = legacyFile();
  const legacy = createSqliteEventStore({ file: old });
  try {
    await legacy.append('rule-acme.a', [event('RuleCreated')], 'no_stream');
    assert.equal(
      (await legacy.readStream('rule-acme.a')).map((e) => e.type),
      ['RuleCreated'],
    );
  } finally {
    await legacy.close();
  }
  const db = new Database(old, { readonly: true });
  try {
    assert.is(
      db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'events_stream_start'").pluck().get(),
      0,
      'no index added',
    );
    assert.equal(db.prepare('SELECT stream, revision FROM events').raw().all(), [['rule-acme.a', 0]]);
  } finally {
    db.close();
  }
});

test('two instances on one file (as two processes) find the streams the other numbered, and their revisions', async () => {
  const file = newFile();
  const a = createSqliteEventStore({ file });
  const b = createSqliteEventStore({ file });
  try {
    await a.append('rule-acme.s1', [event('RuleCreated')], 'no_stream');
    await b.append('rule-acme.s1', [event('RuleUpdated')], 0); // b finds s1's number by its name
    await a.append('rule-acme.s1', [event('RuleUpdated')], 1); // a remembers s1's number; the revision is b's
    const batch = await b.appendMany([
      { stream: 'rule-acme.s2', events: [event('RuleCreated'), event('RuleUpdated')], expected: 'no_stream' },
      { stream: 'rule-acme.s1', events: [event('RuleDisabled')], expected: 2 },
    ]);
    assert.equal(
      batch.map((r) => (r instanceof Error ? 'conflict' : r.revision)),
      [1, 3],
    );
    assert.instance(
      await rejection(a.append('rule-acme.s2', [event('RuleCreated')], 'no_stream')),
      WrongExpectedRevisionError,
    );
    assert.instance(await rejection(a.append('rule-acme.s1', [event('RuleEnabled')], 2)), WrongExpectedRevisionError);
    await a.append('rule-acme.s2', [event('RuleDisabled')], 1);
    for (const store of [a, b]) {
      assert.equal(await revisionsOf(store, 'rule-acme.s1'), [
        '0:RuleCreated',
        '1:RuleUpdated',
        '2:RuleUpdated',
        '3:RuleDisabled',
      ]);
      assert.equal(await revisionsOf(store, 'rule-acme.s2'), ['0:RuleCreated', '1:RuleUpdated', '2:RuleDisabled']);
      assert.equal(
        (await store.readStream('rule-acme.s2', { direction: 'backwards', limit: 1 })).map((e) => e.revision),
        [2],
      );
    }
  } finally {
    await a.close();
    await b.close();
  }
});

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('creates the folder, the schema and WAL mode; an empty log has head START', async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  try {
    assert.ok(existsSync(file));
    assert.is(await store.headPosition(), START);
    assert.equal(await store.readAll(), []);
    const db = new Database(file, { readonly: true });
    try {
      assert.is(db.pragma('journal_mode', { simple: true }), 'wal');
      const columns = (table: string) =>
        (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[]).map(
          (c) => c.name,
        );
      assert.equal(columns('events'), [
        'position',
        'id',
        'sid',
        'stream',
        'revision',
        'category',
        'type',
        'data',
        'metadata',
      ]);
    } finally {
      db.close();
    }
  } finally {
    await store.close();
  }
});

test('stores the category of each event', async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  try {
    await store.append('rule-acme.r1', [event('RuleCreated'), event('RuleRenamed')], 'no_stream');
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.prepare('SELECT category, revision FROM events ORDER BY position').raw().all(), [
        ['rule', 0],
        ['rule', 1],
      ]);
    } finally {
      db.close();
    }
  } finally {
    await store.close();
  }
});

test('a multi-category read gives the same events far from the head (one probe per category) and near it (one range scan)', async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  try {
    const categories = ['alpha', 'beta', 'gamma', 'delta'];
    // 3,000 events: reads from the start are past the scan distance, reads near the end are within it
    await store.appendMany!(
      Array.from({ length: 3000 }, (_, i) => ({
        stream: `${categories[i % 4]}-s${i}`,
        events: [event(i % 3 === 0 ? 'Kept' : 'Other')],
        expected: 'no_stream' as const,
      })),
    );
    const all = await store.readAll({ limit: 5000 });
    const filter = { categories: ['alpha', 'gamma'], eventTypes: ['Kept'] };
    const expected = all
      .filter((e) => (e.stream.startsWith('alpha-') || e.stream.startsWith('gamma-')) && e.type === 'Kept')
      .map((e) => e.position);
    for (const from of [START, all[2400]!.position, all[2990]!.position]) {
      const after = from === START ? -1 : all.findIndex((e) => e.position === from);
      const read = await store.readAll({ after: from, filter, limit: 300 });
      assert.equal(
        read.map((e) => e.position),
        expected.filter((p) => all.findIndex((e) => e.position === p) > after).slice(0, 300),
        `from ${from}`,
      );
    }
  } finally {
    await store.close();
  }
});

test('events survive reopening; positions and revisions continue', async () => {
  const file = newFile();
  const first = createSqliteEventStore({ file });
  const a = await first.append('task-acme.t1', [event('TaskCreated')], 'no_stream');
  await first.close();
  const second = createSqliteEventStore({ file });
  try {
    assert.is((await second.readStream('task-acme.t1')).length, 1);
    const b = await second.append('task-acme.t1', [event('TaskCompleted')], 0);
    assert.is(b.revision, 1);
    assert.ok(b.position > a.position);
    assert.is(await second.headPosition(), b.position);
  } finally {
    await second.close();
  }
});

test('an id already stored in another stream, or a partly stored batch, is an error and writes nothing', async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file });
  try {
    const stored = event('RuleCreated');
    await store.append('rule-acme.r1', [stored], 'no_stream');
    const elsewhere = await rejection(store.append('rule-acme.r2', [stored], 'no_stream'));
    assert.instance(elsewhere, Error);
    assert.not.instance(elsewhere, WrongExpectedRevisionError);
    assert.equal(await store.readStream('rule-acme.r2'), []);

    const fresh = event('RuleRenamed');
    const partly = await rejection(store.append('rule-acme.r1', [stored, fresh], 'any'));
    assert.instance(partly, Error);
    assert.not.instance(partly, WrongExpectedRevisionError);
    const laterDuplicate = await rejection(store.append('rule-acme.r1', [fresh, stored], 0));
    assert.instance(laterDuplicate, Error);
    assert.equal(
      (await store.readStream('rule-acme.r1')).map((e) => e.id),
      [stored.id],
    );
    assert.is((await store.readAll()).length, 1);
  } finally {
    await store.close();
  }
});

test('two store instances on one file (as two processes): live delivery through the poll', async () => {
  const file = newFile();
  const writer = createSqliteEventStore({ file, pollIntervalMs: 50 });
  const reader = createSqliteEventStore({ file, pollIntervalMs: 50 });
  const controller = new AbortController();
  try {
    await writer.append('rule-acme.r1', [event('RuleCreated')], 'no_stream');
    const iterator = reader.subscribeAll({ signal: controller.signal })[Symbol.asyncIterator]();
    const first = await within(iterator.next());
    assert.is((first.value as RecordedEvent).type, 'RuleCreated');

    const pending = within(iterator.next());
    pending.catch(() => {}); // awaited below; a failure before must not crash the run
    // the reader is idle now: only its poll can see the next append
    const later = event('RuleRenamed');
    const written = await writer.append('rule-acme.r1', [later], 0);
    const second = await pending;
    assert.is((second.value as RecordedEvent).id, later.id);
    assert.is((second.value as RecordedEvent).position, written.position);

    // and the other way round, with revision checks across instances
    const conflict = await rejection(reader.append('rule-acme.r1', [event('RuleRenamed')], 0));
    assert.instance(conflict, WrongExpectedRevisionError);
    assert.is((conflict as WrongExpectedRevisionError).actual, 1);
    await iterator.return?.();
  } finally {
    controller.abort();
    await writer.close();
    await reader.close();
  }
});

test("a filtered page reader passes over its own instance's appends outside its filter unread, never over another instance's", async () => {
  const file = newFile();
  const store = createSqliteEventStore({ file, pollIntervalMs: 5 });
  const other = createSqliteEventStore({ file, pollIntervalMs: 5 });
  const controller = new AbortController();
  // count the log reads: every page read is an `all` on a `SELECT position, ...` statement
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as {
    all: (...a: unknown[]) => unknown;
  };
  const all = proto.all;
  let reads = 0;
  proto.all = function (this: { source: string }, ...a: unknown[]) {
    if (this.source.startsWith('SELECT position')) reads++;
    return all.apply(this, a);
  };
  try {
    await store.append('rule-acme.r0', [event('RuleCreated')], 'no_stream');
    const pages = store
      .subscribePages({ filter: { categories: ['rule'] }, signal: controller.signal })
      [Symbol.asyncIterator]();
    const next = async () => (await within(pages.next())).value as { events: RecordedEvent[]; position: string };
    assert.equal(
      (await next()).events.map((e) => e.type),
      ['RuleCreated'],
    );

    // own appends nobody here wants: the position moves, no read
    const before = reads;
    let last = await store.append('audit-acme', [event('Recorded'), event('Recorded')], 'no_stream');
    let page = await next();
    assert.equal([page.events.length, page.position], [0, last.position]);
    last = await store.append('audit-acme', [event('Recorded')], 1);
    page = await next();
    assert.equal([page.events.length, page.position], [0, last.position]);
    assert.is(reads, before, 'no page read for own unwanted appends');

    // another instance's append in between: read, and delivered
    await store.append('audit-acme', [event('Recorded')], 2);
    const foreign = await other.append('rule-acme.r1', [event('RuleCreated')], 'no_stream');
    last = await store.append('audit-acme', [event('Recorded')], 3);
    const seen: RecordedEvent[] = [];
    while (page.position < last.position) {
      page = await next();
      seen.push(...page.events);
    }
    assert.equal(
      seen.map((e) => e.position),
      [foreign.position],
    );
    assert.ok(reads > before);

    // an own append the filter wants is read as before
    const wanted = await store.append('rule-acme.r0', [event('RuleRenamed')], 0);
    page = await next();
    assert.equal(
      page.events.map((e) => e.position),
      [wanted.position],
    );
  } finally {
    proto.all = all;
    controller.abort();
    await store.close();
    await other.close();
  }
});

/** two store instances on one new file (as two processes), closed after `use` */
async function twoConnections(
  use: (a: SqliteEventStore, b: SqliteEventStore, file: string) => Promise<void>,
): Promise<void> {
  const file = newFile();
  const a = createSqliteEventStore({ file });
  const b = createSqliteEventStore({ file });
  try {
    await use(a, b, file);
  } finally {
    await a.close();
    await b.close();
  }
}

/** the store's stream reads (forwards), counted by wrapping the statements it prepares while it opens */
function countingStreamReads(): { reads: () => number; restore(): void } {
  const prepare = Database.prototype.prepare;
  let reads = 0;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    if (
      /WHERE (stream = \?|sid = \(SELECT sid FROM events WHERE stream = \? AND revision = 0\)) AND revision >= \?/.test(
        sql,
      )
    ) {
      const all = statement.all.bind(statement) as (...args: unknown[]) => unknown[];
      statement.all = ((...args: unknown[]) => {
        reads += 1;
        return all(...args);
      }) as typeof statement.all;
    }
    return statement;
  } as typeof prepare;
  return { reads: () => reads, restore: () => void (Database.prototype.prepare = prepare) };
}

test("a stream read after the store's own append, or after a read to the stream's end, answers 'nothing newer' without a query", async () => {
  const spy = countingStreamReads();
  const store = createSqliteEventStore({ file: newFile() });
  spy.restore();
  try {
    await store.append('rule-acme.r1', [event('RuleCreated'), event('RuleUpdated')], 'no_stream');
    assert.equal(await store.readStream('rule-acme.r1', { fromRevision: 2 }), []);
    assert.is(spy.reads(), 0, 'known from the append');
    assert.equal(await store.readStream('rule-acme.none'), []);
    assert.equal(await store.readStream('rule-acme.none'), []);
    assert.is(spy.reads(), 1, 'a missing stream: queried once, then known');
    await store.append('rule-acme.r1', [event('RuleDisabled')], 1);
    assert.equal(
      (await store.readStream('rule-acme.r1', { fromRevision: 2 })).map((e) => e.type),
      ['RuleDisabled'],
      'an own append moves what is known',
    );
    assert.is(spy.reads(), 2);
    // a read cut short by its limit does not say where the stream ends
    assert.equal(
      (await store.readStream('rule-acme.r1', { limit: 2 })).map((e) => e.revision),
      [0, 1],
    );
    assert.equal(
      (await store.readStream('rule-acme.r1', { fromRevision: 2 })).map((e) => e.type),
      ['RuleDisabled'],
    );
    assert.equal(await store.readStream('rule-acme.r1', { fromRevision: 3 }), []);
    assert.is(spy.reads(), 4, 'revision 2 read again (the limited read said nothing), revision 3 known');
    assert.equal(
      (await store.readStream('rule-acme.r1', { fromRevision: 1, direction: 'backwards' })).map((e) => e.revision),
      [1, 0],
    );
  } finally {
    spy.restore();
    await store.close();
  }
});

test("what a store knows of a stream outlasts other connections' commits while nothing comes to the stream's category", async () => {
  const file = newFile();
  const spy = countingStreamReads();
  const a = createSqliteEventStore({ file });
  spy.restore();
  const b = createSqliteEventStore({ file });
  const nextCallback = () => new Promise((resolve) => setImmediate(resolve));
  try {
    await b.append('rule-acme.r0', [event('RuleCreated')], 'no_stream'); // another connection's commit: A counts it at its next probe (its append below)
    await nextCallback();
    await a.append('pref-acme.own', [event('PreferenceSet')], 'no_stream');
    assert.equal(await a.readStream('pref-acme.x'), []);
    assert.is(spy.reads(), 1);
    // B commits to another category: both of A's answers hold
    await b.append('rule-acme.r1', [event('RuleCreated')], 'no_stream');
    await nextCallback();
    assert.equal(await a.readStream('pref-acme.x'), []);
    assert.equal(await a.readStream('pref-acme.own', { fromRevision: 1 }), []);
    assert.is(spy.reads(), 1, 'answered without reading: the category ends where it did');
    // B commits to another stream of the category: A reads again, and finds nothing new there
    await b.append('pref-acme.y', [event('PreferenceSet')], 'no_stream');
    await nextCallback();
    assert.equal(await a.readStream('pref-acme.x'), []);
    assert.equal(await a.readStream('pref-acme.own', { fromRevision: 1 }), []);
    assert.is(spy.reads(), 3);
    // B commits to the stream itself: A reads it
    await b.append('pref-acme.x', [event('PreferenceSet')], 'no_stream');
    await b.append('pref-acme.own', [event('PreferenceRemoved')], 0);
    await nextCallback();
    assert.equal(
      (await a.readStream('pref-acme.x')).map((e) => e.type),
      ['PreferenceSet'],
    );
    assert.equal(
      (await a.readStream('pref-acme.own', { fromRevision: 1 })).map((e) => e.type),
      ['PreferenceRemoved'],
    );
    // and an append of B's after A's read, in a category A's read marked: never hidden
    await b.append('pref-acme.x', [event('PreferenceRemoved')], 0);
    await nextCallback();
    assert.equal(
      (await a.readStream('pref-acme.x', { fromRevision: 1 })).map((e) => e.type),
      ['PreferenceRemoved'],
    );
  } finally {
    spy.restore();
    await a.close();
    await b.close();
  }
});

test("a category's end looked up before another connection's commit is not trusted after it, even in the same synchronous run", () =>
  twoConnections(async (a, b) => {
    await b.append('rule-acme.r0', [event('RuleCreated')], 'no_stream');
    await b.append('pref-acme.x', [event('PreferenceSet')], 'no_stream');
    assert.equal(
      (await a.readStream('pref-acme.x')).map((e) => e.type),
      ['PreferenceSet'],
    );
    await b.append('rule-acme.r1', [event('RuleCreated')], 'no_stream');
    // no await in between: A's first read looks the category's end up, B commits to the stream, A reads again
    const first = a.readStream('pref-acme.x', { fromRevision: 1 });
    const appended = b.append('pref-acme.x', [event('PreferenceRemoved')], 0);
    const second = a.readStream('pref-acme.x', { fromRevision: 1 });
    assert.equal(await first, []);
    assert.is((await appended).revision, 1);
    assert.equal(
      (await second).map((e) => e.type),
      ['PreferenceRemoved'],
    );
  }));

/**
 * Another process's commit to `pref-acme.x` (simulated by a raw connection to the file, which no store of this
 * process counts), then, in the same synchronous run, `seeIt` runs a statement that shows it: A's read of x that
 * follows must not answer from the probe A took before, shared within the run (event-store.changes.ts).
 */
async function readAfterSeeing(seeIt: (a: SqliteEventStore) => Promise<unknown>) {
  await twoConnections(async (a, b, file) => {
    await b.append('rule-acme.r0', [event('RuleCreated')], 'no_stream');
    await b.append('pref-acme.x', [event('PreferenceSet')], 'no_stream');
    // A knows x ends at 0, and where its category ends, since B's last commit: its next read runs no statement
    assert.equal(
      (await a.readStream('pref-acme.x')).map((e) => e.type),
      ['PreferenceSet'],
    );
    const other = new Database(file);
    try {
      const first = a.readStream('pref-acme.x', { fromRevision: 1 }); // probes, answers from memory
      other
        .prepare(
          "INSERT INTO events (id, sid, stream, revision, category, type, data, metadata) VALUES (?, (SELECT sid FROM events WHERE stream = 'pref-acme.x' AND revision = 0), 'pref-acme.x', 1, 'pref', 'PreferenceRemoved', '{}', ?)",
        )
        .run(randomUUID(), JSON.stringify(event('PreferenceRemoved').metadata));
      const seen = seeIt(a);
      const second = a.readStream('pref-acme.x', { fromRevision: 1 });
      assert.equal(await first, []);
      await seen;
      assert.equal(
        (await second).map((e) => e.type),
        ['PreferenceRemoved'],
        'what the statement before it could show',
      );
    } finally {
      other.close();
    }
  });
}

test("a probe shared within a synchronous run ends at the next statement on the log's file: a read after one that showed another process's commit sees it", () =>
  readAfterSeeing(async (a) => {
    const page = await a.readAll({ after: START, limit: 100 });
    assert.ok(
      page.some((e) => e.type === 'PreferenceRemoved'),
      'the page shows the commit',
    );
  }));

test('… and at the next statement on a read-model file', async () => {
  const readStore = createSqliteReadStore({ file: join(root, randomUUID(), 'read-models.sqlite') });
  try {
    const models = await readStore.collection<{ id: string }>('seen');
    await readAfterSeeing(() => models.get('any'));
  } finally {
    await readStore.close();
  }
});

test('a category check that fails trusts nothing, and the mark is where the category ended before the read', () =>
  twoConnections(async (a, b, file) => {
    await b.append('rule-acme.r0', [event('RuleCreated')], 'no_stream');
    await b.append('pref-acme.x', [event('PreferenceSet')], 'no_stream');
    await a.readStream('pref-acme.x'); // A learns that x ends at 0, with its category's end
    await b.append('pref-acme.x', [event('PreferenceRemoved')], 0);
    // the check fails; a read cut short by its limit learns nothing, so the entry must not hold now
    assert.equal((await a.readStream('pref-acme.x', { limit: 1 })).length, 1);
    assert.equal(
      (await a.readStream('pref-acme.x', { fromRevision: 1 })).map((e) => e.type),
      ['PreferenceRemoved'],
    );

    // another process commits to y right after A's read of y ran (simulated by a third connection inserting
    // from inside that read's statement): the category's end A keeps must predate it
    await b.append('pref-acme.y', [event('PreferenceSet')], 'no_stream');
    const other = new Database(file);
    const all = Object.getPrototypeOf(other.prepare('SELECT 1')).all as (...args: unknown[]) => unknown[];
    let armed = true;
    Object.getPrototypeOf(other.prepare('SELECT 1')).all = function (this: Database.Statement, ...args: unknown[]) {
      const rows = all.apply(this, args);
      if (armed && this.source.includes('revision >= ?') && args[0] === 'pref-acme.y') {
        armed = false;
        other
          .prepare(
            "INSERT INTO events (id, sid, stream, revision, category, type, data, metadata) VALUES (?, (SELECT sid FROM events WHERE stream = 'pref-acme.y' AND revision = 0), 'pref-acme.y', 1, 'pref', 'PreferenceRemoved', '{}', ?)",
          )
          .run(randomUUID(), JSON.stringify(event('PreferenceRemoved').metadata));
      }
      return rows;
    };
    try {
      assert.equal(
        (await a.readStream('pref-acme.y')).map((e) => e.type),
        ['PreferenceSet'],
      );
    } finally {
      Object.getPrototypeOf(other.prepare('SELECT 1')).all = all;
      other.close();
    }
    assert.equal(
      (await a.readStream('pref-acme.y', { fromRevision: 1 })).map((e) => e.type),
      ['PreferenceRemoved'],
    );
  }));

test('a stored batch appended again (a retry) says nothing of where its stream ends now', async () => {
  const store = createSqliteEventStore({ file: newFile() });
  try {
    const first = [event('RuleCreated'), event('RuleUpdated')];
    await store.append('rule-acme.r1', first, 'no_stream');
    await store.append('rule-acme.r1', [event('RuleDisabled')], 1);
    assert.is(
      (await store.append('rule-acme.r1', first, 'no_stream')).revision,
      1,
      'the retry answers the stored batch',
    );
    assert.equal(
      (await store.readStream('rule-acme.r1', { fromRevision: 2 })).map((e) => e.type),
      ['RuleDisabled'],
    );
    const [again] = await store.appendMany([{ stream: 'rule-acme.r1', events: first, expected: 'no_stream' }]);
    assert.is((again as { revision: number }).revision, 1);
    assert.equal(
      (await store.readStream('rule-acme.r1', { fromRevision: 2 })).map((e) => e.type),
      ['RuleDisabled'],
    );
  } finally {
    await store.close();
  }
});

test("another connection's append is never hidden by what a store knows of a stream", () =>
  twoConnections(async (a, b) => {
    await a.append('rule-acme.r1', [event('RuleCreated')], 'no_stream');
    assert.equal(await a.readStream('rule-acme.r1', { fromRevision: 1 }), []);
    assert.equal(await a.readStream('rule-acme.r2'), []);
    await b.append('rule-acme.r1', [event('RuleUpdated')], 0);
    await b.append('rule-acme.r2', [event('RuleCreated')], 'no_stream');
    assert.equal(
      (await a.readStream('rule-acme.r1', { fromRevision: 1 })).map((e) => e.type),
      ['RuleUpdated'],
    );
    assert.equal(
      (await a.readStream('rule-acme.r2')).map((e) => e.type),
      ['RuleCreated'],
    );
    // and the other way round, through a batch
    const [r] = await a.appendMany([{ stream: 'rule-acme.r2', events: [event('RuleDisabled')], expected: 0 }]);
    assert.is((r as { revision: number }).revision, 1);
    assert.equal(
      (await b.readStream('rule-acme.r2', { fromRevision: 1 })).map((e) => e.type),
      ['RuleDisabled'],
    );
  }));

test('a closed store is unavailable', async () => {
  const store = createSqliteEventStore({ file: newFile() });
  await store.ping();
  await store.close();
  assert.instance(await rejection(store.ping()), StoreUnavailableError);
  assert.instance(await rejection(store.append('rule-acme.r1', [event('RuleCreated')], 'any')), StoreUnavailableError);
  assert.instance(await rejection(store.readAll()), StoreUnavailableError);
  await store.close(); // twice is fine
});

test.run();

function event(type: string): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    data: { type },
    metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1 },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected a rejection');
}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), 10_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
