import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import { START, toPosition } from '../../../infra/core/position.ts';
import { resilientSubscription } from '../../../infra/core/resilient-subscription.ts';

const test = suite('resilient subscription');

/** Safety net against hangs; never a speed assertion. */
const WAIT_MS = 10_000;

const log = Array.from({ length: 10 }, (_, i) => recorded(i + 1));

test('delivers events in order and ends when the reader ends', async () => {
  const opened: string[] = [];
  const got = await collect(
    resilientSubscription(async function* (after) {
      opened.push(after);
      yield* log.slice(0, 4);
    }),
  );
  assert.equal(
    got.map((e) => e.position),
    log.slice(0, 4).map((e) => e.position),
  );
  assert.equal(opened, [START]);
});

test('starts after the given position', async () => {
  const opened: string[] = [];
  const got = await collect(
    resilientSubscription(
      async function* (after) {
        opened.push(after);
        yield* log.filter((e) => e.position > after);
      },
      { after: log[6]!.position },
    ),
  );
  assert.equal(opened, [log[6]!.position]);
  assert.equal(
    got.map((e) => e.id),
    ['e8', 'e9', 'e10'],
  );
});

test('reopens after the last delivered event on failure: nothing lost, nothing repeated', async () => {
  const opened: string[] = [];
  let attempt = 0;
  const errors: unknown[] = [];
  const source = async function* (after: string) {
    opened.push(after);
    attempt += 1;
    // like a server whose reads are inclusive, each attempt replays the event at `after`
    const from = log.findIndex((e) => e.position >= after);
    const rest = log.slice(from < 0 ? 0 : from);
    for (const [i, e] of rest.entries()) {
      if (attempt <= 3 && i === 2) throw new Error(`connection dropped (attempt ${attempt})`);
      yield e;
    }
  };
  const got = await collect(
    resilientSubscription(source, { initialDelayMs: 1, maxDelayMs: 4, onError: (e) => errors.push(e) }),
  );
  assert.equal(
    got.map((e) => e.id),
    log.map((e) => e.id),
  );
  assert.is(errors.length, 3);
  assert.equal(opened, [START, log[1]!.position, log[2]!.position, log[3]!.position]);
});

test('backoff doubles up to the cap and starts again after a delivery', async () => {
  const delays: number[] = [];
  let failures = 0;
  const source = async function* (after: string) {
    failures += 1;
    if (failures <= 5) throw new Error('down');
    if (after === START) {
      yield log[0]!;
      failures = 3; // fail twice more after one successful delivery
      throw new Error('down again');
    }
    yield log[1]!;
  };
  const got = await collect(
    resilientSubscription(source, { initialDelayMs: 2, maxDelayMs: 8, onError: (_, ms) => delays.push(ms) }),
  );
  assert.equal(
    got.map((e) => e.id),
    ['e1', 'e2'],
  );
  assert.equal(delays, [2, 4, 8, 8, 8, 2, 4, 8]);
});

test('pulls from the reader only when the consumer asks (backpressure)', async () => {
  let pulled = 0;
  const source = async function* () {
    for (const e of log) {
      pulled += 1;
      yield e;
    }
  };
  const iterator = resilientSubscription(source)[Symbol.asyncIterator]();
  await iterator.next();
  // the source is in memory (no I/O, no timer): a turn of the event loop runs every read-ahead there could be
  await new Promise((r) => setImmediate(r));
  assert.is(pulled, 1);
  await iterator.next();
  assert.is(pulled, 2);
  await iterator.return?.();
});

test('abort while waiting to reconnect ends the iteration', async () => {
  const controller = new AbortController();
  const failed = deferred();
  // biome-ignore lint/correctness/useYield: a source that fails before its first event
  const source = async function* (): AsyncGenerator<RecordedEvent> {
    throw new Error('down');
  };
  const iteration = collect(
    resilientSubscription(source, {
      signal: controller.signal,
      initialDelayMs: 60_000,
      onError: () => failed.resolve(),
    }),
  );
  await within(failed.promise);
  controller.abort();
  assert.equal(await within(iteration), []);
});

test('abort while the reader waits for events ends the iteration and aborts the reader', async () => {
  const controller = new AbortController();
  let readerSignal: AbortSignal | undefined;
  const waiting = deferred();
  const source = async function* (_after: string, signal: AbortSignal) {
    readerSignal = signal;
    yield log[0]!;
    waiting.resolve();
    await new Promise(() => {}); // a reader that never answers again
  };
  const got: RecordedEvent[] = [];
  const iteration = (async () => {
    for await (const e of resilientSubscription(source, { signal: controller.signal })) got.push(e);
  })();
  await within(waiting.promise);
  controller.abort();
  await within(iteration);
  assert.is(got.length, 1);
  assert.ok(readerSignal?.aborted);
});

test('an already aborted signal delivers nothing and opens nothing', async () => {
  let opened = 0;
  const source = async function* () {
    opened += 1;
    yield* log;
  };
  assert.equal(await collect(resilientSubscription(source, { signal: AbortSignal.abort() })), []);
  assert.is(opened, 0);
});

test('leaving the loop early releases the reader', async () => {
  let released = false;
  let readerSignal: AbortSignal | undefined;
  const source = async function* (_after: string, signal: AbortSignal) {
    readerSignal = signal;
    try {
      yield* log;
    } finally {
      released = true;
    }
  };
  for await (const e of resilientSubscription(source)) {
    if (e.id === 'e2') break;
  }
  assert.ok(released);
  assert.ok(readerSignal?.aborted);
});

test.run();

function recorded(n: number): RecordedEvent {
  return {
    id: `e${n}`,
    type: 'Ticked',
    data: { n },
    metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1 },
    stream: 'clock-acme.1',
    revision: n - 1,
    position: toPosition(n * 10),
  };
}

async function collect(iterable: AsyncIterable<RecordedEvent>): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  await within(
    (async () => {
      for await (const e of iterable) events.push(e);
    })(),
  );
  return events;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
