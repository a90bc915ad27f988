import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeliveryOutcome, DeliveryRequest } from '../../../../commands/bridge/delivery.contracts.ts';
import { createPresetHttpTarget, serviceRegistryFrom } from '../../../../commands/bridge/targets/preset-http.target.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import { RECEIVED_EVENT_PATH, receivedEventHandler } from '../../../../http/bridge/sdk/index.ts';
import { createOutboundHttpClient } from '../../../../infra/net/outbound-http.client.ts';
import { eventually } from '../../../core/eventually.ts';
import { loopbackHttpClient as createHttpClient } from '../../../infra/net/loopback-client.ts';

const test = suite('preset HTTP client target (TypeId 3) against a receiver built with the SDK');

type Received = { service: string; payload: unknown; headers: Record<string, string | string[] | undefined> };
const received: Received[] = [];
/** receivedEvent calls waiting to be released (the "hang" service) */
const held: Array<() => void> = [];
let server: Server;
let base: string;

const event: BridgeEvent = {
  id: 'evt-42',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { orderId: 42, amount: 500 },
};

const httpTarget: Target = {
  id: 1,
  typeId: 3,
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
    deliveryId: `delivery-${seq}`,
    attemptId: `attempt-${seq}`,
    attempt: 1,
    tenant: 'acme',
    ruleTenant: 'acme',
    ruleId: 'big-orders',
    target: httpTarget,
    event,
    payload: event,
    params,
    signal: new AbortController().signal,
    ...o,
  };
}

function failure(outcome: DeliveryOutcome) {
  assert.is(outcome.ok, false, JSON.stringify(outcome));
  return outcome as Extract<DeliveryOutcome, { ok: false }>;
}

