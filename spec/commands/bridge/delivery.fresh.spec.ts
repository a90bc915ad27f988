// putEvent routing as it accepts, its deliveries scheduled in the acceptance's commit with their first
// attempts started (the delivery worker's startFresh), against real SQLite stores and a real HTTP receiver;
// a commit that fails writes neither; a routing whose scheduling was lost (left out at acceptance) is
// scheduled by the worker from its due item; and a blocked rule target, whose fresh delivery is only
// scheduled and waits for the resume.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TargetAdapter } from '../../../commands/bridge/delivery.contracts.ts';
import { createDeliveryScheduler, deliveryIdFor } from '../../../commands/bridge/delivery.scheduler.ts';
import { createDeliveryWorker, type DeliveryDueItem } from '../../../commands/bridge/delivery.worker.ts';
import { createPublisher, type PublisherDeps, publishedKey } from '../../../commands/bridge/publish.commands.ts';
import { createEventRouter } from '../../../commands/bridge/router.process.ts';
import { createRuleTargetCommands } from '../../../commands/bridge/rule-target-state.commands.ts';
import { deliveryStream } from '../../../domain/bridge/delivery.decider.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { StoreUnavailableError } from '../../../infra/core/store-errors.ts';
import type { DeliveryDueDoc } from '../../../projections/bridge/deliveries.docs.ts';
import {
  DELIVERIES_PROJECTION,
  deliveriesProjection,
  LOST_SCHEDULING_AFTER_MS,
} from '../../../projections/bridge/deliveries.projection.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { eventually } from '../../core/eventually.ts';
import { type BridgeFixture, createBridgeFixture, ctxOf, httpTarget } from './bridge-fixture.ts';

const test = suite('fresh deliveries: routed and scheduled at acceptance, first attempt in the same commit');

/** delivery id → the calls the receiver got (their attempt ids) */
const calls = new Map<string, string[]>();
let receiver: Server;
let receiverUrl = '';
let f: BridgeFixture;

