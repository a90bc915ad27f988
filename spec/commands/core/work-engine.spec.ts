import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createWorkEngine, type DueItem } from '../../../commands/core/work-engine.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { Collection, ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';

type Item = DueItem & { key?: string; n: number };
type Ctx = { dir: string; a: ReadStore; b: ReadStore };
const test = suite<Ctx>('work engine: due items with leases, concurrency, order per key', {} as Ctx);

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'engine-'));
  ctx.a = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
  ctx.b = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') }); // as a second process would
  await ctx.a.ensureCollection('due', { indexes: [{ name: 'by_due', fields: { dueAt: 1 } }] });
});
test.after.each(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const clock = manualClock('2026-11-23T10:00:00.000Z');
const due = (store: ReadStore) => async () => store.collection<Item>('due');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seed(items: Collection<Item>, count: number, key?: (i: number) => string | undefined) {
  for (let i = 0; i < count; i++) {
    const k = key?.(i);
    // equal due times, ordered by n: dueAt carries the order for the claim sort
    await items.upsert({
      id: `i${String(i).padStart(3, '0')}`,
      n: i,
      dueAt: new Date(Date.parse(clock.now().toISOString()) - 1000 + i).toISOString(),
      leaseUntil: '',
      ...(k !== undefined && { key: k }),
    });
  }
}

/** a handler that records runs and how many ran at once; the outcome removes the item (as a projection would) */
function handler(items: () => Promise<Collection<Item>>, o: { ms?: number } = {}) {
  const runs: Item[] = [];
  let now = 0;
  let max = 0;
  return {
    runs,
    max: () => max,
    async handle(item: Item) {
      now++;
      max = Math.max(max, now);
      await sleep(o.ms ?? 5);
      runs.push(item);
      now--;
      await (await items()).delete(item.id);
    },
  };
}

test('runs up to `concurrency` items at once, each once', async ({ a }) => {
  await seed(await due(a)(), 20);
  const h = handler(due(a));
  const engine = createWorkEngine<Item>({
    name: 'e',
    items: due(a),
    clock,
    concurrency: 4,
    handle: h.handle,
    pollMs: 10,
  });
  engine.start();
  await eventually(() => h.runs.length === 20, 'all items');
  await engine.stop();
  assert.is(h.max(), 4);
  assert.is(new Set(h.runs.map((r) => r.id)).size, 20);
});

test('items the process runs by another way (busy) are not claimed, not leased, and are claimed once they are not busy', async ({
  a,
}) => {
  await seed(await due(a)(), 3);
  const h = handler(due(a));
  const busy = new Set(['i001']);
  const engine = createWorkEngine<Item>({ name: 'e', items: due(a), clock, handle: h.handle, busy: () => [...busy] });
  assert.is(await engine.runDue(), 2);
  assert.equal(h.runs.map((r) => r.id).sort(), ['i000', 'i002']);
  const left = await (await due(a)()).get('i001');
  assert.is(left?.leaseUntil, '');
  assert.is(left?.leases, undefined);
  busy.clear();
  assert.is(await engine.runDue(), 1);
  assert.equal(h.runs.map((r) => r.id).sort(), ['i000', 'i001', 'i002']);
});

test('items sharing a key run one at a time, in claim order; other keys go on beside them', async ({ a }) => {
  await seed(await due(a)(), 12, (i) => (i % 3 === 0 ? 'ordered' : undefined));
  const h = handler(due(a), { ms: 8 });
  const engine = createWorkEngine<Item>({
    name: 'e',
    items: due(a),
    clock,
    concurrency: 6,
    keyOf: (i) => i.key,
    handle: h.handle,
    pollMs: 10,
  });
  engine.start();
  await eventually(() => h.runs.length === 12, 'all items');
  await engine.stop();
  const ordered = h.runs.filter((r) => r.key === 'ordered').map((r) => r.n);
  assert.equal(ordered, [0, 3, 6, 9], 'in claim order');
  assert.ok(h.max() > 1, 'unkeyed items ran concurrently');
});

test('two engines on two store connections (two processes) never run the same item', async ({ a, b }) => {
  await seed(await due(a)(), 40);
  const ha = handler(due(a), { ms: 2 });
  const hb = handler(due(b), { ms: 2 });
  const ea = createWorkEngine<Item>({ name: 'a', items: due(a), clock, concurrency: 4, handle: ha.handle, pollMs: 5 });
  const eb = createWorkEngine<Item>({ name: 'b', items: due(b), clock, concurrency: 4, handle: hb.handle, pollMs: 5 });
  ea.start();
  eb.start();
  await eventually(() => ha.runs.length + hb.runs.length === 40, 'all items');
  await Promise.all([ea.stop(), eb.stop()]);
  const ids = [...ha.runs, ...hb.runs].map((r) => r.id);
  assert.is(new Set(ids).size, 40, 'each item ran exactly once');
  assert.ok(ha.runs.length > 0 && hb.runs.length > 0, 'both engines took work');
});

/** the due collection, counting the engine's claims (findManyAndUpdate calls and what each asked for and got) */
function counted(store: ReadStore) {
  const claims: Array<{ limit: number; got: number }> = [];
  const items = async () => {
    const inner = store.collection<Item>('due');
    return {
      ...inner,
      async findManyAndUpdate(...args: Parameters<Collection<Item>['findManyAndUpdate']>) {
        const got = await inner.findManyAndUpdate(...args);
        claims.push({ limit: args[2].limit, got: got.length });
        return got;
      },
    } satisfies Collection<Item>;
  };
  return { items, claims };
}

test('free slots are claimed in one store call; a finished item makes the engine look again only when every slot was taken', async ({
  a,
}) => {
  const { items, claims } = counted(a);
  await seed(await items(), 10);
  const h = handler(items);
  // no poll during the test: only the engine's own looks (start, finished items while full) claim
  const engine = createWorkEngine<Item>({ name: 'e', items, clock, concurrency: 4, handle: h.handle, pollMs: 60_000 });
  engine.start();
  await eventually(() => h.runs.length === 10, 'all items, without a poll');
  assert.equal(claims[0], { limit: 4, got: 4 }, 'the first look fills every slot with one call');
  assert.ok(claims.length < 10, `fewer claims than items (${claims.length})`);
  assert.is(h.max(), 4);
  const looks = claims.length;
  await engine.settled();
  assert.is(claims.length, looks, 'the last items finished with slots free: no further look');

  // two due items, four slots: one look takes both, and their ends cause no look
  await seed(await items(), 2);
  engine.wake();
  await eventually(() => h.runs.length === 12, 'the two');
  await engine.settled();
  await engine.stop();
  assert.equal(claims.slice(looks), [{ limit: 4, got: 2 }]);
});

test("while every slot is taken, a finished item makes the engine look again only once a claim's worth of slots (claimBatch) is free", async ({
  a,
}) => {
  const { items, claims } = counted(a);
  await seed(await items(), 24);
  const h = handler(items);
  const slow = { ...h, handle: async (item: Item) => (await sleep((item.n % 3) * 4), h.handle(item)) };
  // no refill look during the test: only a claim's worth of free slots makes the engine look again
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    concurrency: 8,
    claimBatch: 4,
    handle: slow.handle,
    pollMs: 60_000,
    refillMs: 60_000,
  });
  engine.start();
  await eventually(() => h.runs.length === 24, 'all items, without a poll');
  await engine.stop();
  assert.ok(
    claims.every((c) => c.limit === 4),
    `every look asks for a whole batch: ${JSON.stringify(claims)}`,
  );
  assert.ok(claims.length <= 8, `about one claim per 4 items (${claims.length})`);
});

