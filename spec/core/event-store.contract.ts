import { randomUUID } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type {
  AppendRequest,
  AppendResult,
  EventStore,
  LogPage,
  SubscribeAllOptions,
  SubscribePagesOptions,
} from '../../infra/core/event-store.port.ts';
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
    assert.equal(
      read.map(withoutPosition),
      events.map((e, i) => ({ ...e, stream, revision: i })),
    );
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
    assert.equal(
      (await store.readStream(stream)).map((e) => e.type),
      ['A', 'B', 'C'],
    );
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
    assert.equal(
      read.map((e) => e.id),
      [...first, ...second].map((e) => e.id),
    );
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
    assert.equal(
      forwards.map((e) => e.id),
      events.map((e) => e.id),
    );
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
    assert.equal(
      all.map((e) => e.id),
      appended.map((e) => e.id),
    );
    assert.equal(
      all.map((e) => e.stream),
      appended.map((e) => e.stream),
    );
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

  test('lastPositionIn (where offered) answers the newest event of the categories, as a backwards read does', async () => {
    const { store } = fixture();
    if (store.lastPositionIn === undefined) return;
    const { categories } = await seed(store);
    const [orders, invoices] = categories;
    for (const cats of [[orders!], [invoices!], [orders!, invoices!]]) {
      const [last] = await store.readAll({ direction: 'backwards', filter: { categories: cats }, limit: 1 });
      assert.is(await store.lastPositionIn(cats), last!.position, cats.join(','));
    }
    assert.is(await store.lastPositionIn([`nothing${Date.now()}`]), undefined);
  });

  test('readAll with a limit pages through everything in order', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended, categories } = await seed(store);
    const pages = await pageThrough(store, head, 2);
    assert.ok(pages.every((page) => page.length <= 2 && page.length > 0));
    assert.equal(
      ours(pages.flat()).map((e) => e.id),
      appended.map((e) => e.id),
    );
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
    assert.equal(
      newest.map((e) => e.id),
      appended
        .slice(-3)
        .reverse()
        .map((e) => e.id),
    );
    // with a limit: on a server that keeps data, an unbounded filtered read would scan all older history
    const older = await store.readAll({ direction: 'backwards', after: newest[2]!.position, filter, limit: 5 });
    assert.equal(
      older.map((e) => e.id),
      appended
        .slice(0, -3)
        .reverse()
        .map((e) => e.id),
    );
  });

  test('positions are strictly increasing as text', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const results: AppendResult[] = [];
    const a = newStream();
    const b = newStream();
    for (let i = 0; i < 6; i++) results.push(await store.append(i % 2 ? a : b, [event('Tick', { i })], 'any'));
    const positions = results.map((r) => r.position);
    assert.ok(
      positions.every((p) => /^\d{20,}$/.test(p)),
      'zero-padded decimal strings',
    );
    assert.ok(positions[0]! > head);
    assertIncreasing(positions);
    const read = await store.readAll({ after: head });
    assertIncreasing(read.map((e) => e.position));
    assert.equal(
      ours(read).map((e) => e.position),
      positions,
    );
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
      assert.equal(
        caughtUp.map((e) => e.id),
        appended.map((e) => e.id),
      );
      assert.equal(caughtUp, ours(await store.readAll({ after: head })));

      const later = [event('Later1'), event('Later2')];
      const stream = newStream();
      const pending = settledLater(subscription.take(2)); // already waiting when the append happens
      await store.append(stream, later, 'no_stream');
      const live = await pending;
      assert.equal(
        live.map((e) => e.id),
        later.map((e) => e.id),
      );
      assert.equal(
        live.map((e) => e.revision),
        [0, 1],
      );
      assert.ok(live[0]!.position > caughtUp[caughtUp.length - 1]!.position);
    } finally {
      await subscription.stop();
    }
  });

  test('subscribeAll waits for a slow consumer and loses nothing appended meanwhile', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const stream = newStream(category);
    await store.append(stream, [event('One'), event('Two')], 'no_stream');

    const delivered: string[] = [];
    const holding = deferred<void>();
    const release = deferred<void>();
    const controller = new AbortController();
    const consumer = (async () => {
      for await (const e of store.subscribeAll({
        after: head,
        filter: { categories: [category] },
        signal: controller.signal,
      })) {
        delivered.push(e.type);
        if (delivered.length === 1) {
          holding.resolve();
          await release.promise; // a slow handler the test controls
        }
        if (delivered.length === 4) break;
      }
    })();
    try {
      await within(holding.promise, 'the first event');
      // appended while the consumer is busy: an adapter that pushes into a bounded buffer, or reads
      // "from now on" after its catch-up, would drop these
      await store.append(stream, [event('Three'), event('Four')], 1);
      release.resolve();
      await within(consumer, 'the consumer to finish');
      assert.equal(delivered, ['One', 'Two', 'Three', 'Four']);
    } finally {
      release.resolve();
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
      assert.equal(
        (await byCategory.take(expectedOrders.length)).map((e) => e.id),
        expectedOrders.map((e) => e.id),
      );
      assert.equal(
        (await byType.take(expectedInvoices.length)).map((e) => e.id),
        expectedInvoices.map((e) => e.id),
      );

      // live: an event of another category must not come through, the next matching one must
      const pendingOrder = settledLater(byCategory.take(1));
      const pendingInvoice = settledLater(byType.take(1));
      const other = event('InvoiceSent');
      const order = event('OrderPlaced');
      await store.append(newStream(categories[1]), [other], 'no_stream');
      await store.append(newStream(orders), [order], 'no_stream');
      assert.equal(
        (await pendingOrder).map((e) => e.id),
        [order.id],
      );
      assert.equal(
        (await pendingInvoice).map((e) => e.id),
        [other.id],
      );
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
      assert.equal(
        delivered.map((e) => e.id),
        events.map((e) => e.id),
      );
      assert.equal(
        delivered.map((e) => e.revision),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
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
      for await (const e of store.subscribeAll({
        after: head,
        filter: { categories: [category] },
        signal: controller.signal,
      })) {
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
      numbers: [0, 1, -1, Math.PI, 1e-7, 2.5e21, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
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

  // ---- appendMany ---------------------------------------------------------------------------------------

  test('appendMany appends to several streams in one call and answers per entry, in order', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const [s1, s2, s3, s4] = [newStream(category), newStream(category), newStream(category), newStream(category)];
    const created = event('Created');
    await store.append(s2, [created], 'no_stream');
    const batch: AppendRequest[] = [
      { stream: s1, events: [event('A1'), event('A2')], expected: 'no_stream' },
      { stream: s2, events: [event('B1')], expected: 0 },
      { stream: s3, events: [event('C1')], expected: 'any' },
      // the same stream twice: the entries apply in batch order, the second sees the first
      { stream: s4, events: [event('D1')], expected: 'no_stream' },
      { stream: s4, events: [event('D2'), event('D3')], expected: 0 },
    ];
    const results = await store.appendMany(batch);
    assert.is(results.length, batch.length);
    assert.equal(
      results.map((r) => (r instanceof WrongExpectedRevisionError ? r.message : r.revision)),
      [1, 1, 0, 0, 2],
    );
    for (const [i, entry] of batch.entries()) {
      const read = await store.readStream(entry.stream);
      const upTo = read.filter((e) => e.revision <= (results[i] as AppendResult).revision);
      const last = upTo[upTo.length - 1]!;
      assert.equal(
        results[i],
        { revision: last.revision, position: last.position },
        `entry ${i}: the result of its last event`,
      );
      assert.equal(
        upTo.slice(-entry.events.length).map((e) => e.id),
        entry.events.map((e) => e.id),
      );
    }
    assert.equal(
      (await store.readStream(s4)).map((e) => e.type),
      ['D1', 'D2', 'D3'],
    );
    const all = await store.readAll({ after: head, filter: { categories: [category] } });
    const written = [created, ...batch.flatMap((entry) => entry.events)];
    assert.equal(all.map((e) => e.id).sort(), written.map((e) => e.id).sort(), 'every event stored once');
    assertIncreasing(all.map((e) => e.position));
  });

  test('appendMany: a conflicting entry answers its WrongExpectedRevisionError, the others are stored', async () => {
    const { store } = fixture();
    const category = newCategory();
    const [fresh, twoEvents, missing, oneEvent, anyStream] = Array.from({ length: 5 }, () => newStream(category));
    await store.append(twoEvents!, [event('X'), event('Y')], 'no_stream');
    await store.append(oneEvent!, [event('Z')], 'no_stream');
    const batch: AppendRequest[] = [
      { stream: fresh!, events: [event('A')], expected: 'no_stream' },
      { stream: twoEvents!, events: [event('B')], expected: 0 },
      { stream: missing!, events: [event('C')], expected: 'stream_exists' },
      { stream: oneEvent!, events: [event('D')], expected: 'no_stream' },
      { stream: anyStream!, events: [event('E')], expected: 'any' },
    ];
    const results = await store.appendMany(batch);
    assert.is(results.length, 5);
    assert.not.instance(results[0], WrongExpectedRevisionError);
    assert.not.instance(results[4], WrongExpectedRevisionError);
    const conflicts = [results[1], results[2], results[3]];
    for (const conflict of conflicts) assert.instance(conflict, WrongExpectedRevisionError);
    const described = (conflicts as WrongExpectedRevisionError[]).map((c) => [c.stream, c.expected, c.actual]);
    assert.equal(described, [
      [twoEvents, 0, 1],
      [missing, 'stream_exists', 'no_stream'],
      [oneEvent, 'no_stream', 0],
    ]);
    assert.equal(
      (await store.readStream(fresh!)).map((e) => e.type),
      ['A'],
    );
    assert.equal(
      (await store.readStream(twoEvents!)).map((e) => e.type),
      ['X', 'Y'],
    );
    assert.equal(await store.readStream(missing!), []);
    assert.equal(
      (await store.readStream(oneEvent!)).map((e) => e.type),
      ['Z'],
    );
    assert.equal(
      (await store.readStream(anyStream!)).map((e) => e.type),
      ['E'],
    );
    assert.is((results[0] as AppendResult).revision, 0);
    assert.is((results[4] as AppendResult).revision, 0);
  });

  test('appendMany: an entry with `after` is appended only if the entry it depends on went ahead', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const [taken, fresh, d1, d2, d3, d4, free] = Array.from({ length: 7 }, () => newStream(category));
    await store.append(taken!, [event('Accepted')], 'no_stream');
    const retried = [event('Accepted')];
    await store.append(fresh!, retried, 'no_stream');
    const results = await store.appendMany([
      // a duplicate acceptance: what depends on it writes nothing and answers its conflict
      { stream: taken!, events: [event('Accepted')], expected: 'no_stream' },
      { stream: d1!, events: [event('Scheduled')], expected: 'no_stream', after: 0 },
      { stream: d2!, events: [event('Scheduled')], expected: 'no_stream', after: 0 },
      // an idempotent retry goes ahead: what depends on it is appended
      { stream: fresh!, events: clone(retried), expected: 'no_stream' },
      { stream: d3!, events: [event('Scheduled')], expected: 'no_stream', after: 3 },
      // a dependent's own conflict stops only itself
      { stream: taken!, events: [event('Again')], expected: 'no_stream', after: 3 },
      { stream: d4!, events: [event('Scheduled')], expected: 'no_stream', after: 3 },
      { stream: free!, events: [event('Other')], expected: 'no_stream' },
      // a chain: what depends on a skipped entry is skipped too, with the same conflict
      { stream: newStream(category), events: [event('Chained')], expected: 'no_stream', after: 1 },
    ]);
    assert.is(results[8], results[0], 'skipped along the chain');
    assert.instance(results[0], WrongExpectedRevisionError);
    assert.is(results[1], results[0], 'the dependency’s conflict, answered again');
    assert.is(results[2], results[0]);
    assert.not.instance(results[3], WrongExpectedRevisionError);
    assert.is((results[4] as AppendResult).revision, 0);
    assert.instance(results[5], WrongExpectedRevisionError);
    assert.is.not(results[5], results[0]);
    assert.is((results[6] as AppendResult).revision, 0);
    assert.is((results[7] as AppendResult).revision, 0);
    assert.equal(await store.readStream(d1!), []);
    assert.equal(await store.readStream(d2!), []);
    const written = (await store.readAll({ after: head, filter: { categories: [category] } })).map((e) => e.type);
    assert.equal(written.sort(), ['Accepted', 'Accepted', 'Other', 'Scheduled', 'Scheduled']);
    const misnamed = store.appendMany([
      { stream: newStream(category), events: [event('X')], expected: 'no_stream', after: 0 },
    ]);
    assert.instance(
      await misnamed.then(
        () => undefined,
        (err: unknown) => err,
      ),
      Error,
      'depends on itself',
    );
  });

  test('appendMany: retrying entries is idempotent, alone or beside new entries', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const [s1, s2, s3] = [newStream(category), newStream(category), newStream(category)];
    const batch: AppendRequest[] = [
      { stream: s1, events: [event('A'), event('B')], expected: 'no_stream' },
      { stream: s2, events: [event('C')], expected: 'no_stream' },
    ];
    const first = await store.appendMany(batch);
    // the retry of a call whose answer was lost: same ids, same expected revisions
    assert.equal(await store.appendMany(clone(batch)), first);
    // one entry retried beside a new one
    const mixed = await store.appendMany([
      clone(batch[0]!),
      { stream: s3, events: [event('D')], expected: 'no_stream' },
    ]);
    assert.equal(mixed[0], first[0]);
    assert.is((mixed[1] as AppendResult).revision, 0);
    assert.equal(
      (await store.readStream(s1)).map((e) => e.type),
      ['A', 'B'],
    );
    assert.equal(
      (await store.readStream(s2)).map((e) => e.type),
      ['C'],
    );
    assert.equal(
      (await store.readStream(s3)).map((e) => e.type),
      ['D'],
    );
    assert.is((await store.readAll({ after: head, filter: { categories: [category] } })).length, 4);
  });

  test('appendMany of no entries answers []; an entry without events answers where its stream is', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    assert.equal(await store.appendMany([]), []);
    const stream = newStream(category);
    const written = await store.append(stream, [event('A'), event('B')], 'no_stream');
    const results = await store.appendMany([
      { stream, events: [], expected: 'any' },
      { stream: newStream(category), events: [], expected: 'any' },
    ]);
    assert.equal(results, [written, { revision: -1, position: START }]);
    assert.is((await store.readAll({ after: head, filter: { categories: [category] } })).length, 2);
  });

  // ---- subscribePages -----------------------------------------------------------------------------------

  test('subscribePages catches up in pages of at most pageSize, then delivers live pages', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended } = await seed(store);
    const pages = openPages(store, { after: head, pageSize: 3 });
    try {
      const caughtUp = await pages.take(appended.length);
      assert.equal(ids(caughtUp.events), ids(appended));
      assert.equal(caughtUp.events, ours(await store.readAll({ after: head })), 'the same recorded events as readAll');
      assert.ok(caughtUp.pages.length >= 3, `${appended.length} events in pages of at most 3`);

      const later = [event('Later1'), event('Later2')];
      const pending = settledLater(pages.take(later.length)); // already waiting when the append happens
      await store.append(newStream(), later, 'no_stream');
      const live = await pending;
      assert.equal(ids(live.events), ids(later));
      assert.equal(
        live.events.map((e) => e.revision),
        [0, 1],
      );
      assert.ok(live.events[0]!.position > caughtUp.events[caughtUp.events.length - 1]!.position);
    } finally {
      await pages.stop();
    }
  });

  test('subscribePages with a filter hands over only matching events, by category, by type, or both', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const { appended, categories } = await seed(store);
    const [orders, invoices] = categories;
    const byCategory = openPages(store, { after: head, filter: { categories: [orders] } });
    const byType = openPages(store, { after: head, filter: { eventTypes: ['InvoiceSent', 'OrderShipped'] } });
    const both = openPages(store, { after: head, filter: { categories: [orders], eventTypes: ['OrderShipped'] } });
    try {
      const expectedOrders = appended.filter((e) => categoryOf(e.stream) === orders);
      const expectedTypes = appended.filter((e) => e.type === 'InvoiceSent' || e.type === 'OrderShipped');
      const expectedBoth = appended.filter((e) => e.type === 'OrderShipped');
      assert.equal(ids((await byCategory.take(expectedOrders.length)).events), ids(expectedOrders));
      assert.equal(ids((await byType.take(expectedTypes.length)).events), ids(expectedTypes));
      assert.equal(ids((await both.take(expectedBoth.length)).events), ids(expectedBoth));

      // live: an event none of them wants must not come through, the next matching one must
      const pending = [byCategory, byType, both].map((pages) => settledLater(pages.take(1)));
      const unwanted = event('InvoicePaid');
      const shipped = event('OrderShipped');
      await store.append(newStream(invoices), [unwanted], 'no_stream');
      const written = await store.append(newStream(orders), [shipped], 'no_stream');
      for (const taken of await Promise.all(pending)) {
        assert.equal(ids(taken.events), [shipped.id]);
        const page = taken.pages[0]!;
        assert.ok(page.position >= written.position, 'the page covers the event it brings');
      }
    } finally {
      await byCategory.stop();
      await byType.stop();
      await both.stop();
    }
  });

  test('subscribePages applies backpressure: the next page is read when the consumer asks for it', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const first = event('First');
    await store.append(newStream(category), [first], 'no_stream');
    const pages = openPages(store, { after: head, filter: { categories: [category] }, pageSize: 100 });
    try {
      assert.equal(ids((await pages.take(1)).events), [first.id]);
      // The consumer holds that page. A reader that read ahead would have read the first of these appends
      // alone, as soon as it was made; one that waits for the consumer reads them together.
      const held = [event('Held1'), event('Held2'), event('Held3')];
      for (const e of held) await store.append(newStream(category), [e], 'no_stream');
      await deliveredBy(store, head, category, 1 + held.length); // the store has them ready for its readers
      const next = await pages.take(held.length);
      assert.equal(ids(next.events), ids(held));
      assert.is(next.pages.length, 1, 'one page holds everything appended while the previous page was held');
    } finally {
      await pages.stop();
    }
  });

  test('subscribePages: a burst of appends while the reader waits comes in a few pages, not one per append', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const first = event('First');
    await store.append(newStream(category), [first], 'no_stream');
    const pages = openPages(store, { after: head, filter: { categories: [category] } });
    try {
      assert.equal(ids((await pages.take(1)).events), [first.id]);
      const burst = Array.from({ length: 20 }, (_, i) => event(`Burst${i}`, { i }));
      // the reader waits at the head; the burst (concurrent appends, as from concurrent requests) wakes it
      const firstOfBurst = settledLater(pages.take(1));
      await Promise.all(burst.map((e) => store.append(newStream(category), [e], 'no_stream')));
      const opening = await firstOfBurst; // the consumer takes that page only now, then asks for the rest
      await deliveredBy(store, head, category, 1 + burst.length);
      const rest =
        opening.events.length < burst.length ? await pages.take(burst.length - opening.events.length) : undefined;
      const received = [...opening.events, ...(rest?.events ?? [])];
      assert.equal(ids(received).sort(), ids(burst).sort());
      assertIncreasing(received.map((e) => e.position));
      const count = opening.pages.length + (rest?.pages.length ?? 0);
      assert.ok(count <= 3, `${burst.length} concurrent appends came in ${count} pages`);
    } finally {
      await pages.stop();
    }
  });

  test('subscribePages: aborting ends the iteration cleanly, whether waiting or holding a page', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    const a = event('A');
    await store.append(newStream(category), [a], 'no_stream');

    // aborted while the consumer waits for the next page
    const controller = new AbortController();
    const received: string[] = [];
    const gotFirst = deferred<void>();
    const consumer = (async () => {
      for await (const page of store.subscribePages({
        after: head,
        filter: { categories: [category] },
        signal: controller.signal,
      })) {
        received.push(...page.events.map((e) => e.id));
        if (received.length > 0) gotFirst.resolve();
      }
      return 'ended';
    })();
    await within(gotFirst.promise, 'the first page');
    controller.abort();
    assert.is(await within(consumer, 'the iteration to end after abort'), 'ended');
    assert.equal(received, [a.id]);

    // aborted while the consumer holds a page: asking for the next one ends the iteration
    const holding = new AbortController();
    const iterator = store
      .subscribePages({ after: head, filter: { categories: [category] }, signal: holding.signal })
      [Symbol.asyncIterator]();
    let step = await within(iterator.next(), 'the first page');
    while (!step.done && step.value.events.length === 0) step = await within(iterator.next(), 'the first page');
    assert.equal(step.done ? [] : ids(step.value.events), [a.id]);
    holding.abort();
    await store.append(newStream(category), [event('B')], 'no_stream');
    assert.is((await within(iterator.next(), 'the end after abort')).done, true);

    // already aborted: nothing is handed over at all
    const none: LogPage[] = [];
    for await (const page of store.subscribePages({ after: head, signal: AbortSignal.abort() })) none.push(page);
    assert.equal(none, []);
  });

  test('subscribePages: close ends live page subscriptions', async () => {
    const { store } = fixture();
    const head = await store.headPosition();
    const category = newCategory();
    await store.append(newStream(category), [event('A')], 'no_stream');
    const gotFirst = deferred<void>();
    const consumer = (async () => {
      let count = 0;
      for await (const page of store.subscribePages({ after: head, filter: { categories: [category] } })) {
        count += page.events.length;
        if (count > 0) gotFirst.resolve();
      }
      return count;
    })();
    await within(gotFirst.promise, 'the first page');
    await store.close();
    assert.is(await within(consumer, 'the iteration to end after close'), 1);
  });

  test('a page subscription survives a dropped connection without losing or repeating events', async () => {
    const { store, interrupt } = fixture();
    if (!interrupt) {
      console.log(`  (${name}: no interrupt hook, page resubscription is not exercised here)`);
      return;
    }
    const head = await store.headPosition();
    const category = newCategory();
    const stream = newStream(category);
    const events = Array.from({ length: 8 }, (_, i) => event(`Step${i}`, { i }));
    await store.append(stream, events.slice(0, 5), 'no_stream');
    const pages = openPages(store, { after: head, filter: { categories: [category] }, pageSize: 2 });
    try {
      const delivered = (await pages.take(2)).events;
      interrupt(); // mid catch-up
      delivered.push(...(await pages.take(3)).events);
      const pending = settledLater(pages.take(3)); // now waiting live
      interrupt(); // while waiting at the head
      await store.append(stream, events.slice(5), 4);
      delivered.push(...(await pending).events);
      assert.equal(ids(delivered), ids(events));
      assert.equal(
        delivered.map((e) => e.revision),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
    } finally {
      await pages.stop();
    }
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

const ids = (events: ReadonlyArray<{ id: string }>) => events.map((e) => e.id);

/** The port's rules for every page, checked on each page a test takes. */
function checkPage(page: LogPage, previous: string, options: SubscribePagesOptions) {
  const pageSize = options.pageSize ?? 500;
  assert.ok(page.events.length <= pageSize, `a page of ${page.events.length} events, pageSize ${pageSize}`);
  let last = previous;
  for (const e of page.events) {
    assert.ok(e.position > last, `events strictly after the previous page and in log order: ${e.position} > ${last}`);
    last = e.position;
    const { categories, eventTypes } = options.filter ?? {};
    if (categories?.length) assert.ok(categories.includes(categoryOf(e.stream)), `${e.stream} is outside the filter`);
    if (eventTypes?.length) assert.ok(eventTypes.includes(e.type), `${e.type} is outside the filter`);
  }
  assert.ok(page.position >= last, `the page's position ${page.position} is at least its last event's ${last}`);
  assert.ok(page.position > previous, `a page moves the position forward: ${page.position} > ${previous}`);
}

/** A page subscription driven step by step by the test; every page is checked against the port's rules. */
function openPages(store: EventStore, options: SubscribePagesOptions) {
  const controller = new AbortController();
  const iterator = store.subscribePages({ ...options, signal: controller.signal })[Symbol.asyncIterator]();
  let position = options.after ?? START;
  const nextPage = async (what: string): Promise<LogPage> => {
    const step = await within(iterator.next(), what);
    if (step.done) throw new Error(`the page subscription ended while waiting for ${what}`);
    checkPage(step.value, position, options);
    position = step.value.position;
    return step.value;
  };
  return {
    /**
     * Pages until `count` events of this run have come (foreign events of a shared server are left out):
     * those events, and the pages that brought them.
     */
    async take(count: number): Promise<{ events: RecordedEvent[]; pages: LogPage[] }> {
      const events: RecordedEvent[] = [];
      const pages: LogPage[] = [];
      while (events.length < count) {
        const page = await nextPage(`event ${events.length + 1} of ${count}`);
        const mine = page.events.filter(isOurs);
        if (mine.length > 0) pages.push(page);
        events.push(...mine);
      }
      return { events, pages };
    },
    async stop() {
      controller.abort();
      await within(Promise.resolve(iterator.return?.()), 'the page subscription to stop').catch(() => {});
    },
  };
}

/**
 * Waits until a separate subscription of the store has received `count` events of the category: the
 * store has them ready to hand to its readers (on a server, pushed to this client already).
 */
async function deliveredBy(store: EventStore, after: string, category: string, count: number) {
  const probe = open(store, { after, filter: { categories: [category] } });
  try {
    await probe.take(count);
  } finally {
    await probe.stop();
  }
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
