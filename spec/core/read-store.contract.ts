import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Collection, Doc, Filter, IndexSpec, ReadStore } from '../../infra/core/read-store.port.ts';
import { PartialRollbackUnavailableError } from '../../infra/core/read-store.port.ts';

/**
 * The read store contract: every adapter's spec calls this with a factory of fresh, empty stores (one per
 * test). Expected answers are MongoDB's, written out by hand.
 */
export type ReadStoreFactory = () => Promise<{ store: ReadStore; cleanup(): Promise<void> }>;

const ids = (docs: ReadonlyArray<Doc | null>) => docs.map((d) => d?.id ?? null);

async function seed(coll: Collection, docs: Doc[]): Promise<void> {
  for (const doc of docs) await coll.upsert(doc);
}

async function rejects(promise: Promise<unknown>, message: RegExp): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.instance(error, Error, `expected a rejection matching ${message}`);
  assert.match((error as Error).message, message);
}

const PEOPLE: Doc[] = [
  {
    id: 'p1',
    name: 'Ada',
    age: 36,
    active: true,
    tags: ['math', 'code'],
    scores: [1, 5],
    address: { city: 'London', zip: 'N1' },
    pets: [
      { kind: 'cat', age: 3 },
      { kind: 'dog', age: 9 },
    ],
  },
  {
    id: 'p2',
    name: 'bob',
    age: 25,
    active: false,
    tags: ['code'],
    scores: [3],
    address: { city: 'Paris' },
    pets: [{ kind: 'dog', age: 2 }],
    nick: null,
  },
  { id: 'p3', name: 'Cy', age: '40', tags: [], scores: [], address: { city: null }, pets: [] },
  { id: 'p4', name: 'dee', age: 52.5, active: true, tags: 'solo', scores: [[1, 2], 7], pets: [{ kind: 'cat' }] },
  { id: 'p5', age: null, active: 1, address: 'unknown', nick: 'E' },
];

/** [filter, ids of PEOPLE that MongoDB returns] */
const OPERATOR_CASES: Array<[Filter, string[]]> = [
  // equality, on scalars and arrays
  [{ name: 'Ada' }, ['p1']],
  [{ age: 36 }, ['p1']],
  [{ age: '40' }, ['p3']],
  [{ active: true }, ['p1', 'p4']],
  [{ active: 1 }, ['p5']],
  [{ tags: 'code' }, ['p1', 'p2']],
  [{ tags: ['code'] }, ['p2']],
  [{ tags: 'solo' }, ['p4']],
  [{ tags: [] }, ['p3']],
  [{ scores: [1, 2] }, ['p4']],
  [{ scores: 1 }, ['p1']],
  [{ address: { city: 'Paris' } }, ['p2']],
  [{ age: { $eq: 25 } }, ['p2']],
  // dotted paths into nested objects and arrays of objects
  [{ 'address.city': 'London' }, ['p1']],
  [{ 'address.city': null }, ['p3', 'p4', 'p5']],
  [{ nick: null }, ['p1', 'p2', 'p3', 'p4']],
  [{ 'pets.kind': 'dog' }, ['p1', 'p2']],
  [{ 'pets.1.kind': 'dog' }, ['p1']],
  [{ 'pets.age': { $gt: 5 } }, ['p1']],
  [{ 'pets.age': null }, ['p4', 'p5']],
  [{ 'tags.0': 'math' }, ['p1']],
  // $ne / $nin: negations over the whole array
  [{ tags: { $ne: 'code' } }, ['p3', 'p4', 'p5']],
  [{ age: { $ne: 36 } }, ['p2', 'p3', 'p4', 'p5']],
  [{ nick: { $ne: null } }, ['p5']],
  [{ age: { $in: [25, '40', null] } }, ['p2', 'p3', 'p5']],
  [{ tags: { $in: ['math', 'solo'] } }, ['p1', 'p4']],
  [{ tags: { $nin: ['code', 'solo'] } }, ['p3', 'p5']],
  [{ name: { $in: [] } }, []],
  // comparisons: same kind only; array elements may satisfy different bounds
  [{ age: { $gt: 30 } }, ['p1', 'p4']],
  [{ age: { $gte: 25, $lt: 40 } }, ['p1', 'p2']],
  [{ age: { $lt: '5' } }, ['p3']],
  [{ name: { $gte: 'a' } }, ['p2', 'p4']],
  [{ scores: { $gt: 4, $lt: 2 } }, ['p1']],
  [{ scores: { $gte: 7 } }, ['p4']],
  [{ active: { $gt: false } }, ['p1', 'p4']],
  [{ age: { $lte: null } }, ['p5']],
  // $exists
  [{ active: { $exists: false } }, ['p3']],
  [{ nick: { $exists: true } }, ['p2', 'p5']],
  [{ 'pets.age': { $exists: true } }, ['p1', 'p2']],
  [{ 'address.zip': { $exists: false } }, ['p2', 'p3', 'p4', 'p5']],
  // $regex
  [{ name: { $regex: '^[a-c]' } }, ['p2']],
  [{ name: { $regex: '^[a-c]', $options: 'i' } }, ['p1', 'p2', 'p3']],
  [{ name: /E$/i }, ['p4']],
  [{ tags: { $regex: 'o' } }, ['p1', 'p2', 'p4']],
  [{ age: { $regex: '4' } }, ['p3']],
  // $and / $or
  [{ $or: [{ age: { $lt: 30 } }, { 'address.city': 'London' }] }, ['p1', 'p2']],
  [{ $and: [{ active: true }, { $or: [{ tags: 'math' }, { scores: 7 }] }] }, ['p1', 'p4']],
  [{ tags: 'code', $or: [{ active: false }, { 'pets.kind': 'cat' }] }, ['p1', 'p2']],
  [{ $or: [{ nick: 'E' }, { $and: [{ age: { $gt: 50 } }, { active: true }] }] }, ['p4', 'p5']],
];

