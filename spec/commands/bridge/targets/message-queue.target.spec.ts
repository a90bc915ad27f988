// The platform message-queue target (TypeId 2) and the consumer groups over real SQLite stores: the topic
// log, idempotency per delivery id, visibility, leases, skipping what an app cannot see, expiry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeliveryOutcome, DeliveryRequest } from '../../../../commands/bridge/delivery.contracts.ts';
import { createMqConsumers } from '../../../../commands/bridge/mq-consumers.commands.ts';
import { createMqTopics } from '../../../../commands/bridge/mq-topics.store.ts';
import { createMessageQueueTarget } from '../../../../commands/bridge/targets/message-queue.target.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import { isDomainError } from '../../../../domain/core/domain-error.ts';
import { manualClock } from '../../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../../infra/sqlite/read-store.sqlite.ts';
import { eventually } from '../../../core/eventually.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mq-target-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const topics = createMqTopics({ eventStore, clock });
const target = createMessageQueueTarget({ topics });
const consumers = createMqConsumers({ eventStore, readStore, clock, topics, scanLimit: 5 });

const event: BridgeEvent = {
  id: 'e1',
  source: 'claims:core',
  type: 'claims:Claim:Created',
  dataContentType: 'application/json',
  eventBusName: 'claims',
  data: { claimId: 'C1' },
};
const mqTarget: Target = {
  id: 2,
  typeId: 2,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params: [],
  conversion: { kind: 'complete' },
};
let seq = 0;
const request = (params: Record<string, unknown>, o: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  deliveryId: `dlv-${++seq}`,
  attemptId: `att-${seq}`,
  attempt: 1,
  tenant: 'acme',
  ruleTenant: 'acme',
  ruleId: 'r1',
  target: mqTarget,
  event,
  payload: event,
  params,
  signal: new AbortController().signal,
  ...o,
});
const app = (apps: string, body: unknown = { n: seq }) =>
  request({ SEND_TYPE: 'APP', APP_NAME: apps, TOPIC: 'claims', BODY: body });
const broadcast = (body: unknown = { n: seq }) => request({ SEND_TYPE: 'BROADCAST', TOPIC: 'claims', BODY: body });
const group = (appName: string, name = 'default') => ({ tenant: 'acme', app: appName, group: name, topic: 'claims' });
const failed = (o: DeliveryOutcome) => {
  assert.is(o.ok, false, JSON.stringify(o));
  return o as Extract<DeliveryOutcome, { ok: false }>;
};