test("a full engine with fewer than a claim's worth of slots free looks again after refillMs, not at the poll", async ({
  a,
}) => {
  const { items, claims } = counted(a);
  await seed(await items(), 6);
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const h = handler(items);
  // the first four hold their slots until released; one of them is quick
  const handle = async (item: Item) => (item.n < 3 ? held.then(() => h.handle(item)) : h.handle(item));
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    concurrency: 4,
    claimBatch: 4,
    handle,
    pollMs: 60_000,
    refillMs: 5,
  });
  engine.start();
  await eventually(() => h.runs.length === 1, 'the quick item');
  await eventually(() => claims.length === 2, 'a second look for the one free slot');
  assert.equal(claims[1], { limit: 1, got: 1 });
  release();
  await eventually(() => h.runs.length === 6, 'all items');
  await engine.stop();
});

test('a burst is shared by two engines looking at once (two processes), each claim taking a few items', async ({
  a,
  b,
}) => {
  const ha = handler(due(a), { ms: 2 });
  const hb = handler(due(b), { ms: 2 });
  const ea = createWorkEngine<Item>({
    name: 'a',
    items: due(a),
    clock,
    concurrency: 16,
    handle: ha.handle,
    pollMs: 60_000,
  });
  const eb = createWorkEngine<Item>({
    name: 'b',
    items: due(b),
    clock,
    concurrency: 16,
    handle: hb.handle,
    pollMs: 60_000,
  });
  ea.start();
  eb.start();
  await Promise.all([ea.settled(), eb.settled()]);
  for (let burst = 0; burst < 5; burst++) {
    const before = ha.runs.length + hb.runs.length;
    await seed(await due(a)(), 12);
    ea.wake();
    eb.wake();
    await eventually(() => ha.runs.length + hb.runs.length === before + 12, `burst ${burst}`);
  }
  await Promise.all([ea.stop(), eb.stop()]);
  assert.is(ha.runs.length + hb.runs.length, 60, 'each item of each burst ran once');
  assert.ok(
    ha.runs.length >= 12 && hb.runs.length >= 12,
    `both took a share: ${ha.runs.length} and ${hb.runs.length} of 60`,
  );
});

