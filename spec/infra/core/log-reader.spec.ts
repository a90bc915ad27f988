import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { EventStore, LogPage, ReadAllOptions } from '../../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../../infra/core/log-consumer.ts';
import { createLogReader, unionFilter } from '../../../infra/core/log-reader.ts';
import { START } from '../../../infra/core/position.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';

type Ctx = { dir: string; store: SqliteEventStore };
const test = suite<Ctx>('log reader: one read per page for every consumer', {} as Ctx);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'log-reader-'));
  ctx.store = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let n = 0;
const meta = { tenant: 't', occurredAt: '2026-11-23T00:00:00.000Z', schemaVersion: 1 };
async function append(store: EventStore, category: string, count = 1, type = 'Happened') {
  for (let i = 0; i < count; i++) {
    const id = `${category}-${++n}`;
    await store.append(
      `${category}-t.${id}`,
      [{ id: eventIdFor(id, 0), type, data: { n }, metadata: meta }],
      'no_stream',
    );
  }
}

/** counts the log queries the reader makes (readAll pages and subscribePages pages) */
function counting(store: EventStore) {
  const counts = { readAll: 0, pages: 0 };
  const counted: EventStore = {
    ...store,
    append: (...a) => store.append(...a),
    appendMany: (...a) => store.appendMany(...a),
    readStream: (...a) => store.readStream(...a),
    headPosition: () => store.headPosition(),
    readAll: (o?: ReadAllOptions) => {
      counts.readAll += 1;
      return store.readAll(o);
    },
    async *subscribePages(o) {
      for await (const page of store.subscribePages(o)) {
        counts.pages += 1;
        yield page;
      }
    },
  };
  return { counted, counts };
}

/** a consumer that records what it sees (events of its categories, each once) */
function recorder(
  name: string,
  categories?: string[],
  o: { failOn?: (e: RecordedEvent) => boolean; slowMs?: number } = {},
) {
  const seen: RecordedEvent[] = [];
  let position = START;
  let failures = 0;
  const consumer: LogConsumer = {
    name,
    filter: categories ? { categories } : {},
    async start() {
      return position;
    },
    async handle(page: LogPage) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        if (categories && !categories.includes(e.stream.split('-')[0]!)) continue;
        if (o.failOn?.(e) && failures++ < 2) throw new Error(`cannot handle ${e.id}`);
        if (o.slowMs) await new Promise((r) => setTimeout(r, o.slowMs));
        seen.push(e);
        position = e.position;
      }
      if (page.position > position) position = page.position;
      return position;
    },
  };
  return { consumer, seen };
}

test('the union of filters: no filter as soon as one consumer wants everything', () => {
  assert.equal(unionFilter([{ categories: ['b', 'a'] }, { categories: ['a', 'c'] }]), { categories: ['a', 'b', 'c'] });
  assert.equal(unionFilter([{ categories: ['a'] }, {}]), undefined);
  assert.equal(unionFilter([{ eventTypes: ['X'] }, { eventTypes: ['Y'], categories: ['a'] }]), {
    eventTypes: ['X', 'Y'],
  });
});

test('thirty consumers on the tail: each live page is read once for all of them', async ({ store }) => {
  await append(store, 'acct', 50); // history: each consumer catches up alone
  const { counted, counts } = counting(store);
  const consumers = Array.from({ length: 30 }, (_, i) => recorder(`c${i}`));
  const reader = createLogReader({ eventStore: counted, consumers: consumers.map((c) => c.consumer), retryDelayMs: 5 });
  reader.start();
  await reader.reached(await store.headPosition());
  const catchUp = counts.readAll;
  const pagesBefore = counts.pages;

  // a burst of 200 appends while the consumers are busy: coalesced into few pages
  await Promise.all(Array.from({ length: 200 }, () => append(store, 'acct')));
  await reader.reached(await store.headPosition());
  const pages = counts.pages - pagesBefore;
  assert.ok(pages >= 1 && pages <= 10, `200 appends in a burst came in ${pages} pages`);
  assert.is(counts.readAll, catchUp, 'no consumer on the tail reads the log by itself');
  assert.is(reader.stats().tailEvents, 200);
  for (const c of consumers) {
    assert.is(c.seen.length, 250, `${c.consumer.name} saw every event once`);
    assert.equal(
      c.seen.map((e) => e.position),
      [...c.seen.map((e) => e.position)].sort(),
      'in log order',
    );
  }
  await reader.stop();
});

test('a consumer that starts behind catches up alone, then joins; filters are applied', async ({ store }) => {
  await append(store, 'acct', 20);
  await append(store, 'noise', 20);
  const early = recorder('early', ['acct']);
  const reader = createLogReader({ eventStore: store, consumers: [early.consumer], catchUpPageSize: 7 });
  reader.start();
  await reader.reached(await store.headPosition());
  await append(store, 'acct', 5);
  await append(store, 'noise', 5);
  await reader.reached(await store.headPosition());
  assert.is(early.seen.length, 25);
  assert.ok(early.seen.every((e) => e.stream.startsWith('acct-')));
  assert.is(reader.status()[0]!.state, 'joined');
  await reader.stop();
});

