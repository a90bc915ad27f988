import { randomUUID } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import type { AppendResult, EventStore, SubscribeAllOptions } from '../../infra/core/event-store.port.ts';
import { START } from '../../infra/core/position.ts';
import { WrongExpectedRevisionError } from '../../infra/core/store-errors.ts';

export type EventStoreFixture = {
  store: EventStore;
  /** makes live subscriptions' connections fail, when the adapter can simulate it */
  interrupt?: () => void;
  cleanup(): Promise<void>;
};

/** Safety net so that a broken adapter fails a test instead of hanging the run; never a speed assertion. */
const WAIT_MS = 15_000;

/**
 * The EventStore contract, run by every adapter's spec. Each test gets a fresh fixture and its own
 * categories and streams (random names), so it also runs against a server that keeps data between runs:
 * global reads start at the head position taken before the test's appends.
 */
export function eventStoreContract(name: string, make: () => Promise<EventStoreFixture>): void {
  const test = suite(name);
  let current: EventStoreFixture | undefined;
  const fixture = () => {
    if (!current) throw new Error('fixture not created');
    return current;
  };

  test.before.each(async () => {
    current = await make();
  });
  test.after.each(async () => {
    const done = current;
    current = undefined;
    await done?.cleanup();
  });

  test('append to a new stream with no_stream', async () => {
    const { store } = fixture();
    const stream = newStream();
    const events = [event('RuleCreated'), event('RuleRenamed')];
    const result = await store.append(stream, events, 'no_stream');
    assert.is(result.revision, 1);
    assert.ok(result.position > START, 'a position after START');
    const read = await store.readStream(stream);
    assert.equal(read.map(withoutPosition), events.map((e, i) => ({ ...e, stream, revision: i })));
    assert.is(read[1]?.position, result.position);
  });

  test('exact expected revision: success, then conflict', async () => {
    const { store } = fixture();
    const stream = newStream();
    await store.append(stream, [event('A'), event('B')], 'no_stream');
    const ok = await store.append(stream, [event('C')], 1);
    assert.is(ok.revision, 2);
    const error = await rejection(store.append(stream, [event('D')], 1));
    assert.instance(error, WrongExpectedRevisionError);
    const conflict = error as WrongExpectedRevisionError;
    assert.is(conflict.stream, stream);
    assert.is(conflict.expected, 1);
    assert.is(conflict.actual, 2);
    assert.is((await store.readStream(stream)).length, 3);
  });

  test('exact expected revision on a missing stream conflicts with actual no_stream', async () => {
    const { store } = fixture();
    const stream = newStream();
    const error = await rejection(store.append(stream, [event('A')], 0));
    assert.instance(error, WrongExpectedRevisionError);
    assert.is((error as WrongExpectedRevisionError).expected, 0);
    assert.is((error as WrongExpectedRevisionError).actual, 'no_stream');
    assert.equal(await store.readStream(stream), []);
  });

  test('stream_exists on a missing stream conflicts; on an existing one it appends', async () => {
    const { store } = fixture();
    const stream = newStream();
    const error = await rejection(store.append(stream, [event('A')], 'stream_exists'));
    assert.instance(error, WrongExpectedRevisionError);
    assert.is((error as WrongExpectedRevisionError).expected, 'stream_exists');
    assert.is((error as WrongExpectedRevisionError).actual, 'no_stream');
    assert.equal(await store.readStream(stream), []);
    await store.append(stream, [event('A')], 'no_stream');
    const result = await store.append(stream, [event('B')], 'stream_exists');
    assert.is(result.revision, 1);
  });

  test('any appends to a missing and to an existing stream', async () => {
    const { store } = fixture();
    const stream = newStream();
    assert.is((await store.append(stream, [event('A')], 'any')).revision, 0);
    assert.is((await store.append(stream, [event('B'), event('C')], 'any')).revision, 2);
    assert.equal((await store.readStream(stream)).map((e) => e.type), ['A', 'B', 'C']);
  });

  test('no_stream on an existing stream conflicts', async () => {
    const { store } = fixture();
    const stream = newStream();
    await store.append(stream, [event('A')], 'no_stream');
    const error = await rejection(store.append(stream, [event('B')], 'no_stream'));
    assert.instance(error, WrongExpectedRevisionError);
    assert.is((error as WrongExpectedRevisionError).expected, 'no_stream');
    assert.is((error as WrongExpectedRevisionError).actual, 0);
    assert.is((await store.readStream(stream)).length, 1);
  });

  test('re-appending the same ids is idempotent: same result, nothing duplicated', async () => {
    const { store } = fixture();
    const category = newCategory();
    const stream = newStream(category);
    const head = await store.headPosition();
    const first = [event('A'), event('B')];
    const firstResult = await store.append(stream, first, 'no_stream');
    const second = [event('C')];
    const secondResult = await store.append(stream, second, 1);

    // the retry of a command whose acknowledgement was lost: same ids, same expected revision
    assert.equal(await store.append(stream, first, 'no_stream'), firstResult);
    assert.equal(await store.append(stream, second, 1), secondResult);
    // and with an expected revision that would not match any more
    assert.equal(await store.append(stream, clone(second), 'any'), secondResult);

    const read = await store.readStream(stream);
    assert.equal(read.map((e) => e.id), [...first, ...second].map((e) => e.id));
    const all = await store.readAll({ after: head, filter: { categories: [category] } });
    assert.is(all.length, 3);
  });

  test('appending no events is a no-op answering the current revision', async () => {
    const { store } = fixture();
    const stream = newStream();
    assert.equal(await store.append(stream, [], 'any'), { revision: -1, position: START });
    const written = await store.append(stream, [event('A'), event('B')], 'no_stream');
    assert.equal(await store.append(stream, [], 'any'), written);
    assert.is((await store.readStream(stream)).length, 2);
  });

  test('readStream forwards, backwards, fromRevision (inclusive) and limit', async () => {
    const { store } = fixture();
    const stream = newStream();
    const events = Array.from({ length: 5 }, (_, i) => event(`E${i}`, { i }));
    await store.append(stream, events, 'no_stream');
    const revisions = (read: RecordedEvent[]) => read.map((e) => e.revision);

    const forwards = await store.readStream(stream);
    assert.equal(revisions(forwards), [0, 1, 2, 3, 4]);
    assert.equal(forwards.map((e) => e.id), events.map((e) => e.id));
    assert.equal(revisions(await store.readStream(stream, { direction: 'backwards' })), [4, 3, 2, 1, 0]);
    assert.equal(revisions(await store.readStream(stream, { fromRevision: 2 })), [2, 3, 4]);
    assert.equal(revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 2 })), [2, 1, 0]);
    assert.equal(revisions(await store.readStream(stream, { fromRevision: 1, limit: 2 })), [1, 2]);
    assert.equal(revisions(await store.readStream(stream, { direction: 'backwards', limit: 2 })), [4, 3]);
    assert.equal(revisions(await store.readStream(stream, { fromRevision: 5 })), []);
    const backwards = await store.readStream(stream, { direction: 'backwards' });
    assert.equal(backwards, [...forwards].reverse());
  });

  test('an unknown stream reads as empty', async () => {
    const { store } = fixture();
    const stream = newStream();
    assert.equal(await store.readStream(stream), []);
    assert.equal(await store.readStream(stream, { direction: 'backwards' }), []);
    assert.equal(await store.readStream(stream, { fromRevision: 3, limit: 2 }), []);
  });

  test('readAll after a position is exclusive and in append order', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended } = await seed(store);
    const raw = await store.readAll({ after: head });
    assert.ok(raw[0]!.position > head, 'strictly after the given position');
    const all = ours(raw);
    assert.equal(all.map((e) => e.id), appended.map((e) => e.id));
    assert.equal(all.map((e) => e.stream), appended.map((e) => e.stream));
    const rest = await store.readAll({ after: all[1]!.position });
    assert.ok(rest[0]!.position > all[1]!.position, 'strictly after the given position');
    assert.equal(ours(rest), all.slice(2));
    assert.equal(ours(await store.readAll({ after: all[all.length - 1]!.position })), []);
  });

  test('readAll filters by category and by event type', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended, categories } = await seed(store);
    const [orders, invoices] = categories;
    const ids = (events: { id: string }[]) => events.map((e) => e.id);

    const byCategory = await store.readAll({ after: head, filter: { categories: [orders] } });
    assert.equal(ids(byCategory), ids(appended.filter((e) => e.stream.startsWith(`${orders}-`))));
    assert.ok(byCategory.length > 0);

    const byType = await store.readAll({ after: head, filter: { eventTypes: ['OrderPlaced', 'InvoiceSent'] } });
    const expectedByType = appended.filter((e) => e.type === 'OrderPlaced' || e.type === 'InvoiceSent');
    assert.equal(ids(byType), ids(expectedByType));

    const both = await store.readAll({ after: head, filter: { categories: [orders], eventTypes: ['OrderShipped'] } });
    assert.equal(ids(both), ids(appended.filter((e) => e.type === 'OrderShipped')));

    const two = await store.readAll({ after: head, filter: { categories: [invoices, orders] } });
    assert.equal(ids(two), ids(appended));
  });

  test('readAll with a limit pages through everything in order', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended, categories } = await seed(store);
    const pages = await pageThrough(store, head, 2);
    assert.ok(pages.every((page) => page.length <= 2 && page.length > 0));
    assert.equal(ours(pages.flat()).map((e) => e.id), appended.map((e) => e.id));
    assertIncreasing(pages.flat().map((e) => e.position));

    const filtered = await pageThrough(store, head, 2, [categories[0]]);
    assert.equal(
      filtered.flat().map((e) => e.id),
      appended.filter((e) => e.stream.startsWith(`${categories[0]}-`)).map((e) => e.id),
    );
  });

  test('readAll backwards from the end and before a position', async () => {
    const { store } = fixture();
    const { appended, categories } = await seed(store);
    const filter = { categories: [...categories] };
    const newest = await store.readAll({ direction: 'backwards', limit: 3, filter });
    assert.equal(newest.map((e) => e.id), appended.slice(-3).reverse().map((e) => e.id));
    // with a limit: on a server that keeps data, an unbounded filtered read would scan all older history
    const older = await store.readAll({ direction: 'backwards', after: newest[2]!.position, filter, limit: 5 });
    assert.equal(older.map((e) => e.id), appended.slice(0, -3).reverse().map((e) => e.id));
  });

  test('positions are strictly increasing as text', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const results: AppendResult[] = [];
    const a = newStream();
    const b = newStream();
    for (let i = 0; i < 6; i++) results.push(await store.append(i % 2 ? a : b, [event('Tick', { i })], 'any'));
    const positions = results.map((r) => r.position);
    assert.ok(positions.every((p) => /^\d{20,}$/.test(p)), 'zero-padded decimal strings');
    assert.ok(positions[0]! > head);
    assertIncreasing(positions);
    const read = await store.readAll({ after: head });
    assertIncreasing(read.map((e) => e.position));
    assert.equal(ours(read).map((e) => e.position), positions);
  });

  test('headPosition is the position of the newest event', async () => {
    const { store } = fixture();
    const before = await store.headPosition();
    const first = await store.append(newStream(), [event('A')], 'no_stream');
    assert.ok(first.position > before);
    const afterFirst = await store.headPosition();
    const second = await store.append(newStream(), [event('B'), event('C')], 'no_stream');
    const afterSecond = await store.headPosition();
    assert.ok(second.position > first.position);
    // Exactly our newest event, unless another writer on a shared server appended since: then it is the
    // position of one of those later events (on a private store that list is empty).
    const later = async (position: string) => (await store.readAll({ after: position })).map((e) => e.position);
    assert.ok([first.position, ...(await later(first.position))].includes(afterFirst), `head ${afterFirst}`);
    assert.ok([second.position, ...(await later(second.position))].includes(afterSecond), `head ${afterSecond}`);
  });

  test('subscribeAll catches up, then delivers new events live, in order', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended } = await seed(store);
    const subscription = open(store, { after: head });
    try {
      const caughtUp = await subscription.take(appended.length);
      assert.equal(caughtUp.map((e) => e.id), appended.map((e) => e.id));
      assert.equal(caughtUp, ours(await store.readAll({ after: head })));

      const later = [event('Later1'), event('Later2')];
      const stream = newStream();
      const pending = settledLater(subscription.take(2)); // already waiting when the append happens
      await store.append(stream, later, 'no_stream');
      const live = await pending;
      assert.equal(live.map((e) => e.id), later.map((e) => e.id));
      assert.equal(live.map((e) => e.revision), [0, 1]);
      assert.ok(live[0]!.position > caughtUp[caughtUp.length - 1]!.position);
    } finally {
      await subscription.stop();
    }
  });

  test('subscribeAll applies backpressure: one handler at a time', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const stream = newStream(category);
    const events = [event('One'), event('Two'), event('Three')];
    await store.append(stream, events, 'no_stream');

    let active = 0;
    let maxActive = 0;
    const delivered: string[] = [];
    const started: Array<Deferred<void>> = events.map(() => deferred());
    const release: Array<Deferred<void>> = events.map(() => deferred());
    const controller = new AbortController();
    const consumer = (async () => {
      for await (const e of store.subscribeAll({ after: head, filter: { categories: [category] }, signal: controller.signal })) {
        const index = delivered.length;
        delivered.push(e.id);
        active += 1;
        maxActive = Math.max(maxActive, active);
        started[index]?.resolve();
        await release[index]?.promise; // a slow handler the test controls
        active -= 1;
        if (delivered.length === events.length) break;
      }
    })();
    try {
      for (let i = 0; i < events.length; i++) {
        await within(started[i]!.promise, `handler ${i} to start`);
        await pause(30); // give a misbehaving adapter the chance to push the next event
        assert.is(delivered.length, i + 1, 'no event delivered while the previous handler runs');
        assert.is(active, 1);
        release[i]!.resolve();
      }
      await within(consumer, 'the consumer to finish');
      assert.is(maxActive, 1);
      assert.equal(delivered, events.map((e) => e.id));
    } finally {
      for (const r of release) r.resolve();
      controller.abort();
      await consumer.catch(() => {});
    }
  });

  test('subscribeAll with a filter delivers only matching events', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended, categories } = await seed(store);
    const [orders] = categories;
    const byCategory = open(store, { after: head, filter: { categories: [orders] } });
    const byType = open(store, { after: head, filter: { eventTypes: ['InvoiceSent'] } });
    try {
      const expectedOrders = appended.filter((e) => e.stream.startsWith(`${orders}-`));
      const expectedInvoices = appended.filter((e) => e.type === 'InvoiceSent');
      assert.equal((await byCategory.take(expectedOrders.length)).map((e) => e.id), expectedOrders.map((e) => e.id));
      assert.equal((await byType.take(expectedInvoices.length)).map((e) => e.id), expectedInvoices.map((e) => e.id));

      // live: an event of another category must not come through, the next matching one must
      const pendingOrder = settledLater(byCategory.take(1));
      const pendingInvoice = settledLater(byType.take(1));
      const other = event('InvoiceSent');
      const order = event('OrderPlaced');
      await store.append(newStream(categories[1]), [other], 'no_stream');
      await store.append(newStream(orders), [order], 'no_stream');
      assert.equal((await pendingOrder).map((e) => e.id), [order.id]);
      assert.equal((await pendingInvoice).map((e) => e.id), [other.id]);
    } finally {
      await byCategory.stop();
      await byType.stop();
    }
  });

  test('a subscription survives a dropped connection without losing or repeating events', async () => {
    const { store, interrupt } = fixture();
    if (!interrupt) {
      console.log(`  (${name}: no interrupt hook, reconnection is not exercised here)`);
      return;
    }
    const head = await store.headPosition();
    const category = newCategory();
    const stream = newStream(category);
    const events = Array.from({ length: 8 }, (_, i) => event(`Step${i}`, { i }));
    await store.append(stream, events.slice(0, 5), 'no_stream');
    const subscription = open(store, { after: head, filter: { categories: [category] } });
    try {
      const delivered = await subscription.take(2);
      interrupt(); // mid catch-up
      delivered.push(...(await subscription.take(3)));
      const pending = settledLater(subscription.take(3)); // now waiting live
      await pause(20);
      interrupt(); // while idle at the head
      await store.append(stream, events.slice(5), 4);
      delivered.push(...(await pending));
      assert.equal(delivered.map((e) => e.id), events.map((e) => e.id));
      assert.equal(delivered.map((e) => e.revision), [0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await subscription.stop();
    }
  });

  test('aborting ends the iteration cleanly', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    await store.append(newStream(category), [event('A')], 'no_stream');

    const controller = new AbortController();
    const received: string[] = [];
    const caughtUp = deferred<void>();
    const consumer = (async () => {
      for await (const e of store.subscribeAll({ after: head, filter: { categories: [category] }, signal: controller.signal })) {
        received.push(e.id);
        caughtUp.resolve();
      }
      return 'ended';
    })();
    await within(caughtUp.promise, 'the first event');
    await pause(20); // the subscription now waits for live events
    controller.abort();
    assert.is(await within(consumer, 'the iteration to end after abort'), 'ended');
    assert.is(received.length, 1);

    // already aborted: nothing is delivered at all
    const none: RecordedEvent[] = [];
    for await (const e of store.subscribeAll({ after: head, signal: AbortSignal.abort() })) none.push(e);
    assert.equal(none, []);
  });

  test('close ends live subscriptions', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    await store.append(newStream(category), [event('A')], 'no_stream');
    const caughtUp = deferred<void>();
    const consumer = (async () => {
      let count = 0;
      for await (const _ of store.subscribeAll({ after: head, filter: { categories: [category] } })) {
        count += 1;
        caughtUp.resolve();
      }
      return count;
    })();
    await within(caughtUp.promise, 'the first event');
    await pause(20);
    await store.close();
    assert.is(await within(consumer, 'the iteration to end after close'), 1);
  });

  test('data and metadata round-trip exactly', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const stream = newStream(category);
    const data = {
      text: 'Grüße, 日本語, emoji 🧾👩🏽‍💻, rtl שלום, combining é, quotes "\' and \\ backslash, nul \u0000 end',
      empty: '',
      numbers: [0, 1, -1, 3.141592653589793, 1e-7, 2.5e21, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
      flags: { yes: true, no: false, nothing: null },
      nested: { a: { b: { c: [1, [2, [3, { d: 'deep' }]]] } }, list: [], map: {} },
      'key with spaces & ünïcode': 'value',
    };
    const metadata = {
      tenant: 'acme',
      actor: 'user-ü',
      correlationId: randomUUID(),
      causationId: randomUUID(),
      commandId: randomUUID(),
      occurredAt: '2024-02-29T23:59:59.999Z',
      schemaVersion: 2,
      extra: { nested: ['x', 1, null] },
    };
    const written: EventEnvelope = { id: randomUUID(), type: 'RichThingHappened', data, metadata };
    await store.append(stream, [written], 'no_stream');
    const expected = { ...written, stream, revision: 0 };
    const [fromStream] = await store.readStream(stream);
    assert.equal(withoutPosition(fromStream!), expected);
    const [fromAll] = await store.readAll({ after: head, filter: { categories: [category] } });
    assert.equal(fromAll, fromStream);
    const subscription = open(store, { after: head, filter: { categories: [category] } });
    try {
      assert.equal(await subscription.take(1), [fromStream!]);
    } finally {
      await subscription.stop();
    }
  });

  test('concurrent appends with the same expected revision: exactly one wins', async () => {
    const { store } = fixture();
    const stream = newStream();
    await store.append(stream, [event('Created')], 'no_stream');
    const a = event('ChangedByA');
    const b = event('ChangedByB');
    const outcomes = await Promise.allSettled([store.append(stream, [a], 0), store.append(stream, [b], 0)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.is(won.length, 1);
    assert.is(lost.length, 1);
    assert.instance(lost[0]!.reason, WrongExpectedRevisionError);
    assert.is((lost[0]!.reason as WrongExpectedRevisionError).actual, 1);
    const read = await store.readStream(stream);
    assert.is(read.length, 2);
    const winner = outcomes[0]!.status === 'fulfilled' ? a : b;
    assert.is(read[1]!.id, winner.id);

    // same on a new stream with no_stream
    const fresh = newStream();
    const race = await Promise.allSettled([
      store.append(fresh, [event('X')], 'no_stream'),
      store.append(fresh, [event('Y')], 'no_stream'),
    ]);
    assert.is(race.filter((o) => o.status === 'fulfilled').length, 1);
    assert.is((await store.readStream(fresh)).length, 1);
  });

  test.run();
}

// ---- helpers -------------------------------------------------------------------------------------------

const run = randomUUID().replace(/-/g, '').slice(0, 10);
let counter = 0;

/** camelCase, no `-`, unique per run: tests never see each other's events, even on a shared server */
const newCategory = () => `t${run}n${++counter}`;
const isOurs = (e: RecordedEvent) => e.stream.startsWith(`t${run}n`);
/**
 * Unfiltered reads are compared on this run's events only: on a shared server (parallel spec files,
 * other clients) foreign events may interleave. SQLite fixtures are private, and there it changes nothing.
 */
const ours = (events: RecordedEvent[]) => events.filter(isOurs);

function assertIncreasing(positions: string[]) {
  for (let i = 1; i < positions.length; i++) {
    assert.ok(positions[i - 1]! < positions[i]!, `${positions[i - 1]} < ${positions[i]}`);
  }
}
const newStream = (category = newCategory()) => `${category}-acme.${randomUUID()}`;

function event(type: string, data: unknown = { at: type }): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1, commandId: randomUUID() },
  };
}

