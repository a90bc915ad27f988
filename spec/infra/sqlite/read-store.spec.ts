import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compareForSort } from '../../../infra/core/query/index.ts';
import type { Doc, Filter, ReadStore } from '../../../infra/core/read-store.port.ts';
import { StoreUnavailableError } from '../../../infra/core/store-errors.ts';
import { registerReadStoreFunctions } from '../../../infra/sqlite/read-store.functions.ts';
import { sortKey } from '../../../infra/sqlite/read-store.sort-key.ts';
import { indexedExpressions, selectSql, tableName } from '../../../infra/sqlite/read-store.sql.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { readStoreContract } from '../../core/read-store.contract.ts';

// the second run checkpoints the WAL from a worker thread every 5 ms beside every test (wal-checkpointer.ts)
for (const checkpointIntervalMs of [undefined, 5])
  readStoreContract(`sqlite${checkpointIntervalMs ? ', WAL checkpointed by a worker thread' : ''}`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'read-store-'));
    // a folder that does not exist yet: the store creates it
    const store = createSqliteReadStore({
      file: join(dir, 'data', 'read-models.sqlite'),
      ...(checkpointIntervalMs && { checkpointIntervalMs }),
    });
    return {
      store,
      async cleanup() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  });

const test = suite('read store on SQLite: specifics');
let dir: string;
let file: string;
let opened: ReadStore[];
let raws: Database.Database[];

const open = () => {
  const store = createSqliteReadStore({ file });
  opened.push(store);
  return store;
};
/** a plain connection to the same file, with the store's SQL functions (EXPLAIN needs them) */
const rawConnection = () => {
  const db = new Database(file, { readonly: true });
  registerReadStoreFunctions(db);
  raws.push(db);
  return db;
};
const ids = (docs: Array<Doc | null>) => docs.map((d) => d?.id ?? null);
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

test.before.each(async () => {
  dir = await mkdtemp(join(tmpdir(), 'read-store-sqlite-'));
  file = join(dir, 'read.sqlite');
  opened = [];
  raws = [];
});
test.after.each(async () => {
  for (const db of raws) db.close();
  for (const store of opened) await store.close();
  await rm(dir, { recursive: true, force: true });
});

test('the file is in WAL mode with one table per collection', async () => {
  const store = open();
  await store.collection('tasks').upsert({ id: 't1' });
  await store.collection('audit.entries-2').upsert({ id: 'e1' });
  const raw = rawConnection();
  assert.is(raw.pragma('journal_mode', { simple: true }), 'wal');
  const tables = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();
  assert.equal(tables, [tableName('audit.entries-2'), tableName('tasks')]);
  assert.equal(await store.listCollections(), ['audit.entries-2', 'tasks']);
});

test('collection names outside letters, digits, _ . - are refused', () => {
  const store = open();
  for (const name of ['', 'a b', 'x"; DROP TABLE y; --', 'a/b', '.hidden']) {
    assert.throws(() => store.collection(name), /invalid collection name/);
  }
});

test('two store instances on the same file see each other’s writes', async () => {
  const a = open();
  const b = open();
  await a.collection('shared').upsert({ id: 'x', n: 1 });
  assert.equal(await b.collection('shared').get('x'), { id: 'x', n: 1 });
  assert.is(await b.collection('shared').patch('x', { $inc: { n: 1 } }), true);
  assert.equal(await a.collection('shared').find({ n: 2 }), [{ id: 'x', n: 2 }]);
  await b.ensureCollection('shared', { indexes: [{ name: 'byN', fields: { n: 1 } }] });
  // a's cached knowledge of the schema follows b's index: narrowed and exact answers agree
  assert.equal(ids(await a.collection('shared').find({ n: 2 })), ['x']);
  await b.dropCollection('shared');
  assert.is(await a.collection('shared').get('x'), null);
  await a.collection('shared').upsert({ id: 'y' });
  assert.equal(ids(await b.collection('shared').find()), ['y']);
});