test('a consumer that throws leaves the tail, the others go on; it catches up after its back-off', async ({
  store,
}) => {
  const ok = recorder('ok');
  let bad: RecordedEvent | undefined;
  const flaky = recorder('flaky', undefined, { failOn: (e) => e.id === bad?.id });
  const reader = createLogReader({ eventStore: store, consumers: [ok.consumer, flaky.consumer], retryDelayMs: 20 });
  reader.start();
  await reader.reached(await store.headPosition());
  await append(store, 'acct', 3);
  bad = (await store.readAll({ limit: 1000 })).at(-1);
  await append(store, 'acct', 3);
  await reader.reached(await store.headPosition());
  assert.is(ok.seen.length, 6);
  assert.is(flaky.seen.length, 6, 'after two failures it handled everything, each event once');
  assert.equal(new Set(flaky.seen.map((e) => e.id)).size, 6);
  await reader.stop();
});

test('appends by another process (another store instance on the file) reach the reader through the probe', async ({
  store,
  dir,
}) => {
  const other = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const c = recorder('c');
  const reader = createLogReader({ eventStore: store, consumers: [c.consumer] });
  reader.start();
  await reader.reached(await store.headPosition());
  await append(other, 'acct', 4);
  await reader.reached(await other.headPosition());
  assert.is(c.seen.length, 4);
  await reader.stop();
  await other.close();
});

test('the slowest consumer sets the pace: no page is read while one is being handled', async ({ store }) => {
  const fast = recorder('fast');
  const slow = recorder('slow', undefined, { slowMs: 2 });
  const { counted, counts } = counting(store);
  const reader = createLogReader({ eventStore: counted, consumers: [fast.consumer, slow.consumer] });
  reader.start();
  await reader.reached(await store.headPosition());
  const before = counts.pages;
  await Promise.all(Array.from({ length: 30 }, () => append(store, 'acct')));
  await reader.reached(await store.headPosition());
  assert.is(fast.seen.length, 30);
  assert.is(slow.seen.length, 30);
  assert.ok(counts.pages - before <= 5, `30 appends during slow handling: ${counts.pages - before} pages`);
  await reader.stop();
});

test('reached(head) resolves once the page at the head is handled by every consumer and afterPage has run, not when it is read', async ({
  store,
}) => {
  const slow = recorder('slow', undefined, { slowMs: 30 });
  const woken: string[] = [];
  const reader = createLogReader({
    eventStore: store,
    consumers: [slow.consumer],
    afterPage: (page) => woken.push(page.position),
  });
  reader.start();
  await reader.reached(await store.headPosition());
  await append(store, 'acct');
  const head = await store.headPosition();
  // the tail has taken the page from the store and is handing it out (the slow consumer holds it)
  await eventually(() => reader.stats().tailEvents === 1, 'the tail read the page');
  await reader.reached(head);
  assert.equal(
    slow.seen.map((e) => e.position),
    [head],
    'the consumer handled the event',
  );
  assert.ok(woken.includes(head), 'the engines were woken for the page');
  await reader.stop();
});

/**
 * A store whose tail pages come as scripted (how many events, and how long the store waits before it has
 * them); answers, per page, how long the reader took from handling it to asking for the next.
 */
async function gapsAfterPages(
  store: SqliteEventStore,
  script: Array<{ events: number; waitMs: number }>,
  o: { pageSize?: number; changes?: (pagesYielded: number) => number; gatherSliceMs?: number } = {},
) {
  await append(
    store,
    'acct',
    script.reduce((n, p) => n + p.events, 0),
  );
  const all = await store.readAll({ after: START, limit: 10_000 });
  const askedAt: number[] = [];
  const handledAt: number[] = [];
  // the scripted pages are not appends: the store's own change counter would stand still through every pause
  const { changes: _unused, ...rest } = store;
  const scripted: EventStore = {
    ...rest,
    ...(o.changes !== undefined && { changes: () => o.changes!(askedAt.length) }),
    // the consumer starts level with the head, so it joins the tail at once and gets the scripted pages
    headPosition: async () => all[all.length - 1]!.position,
    readAll: async () => [],
    async *subscribePages(opts) {
      let next = 0;
      for (const p of script) {
        askedAt.push(performance.now());
        if (p.waitMs > 0) await new Promise((r) => setTimeout(r, p.waitMs));
        const events = all.slice(next, next + p.events);
        next += p.events;
        // an empty page (a filtered reader's: nothing for it, a position to move past) stays where the last one ended
        yield { events, position: (events[events.length - 1] ?? all[Math.max(0, next - 1)])!.position };
      }
      // at the head: nothing more until the reader stops
      if (!opts?.signal?.aborted) await new Promise((r) => opts?.signal?.addEventListener('abort', r, { once: true }));
    },
  };
  const consumer: LogConsumer = {
    name: 'timed',
    filter: {},
    start: async () => START,
    async handle(page) {
      handledAt.push(performance.now());
      return page.position;
    },
  };
  const reader = createLogReader({
    eventStore: scripted,
    consumers: [consumer],
    coalesceMs: 60,
    coalesceAbove: 1000,
    ...(o.pageSize !== undefined && { pageSize: o.pageSize }),
    ...(o.gatherSliceMs !== undefined && { gatherSliceMs: o.gatherSliceMs }),
  });
  reader.start();
  await eventually(() => handledAt.length === script.length, 'every scripted page handled');
  await reader.stop();
  assert.is(handledAt.length, script.length);
  return script.slice(0, -1).map((_, i) => askedAt[i + 1]! - handledAt[i]!);
}

