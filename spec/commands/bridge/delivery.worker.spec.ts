import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeadLetterCommands } from '../../../commands/bridge/dead-letters.commands.ts';
import type { DeliveryOutcome, DeliveryRequest, TargetAdapter } from '../../../commands/bridge/delivery.contracts.ts';
import { createDeliveryScheduler, deliveryIdFor } from '../../../commands/bridge/delivery.scheduler.ts';
import {
  createDeliveryWorker,
  type DeliveryDueItem,
  type DeliveryWorkerDeps,
} from '../../../commands/bridge/delivery.worker.ts';
import { createEventRouter } from '../../../commands/bridge/router.process.ts';
import { createRuleTargetCommands } from '../../../commands/bridge/rule-target-state.commands.ts';
import { deliveryStream, UNCERTAIN_ERROR } from '../../../domain/bridge/delivery.decider.ts';
import type { Target } from '../../../domain/bridge/model.ts';
import { ruleTargetKey } from '../../../domain/bridge/rule-target-state.decider.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { DELIVERIES_PROJECTION, deliveriesProjection } from '../../../projections/bridge/deliveries.projection.ts';
import { createDeliveryQueries } from '../../../projections/bridge/deliveries.queries.ts';
import {
  type DeliveryEntry,
  TRACE_COLLECTION,
  TRACE_PROJECTION,
  type TraceDoc,
  traceProjection,
} from '../../../projections/bridge/trace.projection.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { type BridgeFixture, createBridgeFixture, ctxOf } from './bridge-fixture.ts';

const test = suite('delivery worker (real SQLite, manual clock, a real HTTP receiver)');

// ---- a real HTTP receiver: records every call with its X-Delivery-Id; answers per service path ----

type Received = { service: string; deliveryId: string; attemptId: string; body: unknown };
const received: Received[] = [];
/** per service: the statuses to answer, in turn (the last one repeats); default 200 */
const answers = new Map<string, number[]>();
let receiver: Server;
let receiverUrl = '';

