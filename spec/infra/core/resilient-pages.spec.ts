import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { LogPage } from '../../../infra/core/event-store.port.ts';
import { START, toPosition } from '../../../infra/core/position.ts';
import { resilientPages } from '../../../infra/core/resilient-pages.ts';

const test = suite('resilient pages');

/** Safety net against hangs; never a speed assertion. */
const WAIT_MS = 10_000;

const log = Array.from({ length: 10 }, (_, i) => recorded(i + 1));
const page = (from: number, to: number, position = log[to - 1]!.position): LogPage => ({
  events: log.slice(from - 1, to),
  position,
});

test('hands over the reader’s pages in order and ends when the reader ends', async () => {
  const opened: string[] = [];
  const got = await collect(
    resilientPages(async function* (after) {
      opened.push(after);
      yield page(1, 3);
      yield page(4, 4, toPosition(6)); // a filtered reader's position may go past its last event
      yield { events: [], position: toPosition(7) };
    }),
  );
  assert.equal(got, [page(1, 3), page(4, 4, toPosition(6)), { events: [], position: toPosition(7) }]);
  assert.equal(opened, [START]);
});

test('reopens after the last page’s position: replayed events dropped, pages that bring nothing new skipped', async () => {
  const opened: string[] = [];
  const errors: unknown[] = [];
  let attempt = 0;
  const source = async function* (after: string) {
    opened.push(after);
    attempt += 1;
    if (attempt === 1) {
      yield page(1, 3, toPosition(4)); // covers up to 4, event 4 not wanted
      throw new Error('connection dropped');
    }
    if (attempt === 2) {
      // a server whose reads are inclusive replays from an earlier point
      yield page(2, 4, toPosition(4)); // nothing new at all: not handed over
      yield page(3, 6);
      throw new Error('connection dropped again');
    }
    yield { events: [], position: toPosition(5) }; // behind the consumer: not handed over
    yield page(6, 8);
  };
  const got = await collect(
    resilientPages(source, { initialDelayMs: 1, maxDelayMs: 4, onError: (e) => errors.push(e) }),
  );
  assert.equal(opened, [START, toPosition(4), toPosition(6)]);
  assert.equal(got, [page(1, 3, toPosition(4)), page(5, 6), page(7, 8)]);
  assert.equal(
    got.flatMap((p) => p.events.map((e) => e.id)),
    ['e1', 'e2', 'e3', 'e5', 'e6', 'e7', 'e8'],
  );
  assert.is(errors.length, 2);
});

test('a page whose position lags its events is lifted to the last event', async () => {
  const got = await collect(
    resilientPages(async function* () {
      yield { events: log.slice(0, 2), position: log[0]!.position };
    }),
  );
  assert.equal(got, [page(1, 2)]);
});

test('backpressure: the reader is asked for the next page only when the consumer asks', async () => {
  let produced = 0;
  const source = async function* () {
    for (let i = 1; i <= 3; i++) {
      produced += 1;
      yield page(i, i);
    }
  };
  const iterator = resilientPages(source)[Symbol.asyncIterator]();
  assert.equal((await iterator.next()).value, page(1, 1));
  assert.is(produced, 1);
  assert.equal((await iterator.next()).value, page(2, 2));
  assert.is(produced, 2);
  await iterator.return?.();
});

test('abort while waiting for a page ends the iteration and stops the reader', async () => {
  const controller = new AbortController();
  let readerStopped = false;
  const source = async function* (_after: string, signal: AbortSignal) {
    try {
      yield page(1, 1);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    } finally {
      readerStopped = true;
    }
  };
  const got: LogPage[] = [];
  const consumer = (async () => {
    for await (const p of resilientPages(source, { signal: controller.signal })) {
      got.push(p);
      controller.abort(); // the next() after this one waits: abort ends it
    }
  })();
  await within(consumer);
  assert.equal(got, [page(1, 1)]);
  assert.ok(readerStopped);

  // already aborted: the reader is not even opened
  let opened = false;
  const none = await collect(
    resilientPages(
      async function* () {
        opened = true;
        yield page(1, 1);
      },
      { signal: AbortSignal.abort() },
    ),
  );
  assert.equal(none, []);
  assert.is(opened, false);
});

test('abort while waiting to reconnect ends the iteration', async () => {
  const controller = new AbortController();
  const errors: unknown[] = [];
  const consumer = collect(
    resilientPages(
      async function* () {
        yield* [];
        throw new Error('down');
      },
      { signal: controller.signal, initialDelayMs: 60_000, onError: (e) => (errors.push(e), controller.abort()) },
    ),
  );
  assert.equal(await within(consumer), []);
  assert.is(errors.length, 1);
});

test('a consumer that leaves the loop stops the reader', async () => {
  let readerSignal: AbortSignal | undefined;
  const source = async function* (_after: string, signal: AbortSignal) {
    readerSignal = signal;
    for (let i = 1; i <= 10; i++) yield page(i, i);
  };
  for await (const p of resilientPages(source)) {
    if (p.position === log[1]!.position) break;
  }
  assert.ok(readerSignal?.aborted);
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

async function collect(pages: AsyncIterable<LogPage>): Promise<LogPage[]> {
  const got: LogPage[] = [];
  await within(
    (async () => {
      for await (const p of pages) got.push(p);
    })(),
  );
  return got;
}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
