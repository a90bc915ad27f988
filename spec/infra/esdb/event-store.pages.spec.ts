import { PassThrough } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { LogPage } from '../../../infra/core/event-store.port.ts';
import { toPosition } from '../../../infra/core/position.ts';
import { createPageGatherer, type PageItem } from '../../../infra/esdb/event-store.pages.ts';

/*
 * The page gathering of the EventStoreDB adapter's subscribePages, driven through a plain object stream in
 * place of the driver's subscription (a Readable in object mode as well): no server needed. The adapter as
 * a whole runs the event store contract when ESDB_URL is set.
 */
const test = suite('EventStoreDB page gatherer');

/** Safety net against hangs; never a speed assertion. */
const WAIT_MS = 10_000;

/** An item of the fake subscription: its position, and whether the consumer wants it. */
type Item = { n: number; wanted: boolean };
const wanted = (n: number): Item => ({ n, wanted: true });
const unwanted = (n: number): Item => ({ n, wanted: false });

function setup(o: { pageSize: number; emptyPageIntervalMs?: number; highWaterMark?: number; now?: () => number }) {
  const stream = new PassThrough({ objectMode: true, highWaterMark: o.highWaterMark ?? 16 });
  const gatherer = createPageGatherer({
    after: toPosition(0),
    pageSize: o.pageSize,
    emptyPageIntervalMs: o.emptyPageIntervalMs ?? 0,
    ...(o.now ? { now: o.now } : {}),
  });
  const controller = new AbortController();
  let itemsRead = 0;
  const item = (chunk: Item): PageItem => {
    itemsRead += 1;
    return { position: toPosition(chunk.n), event: chunk.wanted ? recorded(chunk.n) : undefined };
  };
  const iterator = gatherer
    .pages(stream, item, controller.signal, () => new Error('the subscription ended'))
    [Symbol.asyncIterator]();
  return {
    stream,
    gatherer,
    controller,
    itemsRead: () => itemsRead,
    write: (...items: Item[]) => items.map((i) => stream.write(i)),
    async next(): Promise<LogPage> {
      const step = await within(iterator.next());
      if (step.done) throw new Error('the pages ended');
      return step.value;
    },
    iterator,
  };
}

const numbers = (page: LogPage) => page.events.map((e) => (e.data as { n: number }).n);
const at = (page: LogPage) => Number(page.position);

test('a page is what is buffered right now, at most pageSize; then live pages as items arrive', async () => {
  const s = setup({ pageSize: 2 });
  s.write(wanted(1), wanted(2), wanted(3), wanted(4), wanted(5));
  const pages = [await s.next(), await s.next(), await s.next()];
  assert.equal(pages.map(numbers), [[1, 2], [3, 4], [5]]);
  assert.equal(pages.map(at), [2, 4, 5]);
  const pending = settledLater(s.next());
  s.write(wanted(6));
  const live = await pending;
  assert.equal(numbers(live), [6]);
  assert.is(at(live), 6);
});

test('unwanted items move the position; alone they make an empty page', async () => {
  const s = setup({ pageSize: 10 });
  s.write(wanted(1), unwanted(2), unwanted(3));
  const first = await s.next();
  assert.equal(numbers(first), [1]);
  assert.is(at(first), 3, 'covers the unwanted items read with it');
  const pending = settledLater(s.next());
  s.write(unwanted(4));
  const empty = await pending;
  assert.equal(empty.events, []);
  assert.is(at(empty), 4);
});