test.before(async () => {
  const app = express();
  const receiver = (service: string, strict = true) => [
    express.json({ strict }),
    receivedEventHandler({
      receivedEvent(payload) {
        // the handler has the request only through its payload: headers are recorded by a middleware before
        received.at(-1)!.payload = payload;
        if (service === 'broken') throw new Error('cannot store the event');
        if (service === 'hang') return new Promise<void>((resolve) => held.push(resolve));
      },
    }),
  ];
  const record =
    (service: string): express.RequestHandler =>
    (req, _res, next) => {
      received.push({ service, payload: undefined, headers: req.headers });
      next();
    };
  app.post(RECEIVED_EVENT_PATH, record('claims'), ...receiver('claims', false));
  app.post(`/billing/api${RECEIVED_EVENT_PATH}`, record('billing'), ...receiver('billing'));
  app.post(`/broken${RECEIVED_EVENT_PATH}`, record('broken'), ...receiver('broken'));
  app.post(`/hang${RECEIVED_EVENT_PATH}`, record('hang'), ...receiver('hang'));
  app.post(`/custom/inbound`, record('custom'), ...receiver('custom'));
  for (const status of [408, 429, 404, 401, 503]) {
    app.post(
      `/status${status}${RECEIVED_EVENT_PATH}`,
      record(`status${status}`),
      (_req, res) => void res.status(status).json({ code: `S${status}`, message: 'as asked' }),
    );
  }
  app.post(
    `/slow${RECEIVED_EVENT_PATH}`,
    record('slow'),
    (_req, res) => void res.status(429).set('Retry-After', '30').json({ code: 'S429', message: 'later' }),
  );
  app.post(
    `/moved${RECEIVED_EVENT_PATH}`,
    record('moved'),
    (_req, res) => void res.redirect(307, 'http://elsewhere.invalid/steal'),
  );
  // body-parser's refusals (a strict parser given a JSON string) answer their status, quietly
  app.use(((err, _req, res, _next) => {
    const status = (err as { status?: number }).status ?? 500;
    res
      .status(status)
      .json({ code: 'RECEIVER.ERROR', message: status < 500 ? String((err as Error).message) : 'internal' });
  }) as express.ErrorRequestHandler);
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after(async () => {
  for (const release of held) release();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const registry = () =>
  serviceRegistryFrom({
    claims: base,
    billing: `${base}/billing/api/`, // a path prefix, and a trailing slash
    broken: `${base}/broken`,
    hang: `${base}/hang`,
    moved: `${base}/moved`,
    slow: `${base}/slow`,
    ...Object.fromEntries([408, 429, 404, 401, 503].map((s) => [`status${s}`, `${base}/status${s}`])),
  });
const target = () => createPresetHttpTarget({ http: createHttpClient(), registry: registry() });

test('the SDK receiver path is the target’s default', () => {
  assert.is(RECEIVED_EVENT_PATH, '/eventbridge/receivedEvent');
  assert.is(target().typeId, 3);
});

test('posts the BODY as JSON; receivedEvent gets it, with the delivery and event id headers', async () => {
  const before = received.length;
  const req = request({ SERVICE_NAME: 'claims', BODY: { orderId: 42, customer: { id: 'c-1' } } }, { attempt: 2 });
  const outcome = await target().deliver(req);
  assert.equal(outcome, { ok: true, httpStatus: 200 });
  const got = received[before]!;
  assert.is(got.service, 'claims');
  assert.equal(got.payload, { orderId: 42, customer: { id: 'c-1' } });
  assert.is(got.headers['x-delivery-id'], req.deliveryId);
  assert.is(got.headers['x-event-id'], 'evt-42');
  assert.is(got.headers['x-event-source'], 'shop:checkout');
  assert.is(got.headers['x-event-type'], 'shop:Order:Placed');
  assert.is(got.headers['x-delivery-attempt'], '2');
  assert.match(String(got.headers['content-type']), /^application\/json/);
});

test('ORIGINAL: the complete event arrives; a base URL with a path prefix', async () => {
  const before = received.length;
  const outcome = await target().deliver(request({ SERVICE_NAME: 'billing', BODY: event }));
  assert.ok(outcome.ok);
  assert.is(received[before]!.service, 'billing');
  assert.equal(received[before]!.payload, event);
});

test('a string BODY travels as a JSON string (a receiver with strict: false gets the string)', async () => {
  const before = received.length;
  const outcome = await target().deliver(request({ SERVICE_NAME: 'claims', BODY: 'Order 42 placed' }));
  assert.ok(outcome.ok);
  assert.is(received[before]!.payload, 'Order 42 placed');
});

test('receivedEvent throwing (500) is retryable', async () => {
  const f = failure(await target().deliver(request({ SERVICE_NAME: 'broken', BODY: { a: 1 } })));
  assert.is(f.retryable, true);
  assert.is(f.httpStatus, 500);
  assert.match(f.error, /^broken: HTTP 500/);
});

test('a 400 (the strict receiver refusing a string body) is not retryable', async () => {
  const f = failure(await target().deliver(request({ SERVICE_NAME: 'billing', BODY: 'just text' })));
  assert.is(f.retryable, false);
  assert.is(f.httpStatus, 400);
});

test('408, 429 and 503 are retryable; 401 and 404 are not', async () => {
  for (const [status, retryable] of [
    [408, true],
    [429, true],
    [503, true],
    [401, false],
    [404, false],
  ] as const) {
    const f = failure(await target().deliver(request({ SERVICE_NAME: `status${status}`, BODY: {} })));
    assert.is(f.httpStatus, status);
    assert.is(f.retryable, retryable, `HTTP ${status}`);
    assert.match(f.error, new RegExp(`HTTP ${status}: .*as asked`));
  }
});

test('a redirect is not followed and not retried', async () => {
  const before = received.length;
  const f = failure(await target().deliver(request({ SERVICE_NAME: 'moved', BODY: {} })));
  assert.is(f.retryable, false);
  assert.is(f.httpStatus, 307);
  assert.match(f.error, /redirected to http:\/\/elsewhere.invalid\/steal/);
  assert.is(received.length, before + 1);
});

test('an unknown service fails without retry, naming it, and sends nothing', async () => {
  const before = received.length;
  for (const name of ['payments', 'constructor', '__proto__']) {
    const f = failure(await target().deliver(request({ SERVICE_NAME: name, BODY: {} })));
    assert.is(f.retryable, false);
    assert.match(f.error, new RegExp(`^SERVICE_NAME: no service "${name}" in the service registry`));
  }
  const empty = failure(await target().deliver(request({ SERVICE_NAME: '  ', BODY: {} })));
  assert.is(empty.retryable, false);
  assert.is(received.length, before);
});

test('the per-call timeout (the request’s AbortSignal) is retryable', async () => {
  const controller = new AbortController();
  const before = received.length;
  const pending = target().deliver(request({ SERVICE_NAME: 'hang', BODY: { a: 1 } }, { signal: controller.signal }));
  // the receiver got it and is still working on it when the time is up
  await eventually(() => held.length > 0 && received.length > before, {
    what: 'the receiver holds the request',
    intervalMs: 1,
  });
  controller.abort(new DOMException('timed out after 5000 ms', 'TimeoutError'));
  const f = failure(await pending);
  assert.is(f.retryable, true);
  assert.match(f.error, /^hang: timed out/);
  assert.is(f.httpStatus, undefined);
});

test('a service that does not answer at all (connection refused) is retryable', async () => {
  // a port that was free a moment ago (port 1 and other "bad ports" are refused by fetch itself)
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const refused = createPresetHttpTarget({
    http: createHttpClient(),
    registry: serviceRegistryFrom({ gone: `http://127.0.0.1:${port}` }),
  });
  const f = failure(await refused.deliver(request({ SERVICE_NAME: 'gone', BODY: {} })));
  assert.is(f.retryable, true);
  assert.match(f.error, /^gone: .*ECONNREFUSED/);
});

test('receivePath can be configured', async () => {
  const custom = createPresetHttpTarget({
    http: createHttpClient(),
    registry: serviceRegistryFrom({ custom: base }),
    receivePath: 'custom/inbound',
  });
  const before = received.length;
  assert.ok((await custom.deliver(request({ SERVICE_NAME: 'custom', BODY: [1, 2] }))).ok);
  assert.equal(received[before]!.payload, [1, 2]);
});

test('non-ASCII ids are percent-encoded in headers instead of breaking the request', async () => {
  const before = received.length;
  const outcome = await target().deliver(
    request({ SERVICE_NAME: 'claims', BODY: {} }, { event: { ...event, id: 'évt\r\nX-Injected: 1' } }),
  );
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.is(received[before]!.headers['x-event-id'], '%C3%A9vt%0D%0AX-Injected: 1');
  assert.is(received[before]!.headers['x-injected'], undefined);
});

test('a 429 with Retry-After: retryable, and the outcome carries the wait; the delivery id is the Idempotency-Key', async () => {
  const before = received.length;
  const req = request({ SERVICE_NAME: 'slow', BODY: {} });
  const f = failure(await target().deliver(req));
  assert.equal([f.retryable, f.httpStatus, f.retryAfterMs], [true, 429, 30_000]);
  assert.is(received[before]!.headers['idempotency-key'], req.deliveryId);
  assert.is(
    failure(await target().deliver(request({ SERVICE_NAME: 'status429', BODY: {} }))).retryAfterMs,
    undefined,
    'no Retry-After, no wait',
  );
});

test('a service on an address the SSRF guard refuses (not in OUTBOUND_ALLOW) fails without retry, saying why', async () => {
  const before = received.length;
  const guarded = createPresetHttpTarget({ http: createOutboundHttpClient(), registry: registry() });
  const f = failure(await guarded.deliver(request({ SERVICE_NAME: 'claims', BODY: {} })));
  assert.is(f.retryable, false);
  assert.is(f.error, 'claims: destination refused: 127.0.0.1 is a loopback address (allow it with OUTBOUND_ALLOW)');
  assert.is(received.length, before, 'nothing was sent');
});

test.run();