const show = (f: Filter) => JSON.stringify(f, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));

const STATUSES = ['open', 'closed', 'Open', '', null, undefined, 'pending'];
const PRIOS = [1, 2.5, -3, true, '1', null, undefined, 0, 1.0];

/** 40 tasks whose indexed fields mix types, nulls and missing values */
function tasks(): Doc[] {
  return Array.from({ length: 40 }, (_, i) => {
    const doc: Doc = {
      id: `t${String(i).padStart(2, '0')}`,
      group: ['a', 'b', 'c'][i % 3],
      rank: i % 5,
      nested: { x: i % 4 },
      tags: i % 2 === 0 ? ['x', `y${i % 3}`] : ['z'],
    };
    const status = STATUSES[i % STATUSES.length];
    const prio = PRIOS[i % PRIOS.length];
    if (status !== undefined) doc.status = status;
    if (prio !== undefined) doc.prio = prio;
    return doc;
  });
}

const INDEX_QUERIES: Filter[] = [
  { status: 'open' },
  { status: { $in: ['open', 'closed'] } },
  { status: { $gt: 'O' } },
  { status: { $lt: 'p' } },
  { status: { $gte: '', $lte: 'open' } },
  { status: '' },
  { status: null },
  { status: { $ne: 'open' } },
  { prio: 1 },
  { prio: true },
  { prio: '1' },
  { prio: { $gte: 0 } },
  { prio: { $lt: 1 } },
  { prio: { $gt: -5, $lte: 2.5 } },
  { prio: { $in: [1, '1', true] } },
  { prio: { $in: [2.5, -3] } },
  { prio: { $gt: '0' } },
  { group: 'b', rank: { $gte: 2 } },
  { group: { $in: ['a', 'c'] }, rank: 3 },
  { $and: [{ group: 'a' }, { rank: { $lt: 2 } }] },
  { 'nested.x': 2 },
  { 'nested.x': { $gt: 1 } },
  { tags: 'x' },
  { tags: { $in: ['y1', 'z'] } },
  { id: 't05' },
  { id: { $in: ['t01', 't10', 'zz'] } },
  { id: { $gt: 't30' } },
  { $or: [{ status: 'open' }, { prio: 1 }] },
  { status: 'open', prio: { $exists: true } },
];

/** What an adapter can do, as its spec file declares it. */
export type ReadStoreCapabilities = {
  /**
   * savepoint() undoes a failed part and the transaction goes on (SQLite). false: it answers
   * PartialRollbackUnavailableError and the whole transaction fails (MongoDB). Default true.
   */
  partialRollback?: boolean;
};