test('a mark counts once every item before it is read', async () => {
  const s = setup({ pageSize: 2 });
  s.write(wanted(1), wanted(2), wanted(3));
  s.gatherer.mark(toPosition(10)); // a checkpoint that came after item 3
  const first = await s.next();
  assert.equal(numbers(first), [1, 2]);
  assert.is(at(first), 2, 'item 3 is still buffered: the mark does not count yet');
  const second = await s.next();
  assert.equal(numbers(second), [3]);
  assert.is(at(second), 10, 'drained: the page covers the mark');
  const pending = settledLater(s.next());
  s.gatherer.mark(toPosition(12)); // a checkpoint past filtered-out events while idle
  const empty = await pending;
  assert.equal(empty.events, []);
  assert.is(at(empty), 12);
  // an older mark changes nothing; replayed items are skipped
  s.gatherer.mark(toPosition(11));
  s.write(wanted(12), wanted(13));
  const next = await s.next();
  assert.equal(numbers(next), [13]);
  assert.is(at(next), 13);
});

test('empty pages come at most every emptyPageIntervalMs; events never wait for it', async () => {
  let now = 0;
  const s = setup({ pageSize: 10, emptyPageIntervalMs: 1_000, now: () => now });
  s.gatherer.mark(toPosition(5));
  assert.is(at(await s.next()), 5, 'the first empty page goes at once');
  now = 10;
  let settled = false;
  const pending = settledLater(s.next().finally(() => (settled = true)));
  s.gatherer.mark(toPosition(6));
  await turns(5);
  assert.is(settled, false, 'a second empty page within the interval waits');
  s.write(wanted(7));
  const withEvent = await pending;
  assert.equal(numbers(withEvent), [7]);
  assert.is(at(withEvent), 7);
  settled = false;
  const next = settledLater(s.next().finally(() => (settled = true)));
  s.gatherer.mark(toPosition(8));
  await turns(5);
  assert.is(settled, false);
  now = 1_000;
  s.gatherer.mark(toPosition(9)); // the interval is over: the next mark goes through
  const empty = await next;
  assert.equal(empty.events, []);
  assert.is(at(empty), 9);
});

test('backpressure: nothing is read from the stream while the consumer holds a page', async () => {
  const s = setup({ pageSize: 2, highWaterMark: 4 });
  s.write(wanted(1), wanted(2));
  assert.equal(numbers(await s.next()), [1, 2]);
  const accepted = s.write(...Array.from({ length: 10 }, (_, i) => wanted(i + 3)));
  await turns(5);
  assert.is(s.itemsRead(), 2, 'the held page is all that was read');
  assert.ok(accepted.includes(false), 'the stream told its writer to stop (the network would be paused)');
  const pages: number[][] = [];
  while (pages.flat().length < 10) pages.push(numbers(await s.next()));
  assert.equal(pages.flat(), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.ok(pages.every((p) => p.length <= 2));
});

test('the stream’s error is thrown after the events buffered before it', async () => {
  const s = setup({ pageSize: 10 });
  s.write(wanted(1), wanted(2));
  const failure = new Error('connection dropped');
  s.stream.emit('error', failure); // as the driver's subscription reports a failed call
  assert.equal(numbers(await s.next()), [1, 2]);
  assert.is(await rejection(s.iterator.next()), failure);
});

test('the end of the stream is an error: a subscription never ends by itself', async () => {
  const s = setup({ pageSize: 10 });
  s.write(wanted(1));
  s.stream.end();
  assert.equal(numbers(await s.next()), [1]);
  assert.match(String(await rejection(s.iterator.next())), /ended/);
});

test('abort while waiting ends the pages', async () => {
  const s = setup({ pageSize: 10 });
  s.write(wanted(1));
  assert.equal(numbers(await s.next()), [1]);
  const pending = s.iterator.next();
  s.controller.abort();
  assert.is((await within(pending)).done, true);
  assert.is(s.stream.listenerCount('readable'), 0, 'its listeners are gone');
});

test.run();

function recorded(n: number): RecordedEvent {
  return {
    id: `e${n}`,
    type: 'Happened',
    data: { n },
    metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1 },
    stream: `thing-acme.t${n}`,
    revision: 0,
    position: toPosition(n),
  };
}

/** Lets pending callbacks and stream events run (no timers involved). */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await within(promise);
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected a rejection');
}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
