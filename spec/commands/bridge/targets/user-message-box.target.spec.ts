import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeliveryOutcome, DeliveryRequest } from '../../../../commands/bridge/delivery.contracts.ts';
import { createUserMessageBoxTarget } from '../../../../commands/bridge/targets/user-message-box.target.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import { userMessageStream } from '../../../../domain/bridge/user-message.decider.ts';
import { manualClock } from '../../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../../infra/core/event-store.port.ts';
import { createSqliteEventStore } from '../../../../infra/sqlite/event-store.sqlite.ts';

const test = suite('user message box target (TypeId 5) on a real event store');
let dir: string;
let eventStore: EventStore;
const clock = manualClock('2026-03-01T10:00:00.000Z');

const event: BridgeEvent = {
  id: 'evt-7',
  source: 'claims:workflow',
  type: 'claims:Claim:Approved',
  dataContentType: 'application/json',
  eventBusName: 'claims',
  data: { claimId: 42, owner: 'alice', watchers: ['bob', 'carol'] },
};

const inboxTarget: Target = {
  id: 5,
  typeId: 5,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params: [],
  conversion: { kind: 'complete' },
};

let seq = 0;
function request(params: Record<string, unknown>, o: Partial<DeliveryRequest> = {}): DeliveryRequest {
  seq++;
  return {
    deliveryId: seq.toString(16).padStart(64, '0'),
    attemptId: `attempt-${seq}`,
    attempt: 1,
    tenant: 'acme',
    ruleTenant: 'acme',
    ruleId: 'claim-notices',
    target: inboxTarget,
    event,
    payload: event,
    params,
    publisher: { tenant: 'acme', subject: 'claims-service-user', clientId: 'claims-app' },
    signal: new AbortController().signal,
    ...o,
  };
}

function failure(outcome: DeliveryOutcome) {
  assert.is(outcome.ok, false, JSON.stringify(outcome));
  return outcome as Extract<DeliveryOutcome, { ok: false }>;
}

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'inbox-target-'));
  eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
});

test.after(async () => {
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const target = () => createUserMessageBoxTarget({ eventStore, clock });

test('typeId is 5', () => {
  assert.is(target().typeId, 5);
});

test('puts the message into the USER_ID user’s inbox: one event on userMessage-<tenant>.<deliveryId>', async () => {
  const req = request({
    USER_ID: 'alice',
    MESSAGE_TYPE: 'NOTICE',
    MESSAGE_LEVEL: 'INFO',
    PRODUCT_LINE: 'motor',
    MESSAGE_CATEGORY: 'claims',
    BODY: { text: 'Claim 42 approved' },
  });
  const outcome = await target().deliver(req);
  assert.equal(outcome, { ok: true, detail: 'in the inbox of alice' });
  const events = await eventStore.readStream(userMessageStream('acme', req.deliveryId));
  assert.is(events.length, 1);
  const e = events[0]!;
  assert.is(e.type, 'UserMessageDelivered');
  assert.equal(e.data, {
    tenant: 'acme',
    messageId: req.deliveryId,
    userId: 'alice',
    messageType: 'NOTICE',
    messageLevel: 'INFO',
    productLine: 'motor',
    messageCategory: 'claims',
    body: { text: 'Claim 42 approved' },
    origin: {
      ruleId: 'claim-notices',
      ruleTenant: 'acme',
      eventId: 'evt-7',
      source: 'claims:workflow',
      type: 'claims:Claim:Approved',
    },
    deliveredAt: '2026-03-01T10:00:00.000Z',
  });
  assert.is(e.metadata.tenant, 'acme');
  assert.is(e.metadata.actor, 'system:bridge-delivery');
  assert.is(e.metadata.causationId, req.attemptId);
});

test('a redelivery of the same delivery (another attempt) appends nothing and succeeds', async () => {
  const req = request({ USER_ID: 'alice', BODY: 'first' });
  assert.ok((await target().deliver(req)).ok);
  clock.advance(60_000);
  const again = await target().deliver({
    ...req,
    attemptId: 'attempt-again',
    attempt: 2,
    params: { USER_ID: 'alice', BODY: 'second' },
  });
  assert.equal(again, { ok: true, detail: 'already in the inbox of alice' });
  const events = await eventStore.readStream(userMessageStream('acme', req.deliveryId));
  assert.is(events.length, 1);
  assert.is((events[0]!.data as { body: unknown }).body, 'first');
});

test('two targets delivering the same delivery at once: one message', async () => {
  const req = request({ USER_ID: 'alice', BODY: 'race' });
  const outcomes = await Promise.all([target().deliver(req), target().deliver({ ...req, attemptId: 'other' })]);
  assert.ok(
    outcomes.every((o) => o.ok),
    JSON.stringify(outcomes),
  );
  assert.is((await eventStore.readStream(userMessageStream('acme', req.deliveryId))).length, 1);
});

test('USER_ID from a JSONPATH matching one value (a one-element array) or a number', async () => {
  const one = request({ USER_ID: ['carol'], BODY: 'x' });
  assert.equal(await target().deliver(one), { ok: true, detail: 'in the inbox of carol' });
  const numeric = request({ USER_ID: 1001, BODY: 'x' });
  assert.equal(await target().deliver(numeric), { ok: true, detail: 'in the inbox of 1001' });
});

test('without USER_ID the publisher’s subject gets the message', async () => {
  const req = request({ BODY: 'to the publisher' });
  assert.equal(await target().deliver(req), { ok: true, detail: 'in the inbox of claims-service-user' });
});

test('no recipient, several recipients or a bad one fail without retry, naming USER_ID', async () => {
  const cases: Array<[DeliveryRequest, RegExp]> = [
    [request({ BODY: 'x' }, { publisher: undefined }), /^USER_ID: no recipient/],
    [request({ USER_ID: ['bob', 'carol'], BODY: 'x' }), /^USER_ID: one user per message, the parameter gave 2 values/],
    [request({ USER_ID: { id: 'bob' }, BODY: 'x' }), /^USER_ID: not a user id/],
    [request({ USER_ID: 'x'.repeat(300), BODY: 'x' }), /USER_ID must be a user id/],
  ];
  for (const [req, error] of cases) {
    const f = failure(await target().deliver(req));
    assert.is(f.retryable, false);
    assert.match(f.error, error);
    assert.is((await eventStore.readStream(userMessageStream('acme', req.deliveryId))).length, 0);
  }
});

test('a store that fails is retryable', async () => {
  const broken: EventStore = {
    ...eventStore,
    readStream: async () => {
      throw new Error('database is locked');
    },
  };
  const f = failure(
    await createUserMessageBoxTarget({ eventStore: broken, clock }).deliver(request({ USER_ID: 'alice', BODY: 'x' })),
  );
  assert.is(f.retryable, true);
  assert.match(f.error, /database is locked/);
});

test.run();