test('wake() makes an idle engine look at once; a failing item keeps its lease until it expires', async ({ a }) => {
  const items = due(a);
  let fail = true;
  const runs: string[] = [];
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    leaseMs: 60_000,
    pollMs: 60_000,
    async handle(item) {
      runs.push(item.id);
      if (fail) throw new Error('peer down');
      await (await items()).delete(item.id);
    },
  });
  engine.start();
  await engine.settled(); // idle now, its next poll a minute away
  await seed(await items(), 1);
  engine.wake();
  await eventually(() => runs.length === 1, 'woken');
  fail = false;
  engine.wake();
  await engine.settled();
  assert.is(runs.length, 1, 'leased: not run again before the lease expires');
  const s = await engine.status();
  assert.is(s.backlog, 0);
  clock.advance(60_001);
  engine.wake();
  await eventually(() => runs.length === 2, 'after the lease');
  await engine.stop();
  assert.equal(await (await items()).find({}), []);
});

test('settled() waits for the items in flight, answers whether the engine was at rest already, and resolves at once on a stopped engine', async ({
  a,
}) => {
  const items = due(a);
  await seed(await items(), 3);
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const h = handler(items);
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    concurrency: 4,
    pollMs: 60_000,
    handle: async (item) => held.then(() => h.handle(item)),
  });
  assert.is(await engine.settled(), true, 'stopped, nothing in hand');
  engine.start();
  let settled = false;
  const waiting = engine.settled().then((calm) => ((settled = true), calm));
  await eventually(() => engine.status().then((s) => s.inFlight === 3), 'the three in flight');
  assert.is(settled, false, 'not at rest while items run');
  release();
  assert.is(await waiting, false, 'it had to wait');
  assert.is(h.runs.length, 3, 'every item ran before it settled');
  assert.is(await engine.settled(), true, 'at rest: nothing to wait for');
  await engine.stop();
});

test('settled() on an engine with an item due now that no look has seen yet (no wake, the poll far away) looks at once and waits for it', async ({
  a,
}) => {
  const items = due(a);
  const h = handler(items);
  const engine = createWorkEngine<Item>({ name: 'e', items, clock, pollMs: 60_000, handle: h.handle });
  engine.start();
  await engine.settled(); // its first look found nothing
  await seed(await items(), 2);
  assert.is(await engine.settled(), false);
  assert.equal(
    h.runs.map((r) => r.id),
    ['i000', 'i001'],
  );
  await engine.stop();
});

test('settled() waits while items of the engine are run by another way (busy), which tells it nothing when they end', async ({
  a,
}) => {
  const items = due(a);
  await seed(await items(), 1);
  const busy = new Set(['i000']);
  let asked = 0;
  const h = handler(items);
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    pollMs: 60_000,
    refillMs: 5,
    handle: h.handle,
    busy: () => (asked++, [...busy]),
  });
  engine.start();
  // the other way has moved the item already (its outcome rewrote it) but is still running
  await (await items()).delete('i000');
  let settled = false;
  const waiting = engine.settled().then(() => (settled = true));
  const before = asked;
  await eventually(() => asked >= before + 3, 'settled() looked again while the other way ran');
  assert.is(settled, false, 'not at rest while the other way runs an item');
  busy.clear();
  await waiting;
  assert.is(h.runs.length, 0, 'the engine never ran it');
  await engine.stop();
});

