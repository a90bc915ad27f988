import express from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createEventBridgeClient,
  EventBridgeError,
  type EventReceivedRest,
  localDateTime,
  receivedEventHandler,
} from '../../../http/bridge/sdk/index.ts';
import { startHttpServer } from '../../../http/core/server.ts';
import { ADMIN, type BridgePlatform, startBridgePlatform } from './bridge-harness.ts';

const test = suite('event bridge SDK');
let p: BridgePlatform;

test.before(async () => {
  p = await startBridgePlatform();
  const r = await p.call('POST', `${ADMIN}/buses`, { token: await p.token('acme'), body: { name: 'claims' } });
  assert.is(r.status, 201);
});
test.after(async () => p.stop());

const client = () => {
  let calls = 0;
  const c = createEventBridgeClient({
    baseUrl: `${p.base}/`,
    getToken: async () => {
      calls++;
      return p.token('acme', ['bridge:publish']);
    },
  });
  return { c, calls: () => calls };
};

test('event(): fills id, time (local date-time) and content type', () => {
  const { c } = client();
  const e = c.event({
    eventBusName: 'claims',
    source: 'claims:intake',
    type: 'claims:Claim:Registered',
    data: { claimNo: 'C-1' },
    subject: 'claims:intake:web',
  });
  assert.match(e.id, /^[0-9a-f-]{36}$/);
  assert.match(e.time!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  assert.is(e.dataContentType, 'application/json');
  assert.is(e.subject, 'claims:intake:web');
  assert.is(
    c.event({ eventBusName: 'b', source: 's', type: 't', data: {}, time: new Date(2026, 0, 2, 3, 4, 5, 6) }).time,
    '2026-01-02T03:04:05.006',
  );
  assert.is(localDateTime(new Date(2026, 11, 31, 23, 59, 59, 0)), '2026-12-31T23:59:59.000');
  assert.throws(() => createEventBridgeClient({ baseUrl: p.base }));
});

test('putEvent against the real server; the resent event is a duplicate', async () => {
  const { c, calls } = client();
  const e = c.event({
    eventBusName: 'claims',
    source: 'claims:intake',
    type: 'claims:Claim:Registered',
    data: { claimNo: 'C-1' },
  });
  const first = await c.putEvent(e);
  assert.is(first.duplicate, false);
  assert.match(first.eventId, /^[0-9a-f]{64}$/);
  assert.equal(await c.putEvent(e), { eventId: first.eventId, duplicate: true });
  assert.is(calls(), 2);
});

test('putEvents: one result per event', async () => {
  const { c } = client();
  const ok = c.event({
    eventBusName: 'claims',
    source: 'claims:intake',
    type: 'claims:Claim:Registered',
    data: { claimNo: 'C-2' },
  });
  const wrongBus = c.event({
    eventBusName: 'platform',
    source: 'claims:intake',
    type: 'claims:Claim:Registered',
    data: {},
  });
  const r = await c.putEvents([ok, wrongBus, ok], { idempotencyKey: 'sdk-batch-1' });
  assert.is(r.failedEntryCount, 1);
  assert.is((r.entries[0] as { duplicate: boolean }).duplicate, false);
  assert.is((r.entries[1] as { errorCode: string }).errorCode, 'BUS.FORBIDDEN');
  assert.is((r.entries[2] as { duplicate: boolean }).duplicate, true);
  // the same idempotency key answers the same
  assert.equal(await c.putEvents([ok, wrongBus, ok], { idempotencyKey: 'sdk-batch-1' }), r);
});

test('errors: EventBridgeError with the status and the bridge’s code and details', async () => {
  const { c } = client();
  try {
    await c.putEvent({ ...c.event({ eventBusName: 'claims', source: 's', type: 't', data: {} }), time: 'now' });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, EventBridgeError);
    const e = err as EventBridgeError;
    assert.is(e.status, 400);
    assert.is(e.code, 'EVENT.INVALID');
    assert.equal(
      (e.details as Array<{ field: string }>).map((d) => d.field),
      ['time'],
    );
  }
  const unauthenticated = createEventBridgeClient({ baseUrl: p.base, token: 'not-a-token' });
  try {
    await unauthenticated.putEvent(unauthenticated.event({ eventBusName: 'claims', source: 's', type: 't', data: {} }));
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.is((err as EventBridgeError).status, 401);
  }
});

test('receiver: EventReceivedRest.receivedEvent as an express handler', async () => {
  type Payload = { claimNo: string };
  const received: Payload[] = [];
  const impl: EventReceivedRest<Payload> = {
    receivedEvent(payload) {
      if (payload.claimNo === 'fail') throw new Error('cannot take it');
      received.push(payload);
    },
  };
  const errors: unknown[] = [];
  const app = express();
  app.post('/events', express.json(), receivedEventHandler(impl, { onError: (e) => errors.push(e) }));
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  try {
    const post = (body: string, type = 'application/json') =>
      fetch(`${server.url}/events`, { method: 'POST', headers: { 'content-type': type }, body });
    const ok = await post(JSON.stringify({ claimNo: 'C-9' }));
    assert.is(ok.status, 200);
    assert.equal(await ok.json(), { received: true });
    assert.equal(received, [{ claimNo: 'C-9' }]);
    const failing = await post(JSON.stringify({ claimNo: 'fail' }));
    assert.is(failing.status, 500);
    assert.is(errors.length, 1);
    const notJson = await post('claimNo=C', 'text/plain');
    assert.is(notJson.status, 400);
  } finally {
    await server.close(1000);
  }
});

test.run();