test('a collection asked for before it existed is found once another instance or a rolled-back transaction created it', async () => {
  const a = open();
  const b = open();
  // a misses "later" outside a transaction (remembered until the schema changes), then b creates it
  assert.is(await a.collection('later').get('1'), null);
  assert.equal(await a.collection('later').find(), []);
  await b.collection('later').upsert({ id: '1' });
  assert.equal(await a.collection('later').get('1'), { id: '1' });
  assert.equal(ids(await a.collection('later').find()), ['1']);
  // inside a transaction that creates another collection first, then misses "late2", then rolls back
  await a
    .transaction(async (tx) => {
      await tx.collection('other').upsert({ id: 'o' });
      await tx.collection('other').find(); // the write reaches SQLite: "other" is created inside the transaction
      assert.is(await tx.collection('late2').get('1'), null);
      throw new Error('roll back');
    })
    .catch(() => undefined);
  // the next schema change (here by the other instance) reaches the version the transaction had: the miss
  // must not be believed then
  await b.collection('late2').upsert({ id: '1' });
  await a.transaction(async (tx) => {
    assert.equal(await tx.collection('late2').get('1'), { id: '1' });
  });
  assert.equal(await b.collection('late2').get('1'), { id: '1' });
});

test('the findOneAndUpdate lease race across two instances claims each item once', async () => {
  const a = open();
  const b = open();
  const now = 5_000;
  const due = Array.from({ length: 5 }, (_, i) => `job${i}`);
  for (const id of due) await a.collection('jobs').upsert({ id, leaseUntil: 0, attempts: 0 });
  await a.collection('jobs').upsert({ id: 'busy', leaseUntil: now + 1, attempts: 0 });
  const claims = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? a : b)
        .collection('jobs')
        .findOneAndUpdate(
          { leaseUntil: { $lt: now } },
          { $set: { leaseUntil: now + 1000, owner: i }, $inc: { attempts: 1 } },
        ),
    ),
  );
  const won = claims.filter((d): d is Doc => d !== null);
  assert.equal(won.map((d) => d.id).sort(), due);
  for (const id of due) assert.is((await b.collection('jobs').get(id))?.attempts, 1);
  assert.is((await a.collection('jobs').get('busy'))?.attempts, 0);
});

/*
 * Threads with their own connections contend for SQLite's locks as processes do (a busy connection blocks
 * its own thread only), so this is the two-process lease race.
 */
const CLAIM_IN_A_THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  // a worker thread does not inherit the TypeScript loader of the test process
  const { tsImport } = await import(workerData.tsx);
  const { createSqliteReadStore } = await tsImport(workerData.module, workerData.module);
  const store = createSqliteReadStore({ file: workerData.file });
  const jobs = store.collection('jobs');
  const won = [];
  for (;;) {
    const job = await jobs.findOneAndUpdate(
      { leaseUntil: { $lt: 100 } },
      { $set: { leaseUntil: 1000, owner: workerData.name }, $inc: { attempts: 1 } },
      { sort: { priority: -1 } },
    );
    if (!job) break;
    won.push(job.id);
  }
  await store.close();
  parentPort.postMessage(won);
})().catch((e) => parentPort.postMessage({ error: String(e) }));
`;

test('the lease race between threads with their own connections (as processes) claims each item once', async () => {
  const store = open();
  const jobs = store.collection('jobs');
  const all = Array.from({ length: 150 }, (_, i) => `job${String(i).padStart(3, '0')}`);
  await store.transaction(async (tx) => {
    for (const [i, id] of all.entries())
      await tx.collection('jobs').upsert({ id, leaseUntil: 0, priority: i % 7, attempts: 0 });
  });
  const module = new URL('../../../infra/sqlite/read-store.sqlite.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const results = await Promise.all(
    ['w1', 'w2', 'w3'].map(
      (name) =>
        new Promise<unknown>((resolve, reject) => {
          const worker = new Worker(CLAIM_IN_A_THREAD, { eval: true, workerData: { module, tsx, file, name } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  for (const r of results) assert.ok(Array.isArray(r), JSON.stringify(r));
  const won = (results as string[][]).flat();
  assert.is(won.length, all.length);
  assert.equal([...won].sort(), all);
  assert.is(await jobs.count({ attempts: 1 }), all.length);
  assert.is(await jobs.count({ owner: { $exists: false } }), 0);
});

test('EXPLAIN QUERY PLAN: declared indexes serve equality, $in and range queries', async () => {
  const store = open();
  await store.ensureCollection('tasks', {
    indexes: [
      { name: 'byStatus', fields: { status: 1 } },
      { name: 'byGroupRank', fields: { group: 1, rank: -1 } },
      { name: 'byTags', fields: { tags: 1 }, multi: true },
    ],
  });
  for (let i = 0; i < 50; i++) {
    await store
      .collection('tasks')
      .upsert({ id: `t${i}`, status: i % 2 ? 'open' : 'closed', group: `g${i % 5}`, rank: i, tags: ['a'] });
  }
  const raw = rawConnection();
  const indexed = indexedExpressions(
    raw
      .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`)
      .pluck()
      .all(tableName('tasks')) as string[],
  );
  const plan = (filter: Filter) => {
    const q = selectSql('tasks', 'doc', filter, indexed, { sort: { rank: 1 }, limit: 10 });
    const rows = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join(' | ');
  };
  assert.match(plan({ status: 'open' }), /SEARCH coll_tasks USING INDEX ix:tasks:byStatus/);
  assert.match(plan({ status: { $in: ['open', 'x'] } }), /USING INDEX ix:tasks:byStatus/);
  assert.match(plan({ $and: [{ status: { $gt: 'o' } }, { rank: 3 }] }), /USING INDEX ix:tasks:byStatus/);
  assert.match(plan({ group: 'g1', rank: { $gte: 10 } }), /USING INDEX ix:tasks:byGroupRank/);
  assert.match(plan({ id: 't1' }), /USING INDEX sqlite_autoindex|PRIMARY KEY/);
  // not narrowed: booleans, $or, negations, unindexed and multi-key paths
  for (const filter of [
    { status: true },
    { $or: [{ status: 'open' }] },
    { status: { $ne: 'open' } },
    { rank: 3 },
    { tags: 'a' },
  ]) {
    assert.match(plan(filter), /SCAN coll_tasks/, JSON.stringify(filter));
  }
  // a multi-key declaration exists on MongoDB only
  assert.is(raw.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'ix:tasks:byTags'`).pluck().get(), 0);
});

test('a changed index declaration is rebuilt', async () => {
  const store = open();
  await store.ensureCollection('c', { indexes: [{ name: 'i', fields: { a: 1 } }] });
  await store.ensureCollection('c', { indexes: [{ name: 'i', fields: { a: -1, b: 1 }, unique: true }] });
  const raw = rawConnection();
  const sql = raw.prepare(`SELECT sql FROM sqlite_master WHERE name = 'ix:c:i'`).pluck().get() as string;
  assert.match(sql, /CREATE UNIQUE INDEX/);
  assert.match(sql, /json_extract\(doc, '\$\.a'\) DESC, json_extract\(doc, '\$\.b'\)/);
  await store.ensureCollection('c', { indexes: [{ name: 'i', fields: { a: 1 }, multi: true }] });
  assert.is(raw.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'ix:c:i'`).pluck().get(), 0);
});