const test = suite('message-queue target and consumer groups');
test.after(async () => {
  await consumers.close();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('enqueue: offsets in order; the same delivery id twice appends one message', async () => {
  const first = app('claims-svc, audit-svc', { claimId: 'C1' });
  assert.equal(await target.deliver(first), { ok: true, detail: 'topic claims offset 0' });
  assert.equal(await target.deliver({ ...first, attemptId: 'retry', attempt: 2 }), {
    ok: true,
    detail: 'topic claims offset 0 (already enqueued)',
  });
  assert.equal(await target.deliver(broadcast({ all: true })), { ok: true, detail: 'topic claims offset 1' });
  const stored = await topics.read('acme', 'claims', -1, 10);
  assert.equal(
    stored.map((m) => [m.offset, m.sendType, m.apps, m.body]),
    [
      [0, 'APP', ['claims-svc', 'audit-svc'], { claimId: 'C1' }],
      [1, 'BROADCAST', [], { all: true }],
    ],
  );
  assert.is(stored[0]!.deliveryId, first.deliveryId);
  assert.is(await topics.head('acme', 'claims'), 1);
  assert.is(await topics.head('globex', 'claims'), -1, 'topics are per tenant');
});

test('bad parameters fail without retry, naming them', async () => {
  assert.match(
    failed(await target.deliver(request({ SEND_TYPE: 'MULTICAST', TOPIC: 't', BODY: 1 }))).error,
    /SEND_TYPE/,
  );
  assert.match(failed(await target.deliver(request({ SEND_TYPE: 'APP', TOPIC: 't', BODY: 1 }))).error, /APP_NAME/);
  assert.match(
    failed(await target.deliver(request({ SEND_TYPE: 'APP', APP_NAME: ' , ', TOPIC: 't', BODY: 1 }))).error,
    /APP_NAME/,
  );
  assert.match(
    failed(await target.deliver(request({ SEND_TYPE: 'BROADCAST', TOPIC: { x: 1 }, BODY: 1 }))).error,
    /TOPIC/,
  );
  const bad = failed(await target.deliver(request({ SEND_TYPE: 'BROADCAST', TOPIC: 'a/b', BODY: 1 })));
  assert.ok(!bad.retryable && /TOPIC/.test(bad.error), bad.error);
  assert.is(
    failed(await target.deliver(request({ SEND_TYPE: 'BROADCAST', TOPIC: 't', BODY: 'x'.repeat(300 * 1024) })))
      .retryable,
    false,
  );
});

test('pull: visible messages under a lease; the group’s other consumers get nothing meanwhile; ack commits', async () => {
  const claims = await consumers.pull({ ...group('claims-svc'), max: 10, waitMs: 0 });
  assert.equal(
    claims.messages.map((m) => m.offset),
    [0, 1],
  );
  assert.equal([claims.lease?.from, claims.lease?.to], [0, 1]);
  assert.equal(
    (await consumers.pull({ ...group('claims-svc'), max: 10, waitMs: 0 })).messages,
    [],
    'leased to the first consumer',
  );
  assert.equal(await consumers.ack({ ...group('claims-svc'), offset: 1 }), { committedOffset: 1, leaseReleased: true });
  assert.equal((await consumers.pull({ ...group('claims-svc'), max: 10, waitMs: 0 })).messages, []);
  // billing sees the broadcast only; audit both
  assert.equal(
    (await consumers.pull({ ...group('billing-svc'), max: 10, waitMs: 0 })).messages.map((m) => m.offset),
    [1],
  );
  assert.equal(
    (await consumers.pull({ ...group('audit-svc'), max: 1, waitMs: 0 })).messages.map((m) => m.offset),
    [0],
  );
});

test('an unacknowledged lease expires: the messages come again (at least once)', async () => {
  assert.equal((await consumers.pull({ ...group('audit-svc'), max: 10, waitMs: 0 })).messages, [], 'still leased');
  clock.advance(31_000);
  const again = await consumers.pull({ ...group('audit-svc'), max: 10, waitMs: 0 });
  assert.equal(
    again.messages.map((m) => m.offset),
    [0, 1],
  );
  await consumers.ack({ ...group('audit-svc'), offset: 0 });
  const status = await consumers.status(group('audit-svc'));
  assert.is(status.committedOffset, 0);
  assert.ok(status.lease !== null, 'an ack short of the leased range keeps the lease');
});

test('messages an app cannot see are skipped and committed past, beyond one scan', async () => {
  for (let i = 0; i < 12; i++) await target.deliver(app('someone-else'));
  await target.deliver(broadcast({ last: true }));
  const head = await topics.head('acme', 'claims');
  // scanLimit 5: the pull keeps scanning past the invisible ones
  const r = await consumers.pull({ ...group('claims-svc'), max: 10, waitMs: 0 });
  assert.equal(
    r.messages.map((m) => m.body),
    [{ last: true }],
  );
  await consumers.ack({ ...group('claims-svc'), offset: r.lease!.to });
  assert.is((await consumers.status(group('claims-svc'))).committedOffset, head);
  for (let i = 0; i < 3; i++) await target.deliver(app('someone-else'));
  const none = await consumers.pull({ ...group('claims-svc'), max: 10, waitMs: 0 });
  assert.equal(none.messages, []);
  assert.is(none.committedOffset, head + 3, 'invisible messages with nothing after them are committed at once');
});

test('ack: forwards only, never beyond the newest message, a group name must be sane', async () => {
  const head = await topics.head('acme', 'claims');
  assert.equal(await consumers.ack({ ...group('claims-svc'), offset: 0 }), {
    committedOffset: head,
    leaseReleased: false,
  });
  for (const bad of [
    () => consumers.ack({ ...group('claims-svc'), offset: head + 1 }),
    () => consumers.pull({ ...group('claims-svc', 'bad/group'), max: 1, waitMs: 0 }),
  ]) {
    await bad().then(
      () => assert.unreachable(),
      (err: unknown) => assert.ok(isDomainError(err) && err.status === 400, String(err)),
    );
  }
});

test('long poll: a waiting pull returns when a message arrives', async () => {
  const head = await topics.head('acme', 'claims');
  await consumers.ack({ ...group('billing-svc'), offset: head });
  const pending = consumers.pull({ ...group('billing-svc'), max: 10, waitMs: 30_000 });
  await eventually(() => consumers.waiting() > 0, 'the pull waits');
  await target.deliver(broadcast({ woke: true }));
  const r = await pending;
  assert.equal(
    r.messages.map((m) => m.body),
    [{ woke: true }],
  );
});

test.run();