export function readStoreContract(
  name: string,
  make: ReadStoreFactory,
  capabilities: ReadStoreCapabilities = {},
): void {
  const test = suite(`read store contract: ${name}`);
  let store: ReadStore;
  let cleanup: () => Promise<void>;

  test.before.each(async () => {
    ({ store, cleanup } = await make());
  });
  test.after.each(async () => {
    await cleanup();
  });

  test('upsert then get returns the document; upsert again replaces it whole', async () => {
    const c = store.collection('docs');
    await c.upsert({ id: 'u1', a: 1, nested: { b: [1, { c: 'x' }] }, flag: false, none: null });
    assert.equal(await c.get('u1'), { id: 'u1', a: 1, nested: { b: [1, { c: 'x' }] }, flag: false, none: null });
    await c.upsert({ id: 'u1', c: 'y' });
    assert.equal(await c.get('u1'), { id: 'u1', c: 'y' });
    assert.is(await c.count(), 1);
  });

  test('get of an unknown id is null', async () => {
    const c = store.collection('docs');
    await c.upsert({ id: 'known' });
    assert.is(await c.get('unknown'), null);
  });

  test('patch applies $set by dotted path, $unset, $inc; unknown id → false', async () => {
    const c = store.collection('docs');
    await c.upsert({ id: 'p', a: 1, b: { c: 1 }, n: 5, gone: true, list: [{ k: 1 }] });
    const patched = await c.patch('p', {
      $set: { 'b.d.e': 'x', a: 2, 'list.0.k': 2 },
      $unset: ['gone', 'never.there'],
      $inc: { n: 2, m: 1 },
    });
    assert.is(patched, true);
    assert.equal(await c.get('p'), { id: 'p', a: 2, b: { c: 1, d: { e: 'x' } }, n: 7, list: [{ k: 2 }], m: 1 });
    assert.is(await c.patch('nobody', { $set: { a: 1 } }), false);
    assert.is(await c.get('nobody'), null);
  });

  test('patch rejects an unsupported update and an update of id', async () => {
    const c = store.collection('docs');
    await c.upsert({ id: 'p', a: [1] });
    await rejects(c.patch('p', { $push: { a: 2 } } as never), /\$push/);
    await rejects(c.patch('p', { $set: { id: 'q' } }), /immutable/);
    assert.equal(await c.get('p'), { id: 'p', a: [1] });
  });

  test('delete removes one document; deleteMany removes the matches and counts them', async () => {
    const c = store.collection('docs');
    await seed(c, [
      { id: 'a', kind: 'x' },
      { id: 'b', kind: 'x' },
      { id: 'c', kind: ['x', 'y'] },
      { id: 'd', kind: 'y' },
    ]);
    assert.is(await c.delete('a'), true);
    assert.is(await c.get('a'), null);
    assert.is(await c.delete('a'), false);
    assert.is(await c.deleteMany({ kind: 'x' }), 2);
    assert.equal(ids(await c.find({}, { sort: { id: 1 } })), ['d']);
    assert.is(await c.deleteMany({}), 1);
    assert.is(await c.count(), 0);
  });

  test('every operator of the subset, on scalar and array fields, gives MongoDB answers', async () => {
    const c = store.collection('people');
    await seed(c, PEOPLE);
    for (const [filter, expected] of OPERATOR_CASES) {
      assert.equal(ids(await c.find(filter, { sort: { id: 1 } })), expected, `find ${show(filter)}`);
      assert.is(await c.count(filter), expected.length, `count ${show(filter)}`);
    }
  });

  test("findJson answers find's documents as JSON text, in the same order; in a transaction its writes too", async () => {
    const c = store.collection('people');
    await seed(c, PEOPLE);
    for (const [filter] of OPERATOR_CASES) {
      const options = { sort: { id: -1 as const }, skip: 1, limit: 4 };
      assert.equal(
        (await c.findJson(filter, options)).map((json) => JSON.parse(json) as unknown),
        await c.find(filter, options),
        `findJson ${show(filter)}`,
      );
    }
    assert.equal(await store.collection('nobody-here').findJson({}), []);
    const seen = await store.transaction(async (tx) => {
      await tx.collection('people').upsert({ id: 'zz-new', name: 'New', age: 1 });
      return (await tx.collection('people').findJson({ id: 'zz-new' })).map((json) => JSON.parse(json) as unknown);
    });
    assert.equal(seen, [{ id: 'zz-new', name: 'New', age: 1 }]);
  });

  test('sort on two fields with mixed directions, ties broken by id', async () => {
    const c = store.collection('sorted');
    await seed(c, [
      { id: 's5', g: 'b', n: 3 },
      { id: 's1', g: 'b', n: 2 },
      { id: 's6', g: 'a', n: 1 },
      { id: 's3', g: 'b', n: 3 },
      { id: 's7', g: 'c', n: 0 },
      { id: 's2', g: 'a', n: 1 },
      { id: 's4', g: 'a', n: 3 },
    ]);
    assert.equal(ids(await c.find({}, { sort: { g: 1, n: -1 } })), ['s4', 's2', 's6', 's3', 's5', 's1', 's7']);
    assert.equal(ids(await c.find({}, { sort: { g: -1, n: 1 } })), ['s7', 's1', 's3', 's5', 's2', 's6', 's4']);
    assert.equal(ids(await c.find({ n: { $gte: 1 } }, { sort: { n: 1 } })), ['s2', 's6', 's1', 's3', 's4', 's5']);
    assert.equal(ids([await c.findOne({ g: 'a' }, { sort: { n: -1 } })]), ['s4']);
    assert.equal(ids(await c.find({}, { sort: { id: -1 } })), ['s7', 's6', 's5', 's4', 's3', 's2', 's1']);
  });

  test('sort over mixed types follows the BSON order (null and missing first)', async () => {
    const c = store.collection('mixed');
    await seed(c, [
      { id: 'm1', v: 'a' },
      { id: 'm2', v: 3 },
      { id: 'm3' },
      { id: 'm4', v: null },
      { id: 'm5', v: true },
      { id: 'm6', v: -1 },
      { id: 'm7', v: 'B' },
      { id: 'm8', v: { x: 1 } },
      { id: 'm9', v: 2.5 },
    ]);
    assert.equal(ids(await c.find({}, { sort: { v: 1 } })), ['m3', 'm4', 'm6', 'm9', 'm2', 'm7', 'm1', 'm8', 'm5']);
    assert.equal(ids(await c.find({}, { sort: { v: -1 } })), ['m5', 'm8', 'm1', 'm7', 'm2', 'm9', 'm6', 'm3', 'm4']);
  });

  test('skip/limit pages cover every document exactly once, in sort order', async () => {
    const c = store.collection('paged');
    const docs = Array.from({ length: 23 }, (_, i) => ({
      id: `d${String((i * 7) % 23).padStart(2, '0')}`,
      rank: i % 4,
    }));
    await seed(c, docs);
    for (const sort of [{ rank: 1 }, { rank: -1 }] as const) {
      const all = ids(await c.find({}, { sort }));
      const pages: Array<string | null> = [];
      for (let skip = 0; skip < 30; skip += 5) {
        const page = await c.find({}, { sort, skip, limit: 5 });
        assert.ok(page.length <= 5);
        pages.push(...ids(page));
      }
      assert.equal(pages, all);
      assert.is(new Set(pages).size, 23);
      const ranks = (await c.find({}, { sort })).map((d) => d.rank as number);
      assert.equal(
        ranks,
        [...ranks].sort((a, b) => (sort.rank === 1 ? a - b : b - a)),
      );
    }
    assert.equal(ids(await c.find({ rank: 3 }, { sort: { id: 1 }, skip: 1, limit: 2 })), ['d08', 'd13']);
  });

  test('count with and without a filter', async () => {
    const c = store.collection('people');
    await seed(c, PEOPLE);
    assert.is(await c.count(), 5);
    assert.is(await c.count({ active: true }), 2);
    assert.is(await c.count({ 'pets.kind': 'cat', age: { $gt: 40 } }), 1);
  });

  test('groupCount counts per distinct value (missing and null: key null), most frequent first', async () => {
    const c = store.collection('groups');
    await seed(c, [
      { id: 'g1', status: 'open', prio: 1, meta: { kind: 'x' } },
      { id: 'g2', status: 'open', prio: true, meta: { kind: 'x' } },
      { id: 'g3', status: 'open', prio: 1.0, meta: { kind: 'y' } },
      { id: 'g4', status: 'closed', prio: '1' },
      { id: 'g5', status: 'closed' },
      { id: 'g6', status: null },
      { id: 'g7' },
      { id: 'g8', status: 'open', tags: ['a', 'b'] },
    ]);
    assert.equal(await c.groupCount('status'), [
      { key: 'open', count: 4 },
      { key: null, count: 2 },
      { key: 'closed', count: 2 },
    ]);
    assert.equal(await c.groupCount('prio'), [
      { key: null, count: 4 },
      { key: 1, count: 2 },
      { key: '1', count: 1 },
      { key: true, count: 1 },
    ]);
    assert.equal(await c.groupCount('status', { prio: { $exists: true } }), [
      { key: 'open', count: 3 },
      { key: 'closed', count: 1 },
    ]);
    assert.equal(await c.groupCount('meta.kind'), [
      { key: null, count: 5 },
      { key: 'x', count: 2 },
      { key: 'y', count: 1 },
    ]);
    assert.equal(await c.groupCount('tags'), [
      { key: null, count: 7 },
      { key: ['a', 'b'], count: 1 },
    ]);
  });

  test('findOneAndUpdate updates the first match in sort order and returns it after the update', async () => {
    const c = store.collection('queue');
    await seed(c, [
      { id: 'q1', state: 'ready', prio: 1 },
      { id: 'q2', state: 'ready', prio: 3 },
      { id: 'q3', state: 'ready', prio: 2 },
      { id: 'q4', state: 'done', prio: 9 },
    ]);
    const taken = await c.findOneAndUpdate(
      { state: 'ready' },
      { $set: { state: 'taken' }, $inc: { tries: 1 } },
      { sort: { prio: -1 } },
    );
    assert.equal(taken, { id: 'q2', state: 'taken', prio: 3, tries: 1 });
    assert.equal(await c.get('q2'), taken);
    assert.equal((await c.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'taken' } }))?.id, 'q1');
    assert.is(await c.findOneAndUpdate({ state: 'gone' }, { $set: { state: 'taken' } }), null);
    assert.is(await c.count({ state: 'taken' }), 2);
  });

  test('findOneAndUpdate as a lease: 20 concurrent claims over 5 due items claim each exactly once', async () => {
    const c = store.collection('leases');
    const now = 1_000_000;
    const due = ['w1', 'w2', 'w3', 'w4', 'w5'];
    await seed(c, [
      ...due.map((id, i) => ({ id, leaseUntil: now - 1000 * (i + 1), priority: i % 2, attempts: 0 })),
      { id: 'later1', leaseUntil: now + 5000, priority: 9, attempts: 0 },
      { id: 'later2', leaseUntil: now, priority: 9, attempts: 0 },
    ]);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, worker) =>
        c.findOneAndUpdate(
          { leaseUntil: { $lt: now } },
          { $set: { leaseUntil: now + 60_000, owner: `worker-${worker}` }, $inc: { attempts: 1 } },
          { sort: { priority: -1, leaseUntil: 1 } },
        ),
      ),
    );
    const won = claims.filter((d): d is Doc => d !== null);
    assert.is(won.length, 5);
    assert.equal(won.map((d) => d.id).sort(), due);
    assert.is(new Set(won.map((d) => d.owner)).size, 5);
    for (const claim of won) {
      const stored = await c.get(claim.id);
      assert.is(stored?.attempts, 1, `${claim.id} claimed once`);
      assert.is(stored?.owner, claim.owner);
      assert.is(stored?.leaseUntil, now + 60_000);
    }
    assert.equal(await c.get('later1'), { id: 'later1', leaseUntil: now + 5000, priority: 9, attempts: 0 });
    assert.equal(await c.get('later2'), { id: 'later2', leaseUntil: now, priority: 9, attempts: 0 });
    assert.is(await c.findOneAndUpdate({ leaseUntil: { $lt: now } }, { $set: { owner: 'late' } }), null);
  });

  test('findManyAndUpdate updates up to limit first matches in sort order and returns them after the update', async () => {
    const c = store.collection('batch');
    await seed(c, [
      { id: 'b1', state: 'ready', prio: 1 },
      { id: 'b2', state: 'ready', prio: 4 },
      { id: 'b3', state: 'ready', prio: 2 },
      { id: 'b4', state: 'ready', prio: 3 },
      { id: 'b5', state: 'done', prio: 9 },
    ]);
    const taken = await c.findManyAndUpdate(
      { state: 'ready' },
      { $set: { state: 'taken' }, $inc: { tries: 1 } },
      { sort: { prio: -1 }, limit: 2 },
    );
    assert.equal(taken, [
      { id: 'b2', state: 'taken', prio: 4, tries: 1 },
      { id: 'b4', state: 'taken', prio: 3, tries: 1 },
    ]);
    assert.equal(await c.get('b4'), taken[1]);
    // fewer match than the limit: those
    assert.equal(
      (
        await c.findManyAndUpdate({ state: 'ready' }, { $set: { state: 'taken' } }, { sort: { prio: 1 }, limit: 10 })
      ).map((d) => d.id),
      ['b1', 'b3'],
    );
    assert.equal(await c.findManyAndUpdate({ state: 'ready' }, { $set: { state: 'taken' } }, { limit: 10 }), []);
    assert.is(await c.count({ state: 'taken' }), 4);
    assert.equal(await c.get('b5'), { id: 'b5', state: 'done', prio: 9 });
  });

  test('findManyAndUpdate takes distinct documents even when the update leaves them matching, and refuses a bad limit', async () => {
    const c = store.collection('batch2');
    await seed(c, [
      { id: 'k1', n: 0 },
      { id: 'k2', n: 0 },
      { id: 'k3', n: 0 },
    ]);
    const taken = await c.findManyAndUpdate({}, { $inc: { n: 1 } }, { sort: { id: 1 }, limit: 2 });
    assert.equal(taken, [
      { id: 'k1', n: 1 },
      { id: 'k2', n: 1 },
    ]);
    assert.equal(await c.get('k3'), { id: 'k3', n: 0 });
    for (const limit of [0, -1, 1.5, Number.NaN])
      await rejects(c.findManyAndUpdate({}, { $inc: { n: 1 } }, { limit }), /limit/);
    assert.equal(
      (await c.find({}, { sort: { id: 1 } })).map((d) => d.n),
      [1, 1, 0],
    );
  });

  test('findManyAndUpdate as leases: 10 concurrent claims of up to 3 over 12 due items claim each exactly once', async () => {
    const c = store.collection('batchLeases');
    const now = 1_000_000;
    const due = Array.from({ length: 12 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    await seed(c, [
      ...due.map((id, i) => ({ id, leaseUntil: now - 1000 * (i + 1), attempts: 0 })),
      { id: 'later', leaseUntil: now + 5000, attempts: 0 },
    ]);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, worker) =>
        c.findManyAndUpdate(
          { leaseUntil: { $lt: now } },
          { $set: { leaseUntil: now + 60_000, owner: `worker-${worker}` }, $inc: { attempts: 1 } },
          { sort: { leaseUntil: 1 }, limit: 3 },
        ),
      ),
    );
    const won = claims.flat();
    assert.equal(won.map((d) => d.id).sort(), due);
    for (const claim of won) {
      const stored = await c.get(claim.id);
      assert.is(stored?.attempts, 1, `${claim.id} claimed once`);
      assert.is(stored?.owner, claim.owner);
    }
    for (const batch of claims) assert.ok(batch.length <= 3);
    assert.equal(await c.get('later'), { id: 'later', leaseUntil: now + 5000, attempts: 0 });
  });

  test('findManyAndUpdate inside a transaction sees its writes and is rolled back with it', async () => {
    await store.ensureCollection('batchTx');
    const c = store.collection('batchTx');
    await seed(c, [{ id: 't1', state: 'ready' }]);
    await rejects(
      store.transaction(async (tx) => {
        await tx.collection('batchTx').upsert({ id: 't2', state: 'ready' });
        const taken = await tx
          .collection('batchTx')
          .findManyAndUpdate({ state: 'ready' }, { $set: { state: 'taken' } }, { sort: { id: 1 }, limit: 5 });
        assert.equal(
          taken.map((d) => d.id),
          ['t1', 't2'],
        );
        throw new Error('undo');
      }),
      /undo/,
    );
    assert.equal(await c.find({}, { sort: { id: 1 } }), [{ id: 't1', state: 'ready' }]);
  });

  test('transaction commits all its writes together and returns fn’s result', async () => {
    await store.ensureCollection('accounts');
    await store.ensureCollection('checkpoints');
    await store.collection('accounts').upsert({ id: 'a1', balance: 10 });
    const result = await store.transaction(async (tx) => {
      await tx.collection('accounts').upsert({ id: 'a2', balance: 5 });
      await tx.collection('accounts').patch('a1', { $inc: { balance: -5 } });
      await tx.collection('checkpoints').upsert({ id: 'projection', position: 42 });
      assert.equal(await tx.collection('accounts').get('a2'), { id: 'a2', balance: 5 }, 'reads its own writes');
      assert.is(await tx.collection('accounts').count({ balance: 5 }), 2);
      return 'committed';
    });
    assert.is(result, 'committed');
    assert.equal(ids(await store.collection('accounts').find({ balance: 5 }, { sort: { id: 1 } })), ['a1', 'a2']);
    assert.equal(await store.collection('checkpoints').get('projection'), { id: 'projection', position: 42 });
  });

  test('transaction rolls back everything when fn throws, and rethrows', async () => {
    await store.ensureCollection('accounts');
    await store.ensureCollection('checkpoints');
    await seed(store.collection('accounts'), [
      { id: 'a1', balance: 10 },
      { id: 'a2', balance: 5 },
    ]);
    await rejects(
      store.transaction(async (tx) => {
        await tx.collection('accounts').upsert({ id: 'a3', balance: 1 });
        await tx.collection('accounts').patch('a1', { $inc: { balance: -10 } });
        await tx.collection('accounts').delete('a2');
        await tx.collection('accounts').findOneAndUpdate({ id: 'a1' }, { $set: { locked: true } });
        await tx.collection('checkpoints').upsert({ id: 'projection', position: 7 });
        // a nested transaction joins the outer one and is rolled back with it
        await store.transaction(async (inner) => inner.collection('accounts').upsert({ id: 'a4', balance: 4 }));
        throw new Error('boom');
      }),
      /boom/,
    );
    const accounts = store.collection('accounts');
    assert.equal(await accounts.find({}, { sort: { id: 1 } }), [
      { id: 'a1', balance: 10 },
      { id: 'a2', balance: 5 },
    ]);
    assert.is(await store.collection('checkpoints').get('projection'), null);
    // the store stays usable
    await accounts.upsert({ id: 'a5', balance: 0 });
    assert.is(await accounts.count(), 3);
  });

  test('a transaction reached through its session only (ambient: false): its writes commit together; the store itself, read from inside, answers what was committed before it', async () => {
    await store.ensureCollection('accounts');
    await store.collection('accounts').upsert({ id: 'a1', balance: 10 });
    const result = await store.transaction(
      async (tx) => {
        await tx.collection('accounts').upsert({ id: 'a2', balance: 5 });
        await tx.ensureCollection('made-inside', { indexes: [{ name: 'by_kind', fields: { kind: 1 } }] });
        await tx.collection('made-inside').upsert({ id: 'm1', kind: 'x' });
        assert.equal(
          ids(await tx.collection('made-inside').find({ kind: 'x' })),
          ['m1'],
          'a collection created in it, used in it',
        );
        assert.is(
          await store.collection('accounts').get('a2'),
          null,
          'not joined: the store answers what is committed',
        );
        return 'done';
      },
      { ambient: false },
    );
    assert.is(result, 'done');
    assert.equal(ids(await store.collection('accounts').find({}, { sort: { id: 1 } })), ['a1', 'a2']);
    assert.equal(await store.collection('made-inside').get('m1'), { id: 'm1', kind: 'x' });
    assert.ok((await store.listCollections()).includes('made-inside'));
  });

  test('a transaction reached through its session only rolls back everything when fn throws', async () => {
    await store.ensureCollection('accounts');
    await store.collection('accounts').upsert({ id: 'a1', balance: 10 });
    await rejects(
      store.transaction(
        async (tx) => {
          await tx.collection('accounts').patch('a1', { $inc: { balance: -10 } });
          await tx.collection('accounts').upsert({ id: 'a2', balance: 1 });
          throw new Error('boom');
        },
        { ambient: false },
      ),
      /boom/,
    );
    assert.equal(await store.collection('accounts').find(), [{ id: 'a1', balance: 10 }]);
  });

  // ---- savepoints (TransactionSession.savepoint) ------------------------------------------------------

  const partialRollback = capabilities.partialRollback ?? true;

  /** accounts a1 (10) and a2 (5), and the empty collections the savepoint tests write to */
  const savepointSeed = async () => {
    await store.ensureCollection('accounts');
    await store.ensureCollection('checkpoints');
    await seed(store.collection('accounts'), [
      { id: 'a1', balance: 10 },
      { id: 'a2', balance: 5 },
    ]);
  };
  const SEEDED = [
    { id: 'a1', balance: 10 },
    { id: 'a2', balance: 5 },
  ];

  test('savepoint: a part that succeeds is part of the transaction and returns fn’s result', async () => {
    await savepointSeed();
    const result = await store.transaction(async (tx) => {
      await tx.collection('accounts').upsert({ id: 'a3', balance: 3 });
      const inner = await tx.savepoint(async (part) => {
        await part.collection('accounts').patch('a1', { $inc: { balance: -1 } });
        await part.collection('checkpoints').upsert({ id: 'p1', position: 1 });
        assert.equal(
          await part.collection('accounts').get('a3'),
          { id: 'a3', balance: 3 },
          'sees the transaction’s writes',
        );
        return 'part done';
      });
      assert.is(inner, 'part done');
      assert.equal(
        await tx.collection('checkpoints').get('p1'),
        { id: 'p1', position: 1 },
        'the transaction sees the part’s writes',
      );
      return 'committed';
    });
    assert.is(result, 'committed');
    assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), [
      { id: 'a1', balance: 9 },
      { id: 'a2', balance: 5 },
      { id: 'a3', balance: 3 },
    ]);
    assert.equal(await store.collection('checkpoints').get('p1'), { id: 'p1', position: 1 });
  });

  test('savepoint: a transaction that throws after a successful part undoes the part too', async () => {
    await savepointSeed();
    await rejects(
      store.transaction(async (tx) => {
        await tx.savepoint(async (part) => {
          await part.collection('accounts').upsert({ id: 'a3', balance: 3 });
          await part.collection('checkpoints').upsert({ id: 'p1', position: 1 });
        });
        throw new Error('later failure');
      }),
      /later failure/,
    );
    assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), SEEDED);
    assert.is(await store.collection('checkpoints').get('p1'), null);
  });

  test('inside a transaction get answers its writes: null after a delete, a document it found missing once written, and again what a rolled-back part deleted', async () => {
    await store.collection('accounts').upsert({ id: 'a1', balance: 1 });
    await store.transaction(async (tx) => {
      const accounts = tx.collection('accounts');
      assert.is(await accounts.get('a9'), null);
      assert.is(await accounts.get('a9'), null, 'asked again');
      await accounts.upsert({ id: 'a9', balance: 9 });
      assert.equal(await accounts.get('a9'), { id: 'a9', balance: 9 });
      await accounts.delete('a1');
      assert.is(await accounts.get('a1'), null, 'deleted in this transaction');
      assert.equal(ids(await accounts.find({}, { sort: { id: 1 } })), ['a9']);
      await accounts.upsert({ id: 'a1', balance: 2 });
      assert.equal(await accounts.get('a1'), { id: 'a1', balance: 2 }, 'written again after the delete was written');
      if (partialRollback) {
        await tx
          .savepoint(async (part) => {
            await part.collection('accounts').delete('a9');
            assert.is(await part.collection('accounts').get('a9'), null);
            await part.collection('accounts').find({});
            throw new Error('undo the part');
          })
          .catch(() => undefined);
        assert.equal(await accounts.get('a9'), { id: 'a9', balance: 9 }, 'the part that deleted it was rolled back');
      }
    });
    assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), [
      { id: 'a1', balance: 2 },
      { id: 'a9', balance: 9 },
    ]);
  });

  if (partialRollback) {
    test('savepoint: a throwing part is undone and rethrown, the rest of the transaction commits', async () => {
      await savepointSeed();
      const boom = new Error('projection p2 cannot apply this page');
      const result = await store.transaction(async (tx) => {
        await tx.collection('accounts').upsert({ id: 'a3', balance: 3 });
        await tx.savepoint(async (part) => {
          await part.collection('accounts').patch('a1', { $inc: { balance: -1 } });
          await part.collection('checkpoints').upsert({ id: 'p1', position: 7 });
        });
        let caught: unknown;
        try {
          await tx.savepoint(async (part) => {
            await part.collection('accounts').upsert({ id: 'a4', balance: 4 });
            await part.collection('accounts').patch('a2', { $set: { balance: 0, frozen: true } });
            await part.collection('accounts').delete('a3');
            await part.collection('checkpoints').upsert({ id: 'p2', position: 7 });
            // a nested transaction joins the part and is undone with it
            await store.transaction(async (inner) => inner.collection('checkpoints').upsert({ id: 'p9', position: 7 }));
            throw boom;
          });
        } catch (e) {
          caught = e;
        }
        assert.is(caught, boom, 'the part’s own error, rethrown');
        // inside the transaction the part is already undone, the earlier writes are still there
        assert.is(await tx.collection('accounts').get('a4'), null);
        assert.equal(await tx.collection('accounts').get('a2'), { id: 'a2', balance: 5 });
        assert.equal(await tx.collection('accounts').get('a3'), { id: 'a3', balance: 3 });
        // and it goes on: a later part and a plain write
        await tx.savepoint(async (part) => part.collection('checkpoints').upsert({ id: 'p3', position: 7 }));
        await tx.collection('accounts').upsert({ id: 'a5', balance: 5 });
        return 'committed';
      });
      assert.is(result, 'committed');
      assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), [
        { id: 'a1', balance: 9 },
        { id: 'a2', balance: 5 },
        { id: 'a3', balance: 3 },
        { id: 'a5', balance: 5 },
      ]);
      assert.equal(ids(await store.collection('checkpoints').find({}, { sort: { id: 1 } })), ['p1', 'p3']);
    });
  } else {
    test('savepoint without partial rollback: a throwing part fails the whole transaction, nothing is written', async () => {
      await savepointSeed();
      const boom = new Error('projection p2 cannot apply this page');
      let seen: unknown;
      const outcome = await store
        .transaction(async (tx) => {
          await tx.collection('accounts').upsert({ id: 'a3', balance: 3 });
          await tx.savepoint(async (part) => part.collection('checkpoints').upsert({ id: 'p1', position: 7 }));
          try {
            await tx.savepoint(async (part) => {
              await part.collection('accounts').patch('a1', { $inc: { balance: -1 } });
              throw boom;
            });
          } catch (e) {
            seen = e;
            throw e; // what a caller does with it: let the whole transaction abort
          }
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.instance(seen, PartialRollbackUnavailableError);
      assert.is((seen as PartialRollbackUnavailableError).original, boom);
      assert.instance(outcome, PartialRollbackUnavailableError);
      assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), SEEDED);
      assert.equal(await store.collection('checkpoints').find(), []);
    });

    test('savepoint without partial rollback: the transaction fails even when fn swallows the part’s error', async () => {
      await savepointSeed();
      const outcome = await store
        .transaction(async (tx) => {
          await tx.collection('accounts').upsert({ id: 'a3', balance: 3 });
          await tx
            .savepoint(async (part) => {
              await part.collection('accounts').upsert({ id: 'a4', balance: 4 });
              throw new Error('boom');
            })
            .catch(() => 'ignored');
          await tx.collection('checkpoints').upsert({ id: 'p1', position: 7 });
          return 'committed?';
        })
        .then(
          (value) => value,
          (e: unknown) => e,
        );
      assert.instance(outcome, PartialRollbackUnavailableError);
      assert.equal(await store.collection('accounts').find({}, { sort: { id: 1 } }), SEEDED);
      assert.equal(await store.collection('checkpoints').find(), []);
      // the store stays usable, and a transaction whose parts all succeed commits
      await store.transaction(async (tx) =>
        tx.savepoint(async (part) => part.collection('checkpoints').upsert({ id: 'p2', position: 8 })),
      );
      assert.equal(await store.collection('checkpoints').get('p2'), { id: 'p2', position: 8 });
    });
  }

  // ---- end of savepoints -------------------------------------------------------------------------------

  test('a never-created collection reads empty', async () => {
    const c = store.collection('never.created-1');
    assert.is(await c.get('x'), null);
    assert.equal(await c.find({ a: 1 }, { sort: { a: 1 }, limit: 3 }), []);
    assert.is(await c.findOne(), null);
    assert.is(await c.count(), 0);
    assert.equal(await c.groupCount('a'), []);
    assert.is(await c.delete('x'), false);
    assert.is(await c.deleteMany({ a: 1 }), 0);
    assert.is(await c.patch('x', { $set: { a: 1 } }), false);
    assert.is(await c.findOneAndUpdate({}, { $set: { a: 1 } }), null);
    assert.equal(await c.findManyAndUpdate({}, { $set: { a: 1 } }, { limit: 3 }), []);
    assert.not.ok((await store.listCollections()).includes('never.created-1'));
  });

  test('ensureCollection, listCollections and dropCollection', async () => {
    await store.ensureCollection('alpha', { indexes: [{ name: 'byA', fields: { a: 1 } }] });
    await store.ensureCollection('alpha', { indexes: [{ name: 'byA', fields: { a: 1 } }] }); // idempotent
    await store.collection('beta_2').upsert({ id: 'b' });
    const listed = await store.listCollections();
    assert.ok(listed.includes('alpha') && listed.includes('beta_2'), listed.join());
    await store.dropCollection('beta_2');
    await store.dropCollection('beta_2'); // dropping a missing collection is fine
    assert.not.ok((await store.listCollections()).includes('beta_2'));
    assert.is(await store.collection('beta_2').get('b'), null);
  });

  test('declared indexes do not change results', async () => {
    const data = tasks();
    await store.ensureCollection('plain');
    const indexes: IndexSpec[] = [
      { name: 'byStatus', fields: { status: 1 } },
      { name: 'byPrio', fields: { prio: -1 } },
      { name: 'byGroupRank', fields: { group: 1, rank: -1 } },
      { name: 'byNestedX', fields: { 'nested.x': 1 } },
      { name: 'byTags', fields: { tags: 1 }, multi: true },
    ];
    await store.ensureCollection('indexed', { indexes });
    await store.ensureCollection('indexed', { indexes }); // idempotent
    await seed(store.collection('plain'), data);
    await seed(store.collection('indexed'), data);
    const plain = store.collection('plain');
    const indexed = store.collection('indexed');
    for (const filter of INDEX_QUERIES) {
      const expected = ids(await plain.find(filter, { sort: { id: 1 } }));
      assert.equal(ids(await indexed.find(filter, { sort: { id: 1 } })), expected, `find ${show(filter)}`);
      assert.equal(
        ids(await indexed.find(filter, { sort: { prio: -1 } })),
        ids(await plain.find(filter, { sort: { prio: -1 } })),
      );
      assert.is(await indexed.count(filter), expected.length, `count ${show(filter)}`);
      assert.equal(await indexed.groupCount('status', filter), await plain.groupCount('status', filter));
    }
    // and the answers are MongoDB's
    assert.equal(ids(await indexed.find({ status: 'open' }, { sort: { id: 1 } })), [
      't00',
      't07',
      't14',
      't21',
      't28',
      't35',
    ]);
    assert.equal(ids(await indexed.find({ prio: 1 }, { sort: { id: 1 } })), [
      't00',
      't08',
      't09',
      't17',
      't18',
      't26',
      't27',
      't35',
      't36',
    ]);
    assert.equal(ids(await indexed.find({ prio: true }, { sort: { id: 1 } })), ['t03', 't12', 't21', 't30', 't39']);
    assert.equal(ids(await indexed.find({ prio: { $gt: '0' } }, { sort: { id: 1 } })), ['t04', 't13', 't22', 't31']);
    assert.is(await indexed.count({ status: null }), 11);
    assert.is(await indexed.count({ prio: { $lt: 1 } }), 9);
  });

  test('a unique index rejects a second document with the same value', async () => {
    await store.ensureCollection('users', { indexes: [{ name: 'byEmail', fields: { email: 1 }, unique: true }] });
    const users = store.collection('users');
    await users.upsert({ id: 'u1', email: 'a@example.com' });
    await users.upsert({ id: 'u2', email: 'b@example.com' });
    let failed = false;
    try {
      await users.upsert({ id: 'u3', email: 'a@example.com' });
    } catch {
      failed = true;
    }
    assert.ok(failed, 'duplicate rejected');
    assert.is(await users.get('u3'), null);
    await users.upsert({ id: 'u1', email: 'a@example.com', name: 'same doc' });
    assert.is((await users.get('u1'))?.name, 'same doc');
  });

  test('a filter with an unknown operator or a malformed operand is rejected with an Error', async () => {
    const c = store.collection('people');
    await seed(c, PEOPLE);
    await rejects(c.find({ $where: 'this.age > 1' }), /\$where/);
    await rejects(c.find({ age: { $where: 1 } }), /\$where/);
    await rejects(c.find({ age: { $elemMatch: { $gt: 1 } } }), /\$elemMatch/);
    await rejects(c.count({ age: { $in: 5 } }), /\$in needs an array/);
    await rejects(c.deleteMany({ $expr: { $gt: ['$age', 1] } }), /\$expr/);
    await rejects(c.findOne({ name: { $regex: 5 } }), /\$regex/);
    await rejects(c.groupCount('name', { age: { $gt: {} } }), /\$gt/);
    await rejects(c.findOneAndUpdate({ age: { $foo: 1 } }, { $set: { x: 1 } }), /\$foo/);
    assert.is(await c.count(), 5, 'nothing deleted');
  });

  test('a document at the input limits: 64-deep data inside an 8-level projection wrapper is stored, found, patched', async () => {
    // what the input limits let through (domain/core/input-limits.ts: 64 levels for any body, 32 for event
    // data) inside a read model's own wrapping; SQLite's JSON functions stop at 1000 levels, BSON at 100
    let data: Record<string, unknown> = { leaf: 'x', n: 1, list: [{ k: 1 }, { k: 2 }] };
    for (let i = 1; i < 64; i++) data = { a: data, i };
    const doc: Doc = {
      id: 'deep',
      kind: 'trace',
      stage: { s1: { s2: { s3: { s4: { s5: { s6: { event: data } } } } } } },
    };
    const inner = `stage.s1.s2.s3.s4.s5.s6.event${'.a'.repeat(63)}`;
    await store.ensureCollection('deep_docs', {
      indexes: [
        { name: 'byKind', fields: { kind: 1 } },
        { name: 'byLeaf', fields: { [`${inner}.leaf`]: 1 } },
      ],
    });
    const c = store.collection('deep_docs');
    await c.upsert({ id: 'shallow', kind: 'trace' });
    await c.upsert(doc);
    assert.equal(await c.get('deep'), doc);
    assert.equal(ids(await c.find({ kind: 'trace' }, { sort: { id: 1 } })), ['deep', 'shallow']);
    assert.equal(ids(await c.find({ [`${inner}.leaf`]: 'x' })), ['deep']);
    assert.equal(ids(await c.find({ [`${inner}.list.k`]: 2, [`${inner}.n`]: { $gte: 1 } })), ['deep']);
    assert.equal(ids(await c.find({ [`${inner}.leaf`]: 'y' })), []);
    assert.is(await c.patch('deep', { $set: { [`${inner}.leaf`]: 'y' }, $inc: { [`${inner}.n`]: 1 } }), true);
    const patched = await c.get('deep');
    let at: unknown = (
      patched as unknown as { stage: { s1: { s2: { s3: { s4: { s5: { s6: { event: unknown } } } } } } } }
    ).stage.s1.s2.s3.s4.s5.s6.event;
    for (let i = 1; i < 64; i++) at = (at as { a: unknown }).a;
    assert.equal(at, { leaf: 'y', n: 2, list: [{ k: 1 }, { k: 2 }] });
    assert.equal(ids(await c.find({ [`${inner}.leaf`]: 'y' })), ['deep']);
    assert.equal(await c.groupCount(`${inner}.leaf`), [
      { key: null, count: 1 },
      { key: 'y', count: 1 },
    ]);
    assert.is(await c.count({ [`${inner}.i`]: { $exists: true } }), 0); // the deepest object has no `i`
    assert.is(await c.count({ [`stage.s1.s2.s3.s4.s5.s6.event${'.a'.repeat(62)}.i`]: 1 }), 1);
  });

  test('ping answers while the store is open', async () => {
    await store.ping();
  });

  test.run();
}