const adapter: TargetAdapter = {
  typeId: 3,
  async deliver(r) {
    const res = await fetch(`${receiverUrl}/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-delivery-id': r.deliveryId, 'x-attempt-id': r.attemptId },
      body: JSON.stringify(r.params.BODY),
      signal: r.signal,
    });
    await res.text();
    return res.ok ? { ok: true, httpStatus: res.status } : { ok: false, retryable: true, error: `HTTP ${res.status}` };
  },
};

const worker = (o: Partial<Parameters<typeof createDeliveryWorker>[0]> = {}) =>
  createDeliveryWorker({
    eventStore: f.eventStore,
    clock: f.clock,
    items: liveCollection<DeliveryDueItem>(f.readStore, DELIVERIES_PROJECTION, 'due'),
    adapters: [adapter],
    configCenter: f.configCenter,
    tenantProfile: async () => null,
    concurrency: 2,
    pollMs: 60_000, // no claims by the poll during a test: what runs, runs fresh or by runDue
    owner: 'spec-worker',
    ...o,
  });

/**
 * a publisher routing at acceptance; `schedule: false` leaves every scheduling out (as when it cannot be
 * decided); `eventStore`: the store the publisher appends to; `warnings`: what the publisher logs
 */
function publisherWith(
  w: ReturnType<typeof worker>,
  o: { schedule?: boolean; eventStore?: EventStore; warnings?: string[]; prepared?: number[] } = {},
) {
  const scheduler = createDeliveryScheduler({ eventStore: f.eventStore, clock: f.clock });
  const deps: PublisherDeps = {
    eventStore: o.eventStore ?? f.eventStore,
    clock: f.clock,
    buses: f.lookup,
    schemaValidator: f.schemaValidator,
    router: createEventRouter({
      eventStore: f.eventStore,
      clock: f.clock,
      rules: f.rulesIndex,
      configCenter: f.configCenter,
      convert: f.convert,
    }),
    deliveries: async (routed, targets, accepted, tolerate) => {
      if (o.schedule === false) return [];
      const prepared = await scheduler.prepare(
        routed,
        targets,
        (fresh, wait) => w.startFresh(fresh, accepted, wait),
        tolerate,
      );
      o.prepared?.push(prepared.length);
      return prepared;
    },
    ...(o.warnings && { log: { warn: (_obj: object, msg: string) => o.warnings!.push(msg) } }),
  };
  return createPublisher(deps);
}

/** a rule on the orders bus matching every event put here, with one HTTP target */
const createRule = (ruleId: string) => f.ordersRule(ruleId, 'fresh', [httpTarget(1, { kind: 'complete' })]);

let seq = 0;
let puts = 0;
const put = (publisher: ReturnType<typeof publisherWith>, id = `e${++seq}`, commandId = `put/${++puts}`) =>
  publisher.publish(
    {
      id,
      source: 'shop:checkout',
      type: 'shop:Order:Placed',
      time: '2026-03-01T10:00:00',
      dataContentType: 'application/json',
      eventBusName: 'orders',
      data: { kind: 'fresh', id },
    },
    { tenant: 'acme', subject: 'svc', clientId: 'shop' },
    {},
    commandId,
  );

const types = async (stream: string) => (await f.eventStore.readStream(stream)).map((e) => e.type);
const dueItem = (id: string) => readModel<DeliveryDueDoc>(f.readStore, DELIVERIES_PROJECTION, 'due').get(id);

test.before(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-delivery-id']);
      calls.set(id, [...(calls.get(id) ?? []), String(req.headers['x-attempt-id'])]);
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  f = await createBridgeFixture();
  await f.buses.createBus({ name: 'orders', kind: 'custom' }, ctxOf('acme'), 'bus-acme');
  await createRule('fresh');
});
test.after(async () => {
  await f.close();
  await new Promise((r) => receiver.close(r));
});

test('accepted, routed, scheduled and its first attempt started in one commit; one call; no due item left', async () => {
  const w = worker();
  w.start();
  const publisher = publisherWith(w);
  const { eventId, duplicate } = await put(publisher);
  assert.is(duplicate, false);
  const published = await f.eventStore.readStream(`published-acme.${eventId}`);
  assert.equal(
    published.map((e) => e.type),
    ['EventAccepted', 'EventRouted'],
  );
  assert.is(published[0]!.metadata.commandId, published[1]!.metadata.commandId, 'one command, one append');
  const deliveryId = deliveryIdFor(eventId, 'acme', 'fresh', 1);
  const stream = deliveryStream('acme', deliveryId);
  // the answer came once the delivery was scheduled with its attempt, the call going on
  assert.equal((await types(stream)).slice(0, 2), ['DeliveryScheduled', 'DeliveryAttemptStarted']);
  const [scheduled, started] = await f.eventStore.readStream(stream);
  assert.is(scheduled!.metadata.commandId, started!.metadata.commandId, 'scheduled and started in one append');
  assert.is(scheduled!.metadata.causationId, published[1]!.id, 'caused by the routing');
  assert.is(BigInt(scheduled!.position), BigInt(published[1]!.position) + 1n, 'right after the routing, in its commit');
  await eventually(async () => (await types(stream)).length === 3, 'the outcome');
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted', 'DeliverySucceeded']);
  assert.is(calls.get(deliveryId)?.length, 1);
  assert.is(
    calls.get(deliveryId)![0],
    (started!.data as { attemptId: string }).attemptId,
    'the attempt id recorded first',
  );
  await f.catchUp(deliveriesProjection);
  assert.is(await dueItem(deliveryId), null, 'nothing left for the claims');

  // a resend of (source, id) (another request), once a second rule matches too: a duplicate, nothing
  // scheduled or called again, for either rule
  await createRule('fresh-too');
  const prepared: number[] = [];
  const again = await put(publisherWith(w, { prepared }), `e${seq}`);
  assert.equal(prepared, [2], 'both rules’ deliveries were decided for the commit');
  assert.is(again.duplicate, true);
  await w.stop();
  assert.is(calls.get(deliveryId)?.length, 1);
  assert.is((await types(stream)).length, 3);
  assert.equal(await types(deliveryStream('acme', deliveryIdFor(eventId, 'acme', 'fresh-too', 1))), []);
  await f.rules.delete('fresh-too', ctxOf('acme'), 'rule/fresh-too/delete');
  await f.catchUpAll();
});

test('an event with two deliveries and one slot: one starts in the slot, the other is scheduled for the claims; concurrent puts all answered', async () => {
  await createRule('second');
  const w = worker({ concurrency: 1, owner: 'spec-worker-one-slot' });
  w.start();
  const publisher = publisherWith(w);
  // a slot held until its event's commit never waits for another slot: without that, the first put's
  // second delivery would wait for the slot its first holds
  let timer: NodeJS.Timeout | undefined;
  const answers = await Promise.race([
    Promise.all([put(publisher), put(publisher), put(publisher)]),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the puts were never answered')), 5000);
    }),
  ]).finally(() => clearTimeout(timer));
  const ids = answers.flatMap(({ eventId }) => ['fresh', 'second'].map((r) => deliveryIdFor(eventId, 'acme', r, 1)));
  const scheduled = await Promise.all(ids.map((id) => types(deliveryStream('acme', id))));
  assert.ok(
    scheduled.every((t) => t[0] === 'DeliveryScheduled'),
    'every delivery scheduled in its acceptance’s commit',
  );
  assert.ok(
    scheduled.some((t) => t[1] === 'DeliveryAttemptStarted'),
    'some started in the slot',
  );
  await f.catchUp(deliveriesProjection);
  await eventually(async () => {
    await w.runDue();
    return ids.every((id) => calls.get(id)?.length === 1);
  }, 'every delivery called once');
  await w.stop();
  await f.rules.delete('second', ctxOf('acme'), 'rule/second/delete');
  await f.catchUpAll();
});

test('a routing whose scheduling was lost: its due item comes due after LOST_SCHEDULING_AFTER_MS, the worker schedules and delivers it', async () => {
  const w = worker();
  const { eventId } = await put(publisherWith(w, { schedule: false }));
  const deliveryId = deliveryIdFor(eventId, 'acme', 'fresh', 1);
  const stream = deliveryStream('acme', deliveryId);
  assert.equal(await types(stream), [], 'not scheduled');
  await f.catchUp(deliveriesProjection);
  const item = await dueItem(deliveryId);
  assert.ok(item, 'a due item from the EventRouted');
  assert.is(item!.publishedStream, `published-acme.${eventId}`);
  assert.is(await w.runDue(), 0, 'not due yet: the scheduling may still come');
  f.clock.advance(LOST_SCHEDULING_AFTER_MS);
  assert.is(await w.runDue(), 1);
  assert.equal(await types(stream), ['DeliveryScheduled'], 'the routing item only schedules');
  await f.catchUp(deliveriesProjection);
  assert.is((await dueItem(deliveryId))!.publishedStream, undefined, "replaced by the scheduling's item");
  assert.is(await w.runDue(), 1);
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted', 'DeliverySucceeded']);
  assert.is(calls.get(deliveryId)?.length, 1);
  await f.catchUp(deliveriesProjection);
  assert.is(await dueItem(deliveryId), null);
});

test('an attempt started fresh is due again only when its outcome is overdue (outcomeBy), not claimable meanwhile', async () => {
  // the receiver never answers this one: the attempt stays in flight
  const w = worker({
    adapters: [{ typeId: 3, deliver: () => new Promise(() => undefined) }],
    concurrency: 1,
    leaseMs: 30_000,
    timeoutMs: 5000,
    owner: 'spec-worker-2',
  });
  w.start();
  const { eventId } = await put(publisherWith(w));
  const deliveryId = deliveryIdFor(eventId, 'acme', 'fresh', 1);
  await f.catchUp(deliveriesProjection);
  const item = await dueItem(deliveryId);
  const started = (await f.eventStore.readStream(deliveryStream('acme', deliveryId)))[1]!;
  assert.is(item!.dueAt, (started.data as { outcomeBy: string }).outcomeBy);
  assert.is(Date.parse(item!.dueAt) - Date.parse((started.data as { at: string }).at), 30_000);
  void w.stop(); // its call never ends: not awaited
});

test('the acceptance’s commit fails (the store unreachable for a moment): neither the event nor its delivery is written, no call; the retried put delivers once', async () => {
  let down = true;
  let heldAtCommit = -1;
  const w = worker({ owner: 'spec-worker-failing' });
  const failing: EventStore = {
    ...f.eventStore,
    async appendMany(batch) {
      if (!down) return f.eventStore.appendMany(batch);
      heldAtCommit = (await w.status()).inFlight;
      throw new StoreUnavailableError('sqlite', 'disk I/O error');
    },
  };
  w.start();
  const publisher = publisherWith(w, { eventStore: failing });
  const id = `e${++seq}`;
  const commandId = `put/${++puts}`;
  const rejected = await put(publisher, id, commandId).catch((err: unknown) => err);
  assert.is(heldAtCommit, 1, 'the delivery held a slot, waiting for the commit');
  assert.instance(rejected, StoreUnavailableError, 'a 503: nothing was accepted');
  const key = publishedKey('acme', { tenant: 'acme', name: 'orders' }, 'shop:checkout', id);
  const deliveryId = deliveryIdFor(key, 'acme', 'fresh', 1);
  const stream = deliveryStream('acme', deliveryId);
  assert.equal(await types(`published-acme.${key}`), [], 'the event not accepted');
  assert.equal(await types(stream), [], 'nothing half-written');
  await eventually(async () => (await w.status()).inFlight === 0, 'the slot it held freed');
  assert.is(calls.get(deliveryId), undefined, 'no call without its attempt recorded');

  // the client's retry, with the same Idempotency-Key
  down = false;
  const { eventId, duplicate } = await put(publisher, id, commandId);
  assert.is(duplicate, false);
  assert.is(eventId, key);
  await eventually(async () => (await types(stream)).length === 3, 'the outcome');
  await w.stop();
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted', 'DeliverySucceeded']);
  assert.is(calls.get(deliveryId)?.length, 1);
});

test('a blocked rule target: the fresh delivery is scheduled alone (no attempt, no call), held, and delivered after the resume', async () => {
  const ruleTargets = createRuleTargetCommands({ eventStore: f.eventStore, clock: f.clock });
  const ref = { ruleTenant: 'acme', ruleId: 'fresh', targetId: 1 };
  await ruleTargets.block(ref, { deliveryId: 'an-earlier-one', round: 1, error: 'HTTP 500' }, ctxOf('acme'), 'block/1');
  const w = worker();
  w.start();
  const { eventId } = await put(publisherWith(w));
  await w.stop();
  const deliveryId = deliveryIdFor(eventId, 'acme', 'fresh', 1);
  const stream = deliveryStream('acme', deliveryId);
  assert.equal(await types(stream), ['DeliveryScheduled'], 'scheduled, not attempted');
  assert.is(calls.get(deliveryId), undefined);
  await f.catchUp(deliveriesProjection);
  assert.is((await dueItem(deliveryId))!.held, true, 'held while its rule target is blocked');
  assert.is(await worker().runDue(), 0, 'nothing due while blocked');

  await ruleTargets.resume(ref, ctxOf('acme'), 'resume/1');
  await f.catchUp(deliveriesProjection);
  const after = worker();
  assert.ok((await after.runDue()) >= 1);
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted', 'DeliverySucceeded']);
  assert.is(calls.get(deliveryId)?.length, 1);
});

test.run();