const clone = <T>(value: T): T => structuredClone(value);

function withoutPosition(e: RecordedEvent) {
  const { position: _position, ...rest } = e;
  return rest;
}

type Appended = EventEnvelope & { stream: string };

/** Two categories, three streams, interleaved appends: the order readAll must reproduce. */
async function seed(store: EventStore) {
  const orders = newCategory();
  const invoices = newCategory();
  const order1 = newStream(orders);
  const order2 = newStream(orders);
  const invoice = newStream(invoices);
  const plan: Array<[string, EventEnvelope[]]> = [
    [order1, [event('OrderPlaced', { n: 1 }), event('OrderShipped', { n: 1 })]],
    [invoice, [event('InvoiceSent', { n: 1 })]],
    [order2, [event('OrderPlaced', { n: 2 })]],
    [order1, [event('OrderDelivered', { n: 1 })]],
    [invoice, [event('InvoicePaid', { n: 1 })]],
    [order2, [event('OrderShipped', { n: 2 })]],
  ];
  const appended: Appended[] = [];
  for (const [stream, events] of plan) {
    await store.append(stream, events, 'any');
    appended.push(...events.map((e) => ({ ...e, stream })));
  }
  return { appended, categories: [orders, invoices] as const };
}

async function pageThrough(store: EventStore, after: string, limit: number, categories?: string[]) {
  const pages: RecordedEvent[][] = [];
  let cursor = after;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await store.readAll({ after: cursor, limit, ...(categories ? { filter: { categories } } : {}) });
    if (page.length === 0) return pages;
    pages.push(page);
    cursor = page[page.length - 1]!.position;
  }
  throw new Error('paging did not end');
}

/** A subscription driven step by step by the test. */
function open(store: EventStore, options: SubscribeAllOptions) {
  const controller = new AbortController();
  const iterator = store.subscribeAll({ ...options, signal: controller.signal })[Symbol.asyncIterator]();
  return {
    async take(count: number): Promise<RecordedEvent[]> {
      const events: RecordedEvent[] = [];
      while (events.length < count) {
        const step = await within(iterator.next(), `event ${events.length + 1} of ${count}`);
        if (step.done) throw new Error(`subscription ended after ${events.length} of ${count} events`);
        if (isOurs(step.value)) events.push(step.value);
      }
      return events;
    },
    async stop() {
      controller.abort();
      await within(Promise.resolve(iterator.return?.()), 'the subscription to stop').catch(() => {});
    },
  };
}

/** A promise awaited later: if the test fails before, its rejection must not crash the run. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected a rejection');
}

type Deferred<T> = { promise: Promise<T>; resolve(value: T): void };
function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