test('paths json_extract cannot address (numeric components, quotes) still filter and sort as MongoDB', async () => {
  const c = open().collection('odd');
  await c.upsert({ id: 'x1', a: [3], 'q"k': 2 });
  await c.upsert({ id: 'x2', a: [1], 'q"k': 1 });
  await c.upsert({ id: 'x3', a: { '0': 2 } });
  await c.upsert({ id: 'x4', 'we ird-key': { 'b.c': 1 } });
  assert.equal(ids(await c.find({}, { sort: { 'a.0': 1 } })), ['x4', 'x2', 'x3', 'x1']);
  assert.equal(ids(await c.find({ 'a.0': { $gt: 1 } }, { sort: { id: 1 } })), ['x1', 'x3']);
  assert.equal(ids(await c.find({}, { sort: { 'q"k': -1 } })), ['x1', 'x2', 'x3', 'x4']);
  assert.equal(await c.groupCount('a.0'), [
    { key: null, count: 1 },
    { key: 1, count: 1 },
    { key: 2, count: 1 },
    { key: 3, count: 1 },
  ]);
  assert.equal(ids(await c.find({ 'we ird-key': { $exists: true } })), ['x4']);
});

test('a write outside a transaction waits for it; reads outside see only committed data', async () => {
  const store = open();
  const c = store.collection('tx');
  await c.upsert({ id: 'before' });
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let release!: (e: Error) => void;
  const gate = new Promise<never>((_, reject) => (release = reject));
  const tx = store.transaction(async (session) => {
    await session.collection('tx').upsert({ id: 'inside' });
    enter();
    await gate;
  });
  const txSettled = tx.catch((e: unknown) => e);
  await entered;
  let outside: Promise<unknown>;
  try {
    assert.is(await c.get('inside'), null, 'uncommitted write invisible outside');
    let outsideDone = false;
    outside = c.upsert({ id: 'outside' }).then(() => (outsideDone = true));
    for (let i = 0; i < 5; i++) await tick();
    assert.is(outsideDone, false, 'the outside write queues behind the transaction');
  } finally {
    release(new Error('abort'));
  }
  assert.match(String(await txSettled), /abort/);
  await outside;
  assert.equal(ids(await c.find({}, { sort: { id: 1 } })), ['before', 'outside']);
});