/** an in-spec adapter in the manner of the preset HTTP client: POST the BODY param to the named service */
const httpAdapter: TargetAdapter = {
  typeId: 3,
  async deliver(r: DeliveryRequest): Promise<DeliveryOutcome> {
    const res = await fetch(`${receiverUrl}/svc/${String(r.params.SERVICE_NAME)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-delivery-id': r.deliveryId, 'x-attempt-id': r.attemptId },
      body: JSON.stringify(r.params.BODY),
      signal: r.signal,
    });
    await res.text();
    if (res.ok) return { ok: true, httpStatus: res.status };
    return {
      ok: false,
      retryable: res.status >= 500 || res.status === 408 || res.status === 429,
      error: `HTTP ${res.status}`,
      httpStatus: res.status,
    };
  },
};

/** records the resolved params of mail deliveries (TENANT_PROFILE, ENV_PARAM) without sending anything */
const mailCalls: DeliveryRequest[] = [];
const mailAdapter: TargetAdapter = {
  typeId: 1,
  async deliver(r) {
    mailCalls.push(r);
    return { ok: true, detail: '250 queued' };
  },
};

// ---- the bridge ----

let f: BridgeFixture;
const randoms: number[] = [];
const random = () => randoms.shift() ?? 0.5;
const profiles: Record<string, { supportMailGroup?: string }> = { acme: { supportMailGroup: 'support@acme.example' } };

const worker = (o: Partial<DeliveryWorkerDeps> = {}) =>
  createDeliveryWorker({
    eventStore: f.eventStore,
    clock: f.clock,
    items: liveCollection<DeliveryDueItem>(f.readStore, DELIVERIES_PROJECTION, 'due'),
    adapters: [httpAdapter, mailAdapter],
    configCenter: f.configCenter,
    tenantProfile: async (tenant) => profiles[tenant] ?? null,
    random,
    owner: 'spec-worker',
    ...o,
  });

const project = () => f.catchUp(deliveriesProjection, traceProjection);
const queries = () => createDeliveryQueries(f.readStore);
const ruleTargets = () => createRuleTargetCommands({ eventStore: f.eventStore, clock: f.clock });
const deadLetters = () => createDeadLetterCommands({ eventStore: f.eventStore, clock: f.clock, index: queries() });

/** uvu's reporter cannot print a DomainError (its `details` is not a string): such a failure becomes a plain Error */
const it = (name: string, fn: () => Promise<void>) =>
  test(name, async () => {
    try {
      await fn();
    } catch (err) {
      if (err instanceof Error && 'details' in err)
        throw new Error(`${err.name} ${err.message} ${JSON.stringify((err as { details: unknown }).details)}`);
      throw err;
    }
  });

let seq = 0;
const target = (service: string, o: Partial<Target> = {}): Target => ({
  id: 1,
  typeId: 3,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: true,
  params: [
    { resourceKey: 'SERVICE_NAME', form: 'CONSTANT', value: service },
    { resourceKey: 'BODY', form: 'ORIGINAL', value: '' },
  ],
  conversion: { kind: 'complete' },
  ...o,
});

/** a rule of acme on its `orders` bus matching `data.kind` */
const rule = (ruleId: string, kind: string, targets: Target[]) => f.ordersRule(ruleId, kind, targets);

/** putEvent, routing and scheduling as the reactors do them; answers the event key and its deliveries */
async function publish(kind: string, data: Record<string, unknown> = {}) {
  const n = ++seq;
  const input = {
    id: `e${n}`,
    source: 'shop:checkout',
    type: 'shop:Order:Placed',
    time: '2026-03-01T10:00:00',
    dataContentType: 'application/json',
    eventBusName: 'orders',
    data: { kind, n, ...data },
  };
  const { eventId } = await f.publisher.publish(
    input,
    { tenant: 'acme', subject: 'svc', clientId: 'shop' },
    {},
    `put/${n}`,
  );
  const stream = `published-acme.${eventId}`;
  const router = createEventRouter({
    eventStore: f.eventStore,
    clock: f.clock,
    rules: f.rulesIndex,
    configCenter: f.configCenter,
    convert: f.convert,
  });
  await router.route((await f.eventStore.readStream(stream))[0]!);
  const routed = (await f.eventStore.readStream(stream))[1]!;
  const scheduled = await createDeliveryScheduler({ eventStore: f.eventStore, clock: f.clock }).schedule(routed);
  await project();
  return { eventKey: eventId, n, input, deliveries: scheduled };
}

/** projects, runs what is due, projects again */
async function runDue(w = worker()) {
  await project();
  const ran = await w.runDue();
  await project();
  return ran;
}

const types = async (stream: string) => (await f.eventStore.readStream(stream)).map((e) => e.type);
const trace = async (eventKey: string): Promise<DeliveryEntry[]> =>
  (await readModel<TraceDoc>(f.readStore, TRACE_PROJECTION, TRACE_COLLECTION).get(eventKey))!.delivery;
const seen = (deliveryId: string) => received.filter((r) => r.deliveryId === deliveryId);

test.before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const service = (req.url ?? '').replace('/svc/', '');
      received.push({
        service,
        deliveryId: String(req.headers['x-delivery-id']),
        attemptId: String(req.headers['x-attempt-id']),
        body: JSON.parse(body || 'null'),
      });
      const list = answers.get(service) ?? [200];
      const status = list.length > 1 ? list.shift()! : list[0]!;
      res.statusCode = status;
      res.end(status < 300 ? '{"ok":true}' : '{"error":"nope"}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  f = await createBridgeFixture();
  await f.buses.createBus({ name: 'orders', kind: 'custom' }, ctxOf('acme'), 'bus-acme');
  await f.catchUpAll();
});
test.after(async () => {
  await f.close();
  await new Promise((r) => receiver.close(r));
});

it('success: one call carrying the delivery id; the stream and the trace record the attempt and its outcome', async () => {
  await rule('ok-rule', 'ok', [target('claims')]);
  const { eventKey, input, deliveries } = await publish('ok');
  assert.is(deliveries.length, 1);
  const { deliveryId, stream } = deliveries[0]!;
  assert.is(deliveryId, deliveryIdFor(eventKey, 'acme', 'ok-rule', 1));
  assert.is(stream, deliveryStream('acme', deliveryId));

  assert.is(await runDue(), 1);
  const calls = seen(deliveryId);
  assert.is(calls.length, 1);
  assert.is(calls[0]!.service, 'claims');
  assert.equal((calls[0]!.body as { data: unknown }).data, input.data, 'BODY ORIGINAL: the raw event');
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted', 'DeliverySucceeded']);
  const [, startedEvent] = await f.eventStore.readStream(stream);
  assert.is(
    (startedEvent!.data as { attemptId: string }).attemptId,
    calls[0]!.attemptId,
    'the attempt id of the call was recorded before it',
  );

  const t = await trace(eventKey);
  assert.equal(
    t.map((e) => e.status),
    ['scheduled', 'started', 'succeeded'],
  );
  assert.is(t[2]!.httpStatus, 200);
  assert.is(t[2]!.deliveryId, deliveryId);
  assert.is(t[2]!.ruleId, 'ok-rule');
  assert.is(t[2]!.targetId, 1);
  assert.is((await queries().delivery(deliveryId))!.status, 'succeeded');
  assert.is(await runDue(), 0, 'nothing left');
});

it('retries follow BACKOFF_RETRY with the injected random and clock, without sleeping', async () => {
  answers.set('flaky', [503, 502, 200]);
  await rule('flaky-rule', 'flaky', [target('flaky')]);
  const { eventKey, deliveries } = await publish('flaky');
  const { deliveryId, stream } = deliveries[0]!;
  const t0 = f.clock.now().getTime();
  randoms.push(0.5, 0);

  assert.is(await runDue(), 1);
  assert.is(seen(deliveryId).length, 1);
  let entries = await trace(eventKey);
  let failed = entries[entries.length - 1]!;
  assert.is(failed.status, 'failed');
  assert.is(failed.httpStatus, 503);
  assert.is(failed.error, 'HTTP 503');
  assert.is(failed.nextAttemptAt, new Date(t0 + 15_000).toISOString(), '10 s + 0.5 × 10 s');

  f.clock.advance(14_999);
  assert.is(await runDue(), 0, 'not due yet');
  f.clock.advance(1);
  assert.is(await runDue(), 1);
  assert.is(seen(deliveryId).length, 2);
  entries = await trace(eventKey);
  failed = entries[entries.length - 1]!;
  assert.is(failed.httpStatus, 502);
  assert.is(failed.nextAttemptAt, new Date(t0 + 25_000).toISOString(), '10 s + 0 × 10 s after the second failure');

  f.clock.advance(10_000);
  assert.is(await runDue(), 1);
  const calls = seen(deliveryId);
  assert.is(calls.length, 3);
  assert.is(new Set(calls.map((c) => c.attemptId)).size, 3, 'a new attempt id per attempt, the same delivery id');
  assert.equal(await types(stream), [
    'DeliveryScheduled',
    'DeliveryAttemptStarted',
    'DeliveryAttemptFailed',
    'DeliveryAttemptStarted',
    'DeliveryAttemptFailed',
    'DeliveryAttemptStarted',
    'DeliverySucceeded',
  ]);
  assert.equal(
    (await trace(eventKey)).map((e) => [e.status, e.attempt]),
    [
      ['scheduled', 0],
      ['started', 1],
      ['failed', 1],
      ['started', 2],
      ['failed', 2],
      ['started', 3],
      ['succeeded', 3],
    ],
  );
});

/** fails every attempt of a BACKOFF delivery: the first call and three retries */
async function exhaust(deliveryId: string) {
  assert.is(await runDue(), 1);
  for (let retry = 1; retry <= 3; retry++) {
    f.clock.advance(20_000);
    assert.is(await runDue(), 1, `retry ${retry}`);
  }
  assert.is(seen(deliveryId).length, 4, 'the first attempt and 3 retries');
}

it('ErrorTolerance ALL with DeadLetterRecord: after the last retry a dead letter, raw event and last error unchanged', async () => {
  answers.set('down', [500]);
  await rule('dlq-rule', 'dlq', [target('down')]);
  const { eventKey, input, deliveries } = await publish('dlq', { amount: 12.5, note: 'ünïcode' });
  const { deliveryId, stream } = deliveries[0]!;
  await exhaust(deliveryId);
  f.clock.advance(60_000);
  assert.is(await runDue(), 0, 'no fifth attempt');
  assert.equal((await types(stream)).slice(-2), ['DeliveryAttemptFailed', 'DeliveryDeadLettered']);
  const t = await trace(eventKey);
  assert.equal(
    t.slice(-2).map((e) => [e.status, e.nextAttemptAt ?? null]),
    [
      ['failed', null],
      ['dead-lettered', null],
    ],
  );

  const ref = { ruleTenant: 'acme', ruleId: 'dlq-rule', targetId: 1 };
  const list = await deadLetters().list(ref, { limit: 10, offset: 0 });
  assert.is(list.total, 1);
  assert.is(list.items[0]!.deliveryId, deliveryId);
  assert.is(list.items[0]!.lastError, 'HTTP 500');
  assert.is(list.items[0]!.attempts, 4);
  const detail = await deadLetters().inspect(ref, deliveryId);
  assert.equal(detail.event, { ...input, data: input.data }, 'the raw event, unchanged');
  assert.equal(detail.payload, detail.event, 'the complete-event payload, unchanged');
  assert.is(detail.lastError, 'HTTP 500');
  assert.is(detail.httpStatus, 500);
  assert.is(detail.history.length, 4);
});

it('ErrorTolerance ALL without DeadLetterRecord: discarded, nothing in the dead letter queue', async () => {
  await rule('discard-rule', 'discard', [target('down', { deadLetterRecord: false })]);
  const { eventKey, deliveries } = await publish('discard');
  await exhaust(deliveries[0]!.deliveryId);
  assert.equal((await types(deliveries[0]!.stream)).slice(-1), ['DeliveryDiscarded']);
  assert.is((await trace(eventKey)).at(-1)!.status, 'discarded');
  assert.is(
    (await deadLetters().list({ ruleTenant: 'acme', ruleId: 'discard-rule', targetId: 1 }, { limit: 10, offset: 0 }))
      .total,
    0,
  );
});

it('ErrorTolerance NONE: blocked once the retries run out; later deliveries wait; resume delivers them in order', async () => {
  answers.set('strict', [500]);
  await rule('strict-rule', 'strict', [target('strict', { errorTolerance: 'NONE' })]);
  const ref = { ruleTenant: 'acme', ruleId: 'strict-rule', targetId: 1 };
  const first = await publish('strict');
  await exhaust(first.deliveries[0]!.deliveryId);
  assert.equal((await types(first.deliveries[0]!.stream)).slice(-2), ['DeliveryAttemptFailed', 'DeliveryBlocked']);
  assert.is((await trace(first.eventKey)).at(-1)!.status, 'blocked');
  const state = await ruleTargets().get(ref);
  assert.is(state.blocked, true);
  assert.equal(
    state.blockedBy.map((b) => b.deliveryId),
    [first.deliveries[0]!.deliveryId],
  );
  assert.is((await queries().ruleTarget(ruleTargetKey(ref)))!.blocked, true);

  // later events of that target are scheduled but not attempted
  answers.set('strict', [200]);
  const second = await publish('strict');
  f.clock.advance(1000);
  const third = await publish('strict');
  f.clock.advance(3_600_000);
  await runDue();
  assert.is(seen(second.deliveries[0]!.deliveryId).length, 0);
  assert.is(seen(third.deliveries[0]!.deliveryId).length, 0);
  assert.equal(await types(second.deliveries[0]!.stream), ['DeliveryScheduled']);
  const counts = await queries().counts(ruleTargetKey(ref));
  assert.is(counts.blocked, 1);
  assert.is(counts.waiting, 3, 'the blocked delivery and the two waiting');

  // an operator resumes: the blocking delivery first (a new round), then the waiting ones in order
  const before = received.length;
  const { released } = await ruleTargets().resume(ref, ctxOf('acme'), 'resume-1');
  assert.equal(
    released.map((b) => b.deliveryId),
    [first.deliveries[0]!.deliveryId],
  );
  assert.is(await runDue(), 3);
  assert.equal(
    received.slice(before).map((r) => r.deliveryId),
    [first, second, third].map((p) => p.deliveries[0]!.deliveryId),
  );
  assert.equal((await types(first.deliveries[0]!.stream)).slice(-4), [
    'DeliveryBlocked',
    'DeliveryRedriven',
    'DeliveryAttemptStarted',
    'DeliverySucceeded',
  ]);
  assert.is((await ruleTargets().get(ref)).blocked, false);
  assert.is((await queries().counts(ruleTargetKey(ref))).waiting, 0);
  assert.is((await queries().counts(ruleTargetKey(ref))).succeeded, 3);
});

it('dead letter queue: redrive one, redrive all, purge one and all', async () => {
  answers.set('dead', [500]);
  await rule('redrive-rule', 'redrive', [target('dead', { pushRetryStrategy: 'BACKOFF_RETRY' })]);
  const ref = { ruleTenant: 'acme', ruleId: 'redrive-rule', targetId: 1 };
  const events = [];
  for (let i = 0; i < 5; i++) events.push(await publish('redrive'));
  // all five fail through their retries together
  await runDue();
  for (let retry = 1; retry <= 3; retry++) {
    f.clock.advance(20_000);
    await runDue();
  }
  const dlq = () => deadLetters().list(ref, { limit: 50, offset: 0 });
  assert.is((await dlq()).total, 5);

  answers.set('dead', [200]);
  const [one, ...rest] = events.map((e) => e.deliveries[0]!.deliveryId);
  await deadLetters().redrive(ref, one!, ctxOf('acme'), 'redrive-one');
  await runDue();
  assert.is(seen(one!).length, 5, 'four failed attempts, then the redriven one');
  assert.is(seen(one!).at(-1)!.deliveryId, one, 'the same delivery id');
  assert.is((await dlq()).total, 4);
  assert.is((await queries().delivery(one!))!.status, 'succeeded');

  // purge one, then redrive all the others
  await deadLetters().purge(ref, rest[0]!, ctxOf('acme'), 'purge-one');
  await project();
  assert.is((await dlq()).total, 3);
  assert.equal((await types(deliveryStream('acme', rest[0]!))).at(-1), 'DeliveryPurged');
  const redriven = await deadLetters().redriveAll(ref, ctxOf('acme'), 'redrive-all');
  assert.equal(redriven.sort(), rest.slice(1).sort());
  await runDue();
  assert.is((await dlq()).total, 0);
  for (const id of rest.slice(1)) assert.is((await queries().delivery(id))!.status, 'succeeded');
  assert.is(seen(rest[0]!).length, 4, 'the purged one was not called again');

  // purge all: two fresh dead letters
  answers.set('dead', [500]);
  await publish('redrive');
  await publish('redrive');
  await runDue();
  for (let retry = 1; retry <= 3; retry++) {
    f.clock.advance(20_000);
    await runDue();
  }
  assert.is((await dlq()).total, 2);
  assert.is((await deadLetters().purgeAll(ref, ctxOf('acme'), 'purge-all')).length, 2);
  await project();
  assert.is((await dlq()).total, 0);
  // a purged dead letter cannot be redriven
  try {
    await deadLetters().redrive(ref, rest[0]!, ctxOf('acme'), 'redrive-purged');
    assert.unreachable('redriven');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'DEAD_LETTER.NOT_FOUND');
  }
});

it('an attempt whose outcome was never recorded (a crash during the call) is retried with the same delivery id', async () => {
  await rule('crash-rule', 'crash', [target('claims')]);
  const { eventKey, deliveries } = await publish('crash');
  const { deliveryId, stream } = deliveries[0]!;
  // a worker whose process "dies" right after the call: its outcome append never happens
  const crashing: EventStore = {
    ...f.eventStore,
    async append(s, events, expected) {
      if (events.some((e) => e.type === 'DeliverySucceeded')) throw new Error('process killed');
      return f.eventStore.append(s, events, expected);
    },
  };
  await runDue(worker({ eventStore: crashing }));
  assert.is(seen(deliveryId).length, 1, 'the receiver got it');
  assert.equal(await types(stream), ['DeliveryScheduled', 'DeliveryAttemptStarted']);

  // another worker: the lease is held and the attempt may still be running, so it is left alone
  assert.is(await runDue(), 0);
  assert.is(await worker().process(stream), 'in-flight');
  // once the lease is over the attempt is taken for lost: recorded as uncertain, then tried again
  f.clock.advance(30_001);
  assert.is(await runDue(), 1);
  const calls = seen(deliveryId);
  assert.is(calls.length, 2, 'delivered again: at-least-once');
  assert.is.not(calls[0]!.attemptId, calls[1]!.attemptId);
  assert.equal(await types(stream), [
    'DeliveryScheduled',
    'DeliveryAttemptStarted',
    'DeliveryAttemptFailed',
    'DeliveryAttemptStarted',
    'DeliverySucceeded',
  ]);
  const t = await trace(eventKey);
  const uncertain = t.find((e) => e.status === 'failed')!;
  assert.is(uncertain.error, UNCERTAIN_ERROR);
  assert.is(uncertain.uncertain, true);
  assert.is(uncertain.attemptId, calls[0]!.attemptId);
});

it('params: TENANT_PROFILE from the tenant record, ENV_PARAM from the configuration center; one that fails is a failure without a call', async () => {
  const mail = (id: number, account: string): Target => ({
    id,
    typeId: 1,
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: false,
    params: [
      { resourceKey: 'SUBJECT', form: 'CONSTANT', value: 'Order placed' },
      { resourceKey: 'ACCOUNT', form: 'ENV_PARAM', value: account },
      { resourceKey: 'TO', form: 'TENANT_PROFILE', value: 'supportMailGroup' },
      { resourceKey: 'CONTENT', form: 'TEMPLATE', value: '{"n":"$.data.n"}', template: 'Order ${n}' },
    ],
    conversion: { kind: 'complete' },
  });
  await f.config.set({ key: 'mail.sender', value: 'orders@acme.example' }, ctxOf('acme'), 'cfg-sender');
  await rule('mail-rule', 'mail', [mail(1, 'mail.sender'), mail(2, 'mail.unset')]);
  const { eventKey, n, deliveries } = await publish('mail');
  assert.is(await runDue(), 2);
  assert.is(mailCalls.length, 1);
  assert.equal(mailCalls[0]!.params, {
    SUBJECT: 'Order placed',
    ACCOUNT: 'orders@acme.example',
    TO: 'support@acme.example',
    CONTENT: `Order ${n}`,
  });
  assert.is(mailCalls[0]!.publisher?.clientId, 'shop');
  const broken = deliveries.find((d) => d.deliveryId === deliveryIdFor(eventKey, 'acme', 'mail-rule', 2))!;
  assert.equal(await types(broken.stream), [
    'DeliveryScheduled',
    'DeliveryAttemptStarted',
    'DeliveryAttemptFailed',
    'DeliveryDiscarded',
  ]);
  const failed = (await trace(eventKey)).find((e) => e.status === 'failed' && e.targetId === 2)!;
  assert.match(failed.error!, /ACCOUNT: configuration key mail.unset is not set/);
  assert.is(failed.nextAttemptAt, null, 'not retried: retrying cannot help');
});

it('a call that outlives the timeout is aborted and retried; a conversion error is a failed delivery without a call', async () => {
  let aborted = false;
  const hanging: TargetAdapter = {
    typeId: 3,
    deliver: (r) =>
      new Promise(() => {
        r.signal.addEventListener('abort', () => (aborted = true));
      }),
  };
  await rule('slow-rule', 'slow', [
    target('slow'),
    { ...target('slow'), id: 2, conversion: { kind: 'partial', path: '$.data.missing' } },
  ]);
  const { eventKey, deliveries } = await publish('slow');
  assert.is(deliveries.length, 1, 'no delivery for the target whose conversion failed');
  assert.is(await runDue(worker({ adapters: [hanging], timeoutMs: 30 })), 1);
  assert.ok(aborted, 'the adapter saw its signal abort');
  const t = await trace(eventKey);
  const conversion = t.find((e) => e.targetId === 2)!;
  assert.is(conversion.status, 'failed');
  assert.is(conversion.attempt, 0);
  assert.match(conversion.error!, /^conversion: /);
  const timedOut = t.find((e) => e.targetId === 1 && e.status === 'failed')!;
  assert.is(timedOut.error, 'timed out after 30 ms');
  assert.ok(timedOut.nextAttemptAt, 'retried later');
});

test.run();