// page 1 waits a moment (the consumer joins first); 300 events at once make the rate ~2,000/s; page 3 brings
// 200 more (the burst goes on through the pause: above 1,000/s even if the pause overran to 200 ms); page 4
// one (the burst has ended); page 5 comes after a quarter of a second of nothing
const script = [
  { events: 1, waitMs: 30 },
  { events: 300, waitMs: 0 },
  { events: 200, waitMs: 0 },
  { events: 1, waitMs: 0 },
  { events: 1, waitMs: 250 },
  { events: 1, waitMs: 0 },
];

test('under load it gathers: above coalesceAbove events/s a page is followed by a pause of coalesceMs, below it by none', async ({
  store,
}) => {
  const gaps = (await gapsAfterPages(store, script)).map((g) => Math.round(g));
  assert.ok(gaps[0]! < 40, `after page 1, ~8 events/s: ${gaps[0]} ms`);
  assert.ok(gaps[1]! >= 55, `after page 2, ~2,300 events/s: ${gaps[1]} ms`);
  assert.ok(gaps[2]! >= 55, `after page 3, 200 events during the pause: ${gaps[2]} ms`);
  assert.ok(
    gaps[3]! < 40,
    `after page 4, one event during the pause (the burst has ended, though the 200 ms rate is still high): ${gaps[3]} ms`,
  );
  assert.ok(gaps[4]! < 40, `after page 5, idle a quarter of a second before it: ${gaps[4]} ms`);
});

test('a full page is a backlog: no pause after it, the next page is read at once', async ({ store }) => {
  const gaps = (await gapsAfterPages(store, script, { pageSize: 300 })).map((g) => Math.round(g));
  assert.ok(gaps[1]! < 40, `after the full page 2: ${gaps[1]} ms`);
  assert.ok(gaps[2]! >= 55, `after page 3, not full, the rate still high: ${gaps[2]} ms`);
  assert.ok(gaps[3]! < 40, `after page 4, the burst has ended: ${gaps[3]} ms`);
});

test('empty pages (a filtered reader on a busy log) coming within a slice (gatherSliceMs) of each other pause; a lone one does not', async ({
  store,
}) => {
  const gaps = (
    await gapsAfterPages(
      store,
      [
        { events: 1, waitMs: 30 },
        { events: 0, waitMs: 0 },
        { events: 0, waitMs: 0 },
        { events: 0, waitMs: 0 },
        { events: 0, waitMs: 0 },
        { events: 1, waitMs: 0 },
        { events: 0, waitMs: 200 },
        { events: 1, waitMs: 0 },
        // a wide slice: "right behind" must hold on a loaded machine too
      ],
      { gatherSliceMs: 20 },
    )
  ).map((g) => Math.round(g));
  assert.ok(gaps[1]! < 40, `after the first empty page: ${gaps[1]} ms`);
  assert.ok(gaps[2]! >= 55, `after the second, right behind it: ${gaps[2]} ms`);
  assert.ok(gaps[3]! < 40, `after the third, a pause after the second: ${gaps[3]} ms`);
  assert.ok(gaps[4]! >= 55, `after the fourth, right behind the third: ${gaps[4]} ms`);
  assert.ok(gaps[5]! < 40, `after a page with an event: ${gaps[5]} ms`);
  assert.ok(gaps[6]! < 40, `after an empty page 200 ms after the last one: ${gaps[6]} ms`);
});

test('a pause ends early when the log stands still for a moment (the store can tell: EventStore.changes)', async ({
  store,
}) => {
  // the log moves (a new count at every look) until the fourth page is out, then stands still
  let counter = 0;
  const burst = [
    { events: 1, waitMs: 30 },
    { events: 300, waitMs: 0 },
    { events: 200, waitMs: 0 },
    { events: 150, waitMs: 0 },
    { events: 1, waitMs: 0 },
  ];
  const gaps = await gapsAfterPages(store, burst, { changes: (pages) => (pages < 4 ? ++counter : counter) });
  assert.ok(gaps[1]! >= 55, `after page 2, the log moving: ${Math.round(gaps[1]!)} ms`);
  assert.ok(gaps[2]! >= 55, `after page 3, the log moving: ${Math.round(gaps[2]!)} ms`);
  assert.ok(gaps[3]! < 40, `after page 4, the log still: ${Math.round(gaps[3]!)} ms`);
});

test.run();