test('calls of the store itself from inside fn join the transaction (no deadlock)', async () => {
  const store = open();
  const result = store.transaction(async () => {
    await store.collection('joined').upsert({ id: 'a' });
    assert.equal(ids(await store.collection('joined').find()), ['a'], 'sees its own write');
    throw new Error('undo');
  });
  let error: unknown;
  await result.catch((e: unknown) => (error = e));
  assert.match(String(error), /undo/);
  assert.is(await store.collection('joined').get('a'), null);
  // the collection created inside the rolled-back transaction is created again on the next write
  await store.collection('joined').upsert({ id: 'b' });
  assert.equal(ids(await store.collection('joined').find()), ['b']);
});

test('a tx session used after its transaction ended is refused', async () => {
  const store = open();
  let leaked: Parameters<Parameters<ReadStore['transaction']>[0]>[0] | undefined;
  await store.transaction(async (tx) => {
    leaked = tx;
  });
  let error: unknown;
  await leaked!
    .collection('x')
    .upsert({ id: 'late' })
    .catch((e: unknown) => (error = e));
  assert.match(String(error), /already ended/);
});

test('sort keys order bytes as compareForSort orders values', () => {
  const values: unknown[] = [
    null,
    -Infinity,
    -1e300,
    -2,
    -1.5,
    -0,
    0,
    1e-300,
    1,
    2,
    2.5,
    1e300,
    '',
    '\u0000',
    '\u0000a',
    'a',
    'a\u0000',
    'ab',
    'B',
    'é',
    '\uffff',
    '😀',
    {},
    { a: null },
    { a: 1 },
    { a: 'x' },
    { a: 1, b: 2 },
    { b: 0 },
    { a: { b: 1 } },
    { a: [] },
    [],
    [null],
    [1],
    [1, 2],
    [2],
    ['a'],
    [[]],
    [{}],
    [false],
    false,
    true,
  ];
  for (const a of values) {
    for (const b of values) {
      const expected = Math.sign(compareForSort(a, b));
      const actual = Math.sign(Buffer.compare(sortKey(a), sortKey(b)));
      assert.is(actual, expected, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  }
});

test('after close, ping and operations fail with StoreUnavailableError', async () => {
  const store = open();
  await store.collection('c').upsert({ id: 'x' });
  await store.ping();
  await store.close();
  for (const attempt of [
    () => store.ping(),
    () => store.collection('c').get('x'),
    () => store.collection('c').upsert({ id: 'y' }),
  ]) {
    let error: unknown;
    await attempt().catch((e: unknown) => (error = e));
    assert.instance(error, StoreUnavailableError);
  }
});

test('in a transaction a document found missing is not read again, and one created and deleted in it costs no DELETE; one in the table is deleted without a read', async () => {
  const store = open();
  await store.ensureCollection('c');
  await store.collection('c').upsert({ id: 'kept' });
  // the statements the store prepares from here on, counted by kind
  const counts = { byId: 0, deletes: 0 };
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    const kind = /^SELECT doc FROM \S+ WHERE id = \?$/.test(sql)
      ? 'byId'
      : sql.startsWith('DELETE')
        ? 'deletes'
        : undefined;
    if (kind === undefined) return statement;
    for (const m of ['get', 'run', 'all'] as const) {
      const f = statement[m].bind(statement) as (...a: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => (counts[kind]++, f(...a));
    }
    return statement;
  } as typeof prepare;
  try {
    await store.transaction(async (tx) => {
      const c = tx.collection('c');
      for (let i = 0; i < 3; i++) assert.is(await c.get('missing'), null);
      assert.is(await c.get('brief'), null); // as a projection does: looked up, then written, then removed
      await c.upsert({ id: 'brief' });
      await c.delete('brief');
      assert.is(await c.get('brief'), null);
      assert.is(await c.delete('kept'), true);
      assert.is(await c.delete('kept'), false);
      assert.is(await c.get('kept'), null);
    });
  } finally {
    Database.prototype.prepare = prepare;
  }
  assert.equal(
    counts,
    { byId: 2, deletes: 1 },
    'one read each for missing and brief; kept deleted by its DELETE alone (no read first)',
  );
  assert.equal(await store.collection('c').find({}), []);
});

test.run();