test('tryRun: at once in a free slot, else queued before any claim; its item is left out of claims; stop drops the queue', async ({
  a,
}) => {
  const items = due(a);
  const h = handler(items, { ms: 20 });
  const engine = createWorkEngine<Item>({
    name: 'e',
    items,
    clock,
    concurrency: 2,
    directQueue: 1,
    handle: h.handle,
    pollMs: 10_000,
  });
  assert.is(
    engine.tryRun('x', async () => undefined),
    undefined,
    'not started: nothing runs',
  );
  engine.start();
  await engine.settled(); // its first look for due items (which holds the slots it claims) is over
  const ran: string[] = [];
  const work = (id: string, ms: number) => async () => {
    await sleep(ms);
    ran.push(id);
  };
  const first = engine.tryRun('d1', work('d1', 40));
  const second = engine.tryRun('d2', work('d2', 40));
  assert.ok(first && second, 'two free slots: both run');
  assert.is(engine.tryRun('d1', work('d1', 1)), undefined, 'in hand already');
  // a due item of the id that waits in the queue, and one other: the queued work goes first
  await (await items()).upsert({ id: 'd3', n: 3, dueAt: '2026-11-23T09:00:00.000Z', leaseUntil: '' });
  await (await items()).upsert({ id: 'other', n: 4, dueAt: '2026-11-23T09:00:00.000Z', leaseUntil: '' });
  const third = engine.tryRun('d3', work('d3', 1));
  assert.ok(third, 'queued');
  assert.is(engine.tryRun('d4', work('d4', 1)), undefined, 'the queue is full');
  engine.wake();
  assert.is(await first, true);
  assert.is(await third, true);
  await eventually(() => h.runs.length === 1, 'the other item claimed');
  assert.equal(ran.slice(0, 2).sort(), ['d1', 'd2']);
  assert.is(ran[2], 'd3', 'the queued work ran when a slot came free');
  assert.equal(
    h.runs.map((r) => r.id),
    ['other'],
    'the queued item was not claimed while it waited',
  );
  // slots full again, one queued: stop drops it (false) and runs nothing more
  const long1 = engine.tryRun('l1', work('l1', 30));
  const long2 = engine.tryRun('l2', work('l2', 30));
  const dropped = engine.tryRun('l3', work('l3', 1));
  assert.ok(long1 && long2 && dropped);
  await engine.stop();
  assert.is(await dropped, false);
  assert.not.ok(ran.includes('l3'));
});

test('tryRun: a steady stream of queued work does not starve the claims; nothing is taken while stopping', async ({
  a,
}) => {
  const items = due(a);
  const h = handler(items, { ms: 1 });
  const engine = createWorkEngine<Item>({ name: 'e', items, clock, concurrency: 2, handle: h.handle, pollMs: 10_000 });
  engine.start();
  await engine.settled();
  let direct = 0;
  let publishing = true;
  // four publishers, each starting work again as soon as its own ended: the queue never empties
  const publisher = async (p: number) => {
    for (let i = 0; publishing; i++) {
      const run = engine.tryRun(`p${p}-${i}`, async () => {
        await sleep(2);
        direct++;
      });
      if (run === undefined) await sleep(1);
      else await run;
    }
  };
  const publishers = [0, 1, 2, 3].map(publisher);
  await eventually(() => direct > 20, 'direct work running');
  await (await items()).upsert({ id: 'retry', n: 1, dueAt: '2026-11-23T09:00:00.000Z', leaseUntil: '' });
  engine.wake();
  await eventually(() => h.runs.length === 1, 'the due item claimed while the direct work goes on');
  assert.ok(direct > 20);
  publishing = false;
  await Promise.all(publishers);
  const stopping = engine.stop();
  assert.is(
    engine.tryRun('late', async () => undefined),
    undefined,
    'refused while stopping',
  );
  await stopping;
});

test.run();
