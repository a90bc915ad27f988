// The API destination target (TypeId 4) against a real express receiver on 127.0.0.1: each connection
// kind's header exactly, the URL assembled from ${param} values, query string, header and body params,
// X-Delivery-Id, the outcome classes (2xx, 5xx, 4xx, timeout), OAuth token renewal after a 401, and the
// caller's token never in an outcome. Real SQLite stores behind destinations, connections and the
// configuration center.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createApiDestinationCommands,
  createApiDestinationReader,
} from '../../../../commands/bridge/api-destinations.commands.ts';
import { createConfigCenter, createConfigCommands } from '../../../../commands/bridge/config-center.commands.ts';
import { createConnectionCommands, createConnectionReader } from '../../../../commands/bridge/connections.commands.ts';
import type {
  DeliveryOutcome,
  DeliveryRequest,
  TargetAdapter,
} from '../../../../commands/bridge/delivery.contracts.ts';
import { createOAuthTokenCache } from '../../../../commands/bridge/oauth-token.cache.ts';
import { createApiDestinationTarget } from '../../../../commands/bridge/targets/api-destination.target.ts';
import type { HttpMethodName } from '../../../../domain/bridge/api-destination.decider.ts';
import type { UrlTemplate } from '../../../../domain/bridge/destination-url.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import { manualClock } from '../../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../../infra/sqlite/event-store.sqlite.ts';
import { loopbackHttpClient } from '../../../infra/net/loopback-client.ts';

const SECRET = 'spec-key-encryption-secret-0123456789abcdef';
const CALLER_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.caller-token-payload.signature-xyz';
const dir = mkdtempSync(path.join(tmpdir(), 'api-destination-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const connections = createConnectionCommands({ eventStore, clock, secret: SECRET });
const destinations = createApiDestinationCommands({ eventStore, clock, secret: SECRET });
const config = createConfigCommands({ eventStore, clock });
const http = loopbackHttpClient();
const oauth = createOAuthTokenCache({ http, clock });
const target: TargetAdapter = createApiDestinationTarget({
  http,
  destinations: createApiDestinationReader({ eventStore, secret: SECRET, clock }),
  connections: createConnectionReader({ eventStore, secret: SECRET }),
  oauth,
  configCenter: createConfigCenter({ eventStore }),
});

// ---- the receiver: records every request; the path says how to answer ----
type Received = {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};
const received: Received[] = [];
let tokenFetches = 0;
let refusedToken = '';
let arrived: (() => void) | undefined;
const app = express();
app.post('/oauth/token', express.urlencoded({ extended: false }), (_req, res) => {
  tokenFetches++;
  res.json({ access_token: `oauth-token-${tokenFetches}`, token_type: 'Bearer', expires_in: 3600 });
});
app.use(express.text({ type: () => true }));
app.all('/{*rest}', (req, res) => {
  received.push({
    method: req.method,
    path: req.path,
    query: { ...(req.query as Record<string, string>) },
    headers: { ...req.headers },
    body: typeof req.body === 'string' ? req.body : '',
  });
  arrived?.();
  const status = /^\/status\/(\d{3})/.exec(req.path);
  if (req.path.startsWith('/hang')) return; // never answers: the delivery's signal ends it
  if (req.path.startsWith('/oauth-protected') && req.headers.authorization === `Bearer ${refusedToken}`)
    return void res.status(401).json({ error: 'invalid_token' });
  // a careless receiver that echoes what it was sent, credentials included
  if (req.path.startsWith('/echo'))
    return void res.status(Number(status?.[1] ?? 400)).json({ youSent: req.headers.authorization });
  res.status(Number(status?.[1] ?? 200)).json({ ok: true });
});
const server: Server = createServer(app);
let base = '';

const event: BridgeEvent = {
  id: 'evt-1',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { orderId: 'O 17/b', region: 'eu', token: 'token-from-the-event', amount: 120 },
};
const apiTarget: Target = {
  id: 4,
  typeId: 4,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: true,
  params: [],
  conversion: { kind: 'complete' },
};

let seq = 0;
function request(params: Record<string, unknown>, o: Partial<DeliveryRequest> = {}): DeliveryRequest {
  seq++;
  return {
    deliveryId: `dlv-${seq}`,
    attemptId: `att-${seq}`,
    attempt: 1,
    tenant: 'acme',
    ruleTenant: 'acme',
    ruleId: 'r1',
    target: apiTarget,
    event,
    payload: { orderId: 'O 17/b', amount: 120 },
    params,
    signal: new AbortController().signal,
    ...o,
  };
}
const failure = (outcome: DeliveryOutcome) => {
  assert.is(outcome.ok, false, JSON.stringify(outcome));
  return outcome as Extract<DeliveryOutcome, { ok: false }>;
};
const ctx = (tenant = 'acme') => ({ tenant, actor: `spec@${tenant}` });
let n = 0;
async function destination(
  name: string,
  o: { url: string | UrlTemplate; method?: HttpMethodName; connection?: string; timeoutMs?: number; tenant?: string },
) {
  const urlTemplate = typeof o.url === 'string' ? { url: o.url, variables: {} } : o.url;
  await destinations.create(
    {
      name,
      urlTemplate,
      method: o.method ?? 'POST',
      ...(o.connection !== undefined && { connection: o.connection }),
      ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
    },
    ctx(o.tenant),
    `dest-${++n}`,
  );
}
const last = () => received[received.length - 1]!;

const test = suite('API destination target (TypeId 4) against a real receiver');

test.before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const conn = (name: string, auth: Record<string, unknown>, tenant = 'acme') =>
    connections.create({ name, auth }, ctx(tenant), `conn-${name}-${tenant}`);
  await conn('basic', { kind: 'BASIC', username: 'svc-user', password: 'pa:ss wörd' });
  await conn('caller', { kind: 'BEARER', source: 'caller' });
  await conn('fixed', { kind: 'BEARER', source: 'fixed', token: 'fixed-token-123' });
  await conn('config', { kind: 'BEARER', source: 'config', key: '${alert.token}' });
  await conn('jsonpath', { kind: 'BEARER', source: 'jsonpath', path: '$.data.token' });
  await conn('oauth', {
    kind: 'OAUTH_CLIENT_CREDENTIALS',
    tokenUrl: `${base}/oauth/token`,
    clientId: 'bridge',
    clientSecret: 'oauth-client-secret',
  });
  await conn('apikey', { kind: 'API_KEY', headerName: 'X-Api-Key', value: 'key-value-42' });
  await config.set({ key: 'alert.token', value: 'config-token-abc' }, ctx(), 'cfg-1');
  await config.set({ key: 'orders.base', value: base }, ctx(), 'cfg-2');
  for (const c of ['basic', 'caller', 'fixed', 'config', 'jsonpath', 'oauth', 'apikey'])
    await destination(`to-${c}`, { url: `${base}/auth/${c}`, connection: c });
});
test.after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('Basic: Authorization exactly "Basic base64(username:password)"; X-Delivery-Id; the payload as JSON', async () => {
  const r = request({ NAME: 'to-basic' });
  const outcome = await target.deliver(r);
  assert.equal(outcome, { ok: true, httpStatus: 200, detail: `POST ${base}/auth/basic → 200` });
  const got = last();
  assert.is(got.headers.authorization, `Basic ${Buffer.from('svc-user:pa:ss wörd', 'utf8').toString('base64')}`);
  assert.is(got.headers['x-delivery-id'], r.deliveryId);
  assert.is(got.headers['x-delivery-attempt'], '1');
  assert.is(got.headers['content-type'], 'application/json');
  assert.equal(JSON.parse(got.body), { orderId: 'O 17/b', amount: 120 });
});

test('Bearer: the caller’s token, a fixed token, one from the configuration center, one from the event', async () => {
  assert.is((await target.deliver(request({ NAME: 'to-caller' }, { callerToken: CALLER_TOKEN }))).ok, true);
  assert.is(last().headers.authorization, `Bearer ${CALLER_TOKEN}`);
  assert.is((await target.deliver(request({ NAME: 'to-fixed' }))).ok, true);
  assert.is(last().headers.authorization, 'Bearer fixed-token-123');
  assert.is((await target.deliver(request({ NAME: 'to-config' }))).ok, true);
  assert.is(last().headers.authorization, 'Bearer config-token-abc');
  assert.is((await target.deliver(request({ NAME: 'to-jsonpath' }))).ok, true);
  assert.is(last().headers.authorization, 'Bearer token-from-the-event');
  // the caller's token is kept only while the delivery runs: a later attempt without it fails for good
  const before = received.length;
  const f = failure(await target.deliver(request({ NAME: 'to-caller' })));
  assert.is(f.retryable, false);
  assert.match(f.error, /caller's token is not available/);
  assert.is(received.length, before, 'nothing was sent');
});

test('API key: the configured header, exactly', async () => {
  assert.is((await target.deliver(request({ NAME: 'to-apikey' }))).ok, true);
  assert.is(last().headers['x-api-key'], 'key-value-42');
  assert.is(last().headers.authorization, undefined);
});

test('OAuth client credentials: the fetched token; a 401 drops it (retryable) and the next attempt fetches a new one', async () => {
  await destination('oauth-protected', { url: `${base}/oauth-protected`, connection: 'oauth' });
  assert.is((await target.deliver(request({ NAME: 'to-oauth' }))).ok, true);
  assert.is(last().headers.authorization, 'Bearer oauth-token-1');
  assert.is((await target.deliver(request({ NAME: 'oauth-protected' }))).ok, true);
  assert.is(tokenFetches, 1, 'cached between deliveries');
  refusedToken = 'oauth-token-1';
  const f = failure(await target.deliver(request({ NAME: 'oauth-protected' })));
  assert.is(f.retryable, true);
  assert.is(f.httpStatus, 401);
  assert.is((await target.deliver(request({ NAME: 'oauth-protected' }))).ok, true);
  assert.is(last().headers.authorization, 'Bearer oauth-token-2');
  assert.is(tokenFetches, 2);
});

test('URL from ${param} values (configuration and JSONPath), query string, header and body params', async () => {
  await destination('assembled', {
    url: {
      url: '${base}/orders/${region}/${orderId}',
      variables: { base: 'config:orders.base', region: '$.data.region', orderId: '$.data.orderId' },
    },
    method: 'PUT',
    connection: 'apikey',
  });
  const r = request({
    NAME: 'assembled',
    // TEMPLATE output: a parsed JSON value, or JSON as text
    QUERY_STRING_PARAMS: { amount: 120, tags: ['a', 'b'], note: 'x&y' },
    HEADER_PARAMS: '{"X-Order-Region":"eu","X-Trace":"t-1"}',
    BODY_PARAMS: { order: 'O 17/b', total: 120 },
  });
  const outcome = await target.deliver(r);
  assert.is(outcome.ok, true, JSON.stringify(outcome));
  const got = last();
  assert.is(got.method, 'PUT');
  assert.is(got.path, '/orders/eu/O%2017%2Fb');
  assert.equal(got.query, { amount: '120', tags: ['a', 'b'], note: 'x&y' });
  assert.is(got.headers['x-order-region'], 'eu');
  assert.is(got.headers['x-trace'], 't-1');
  assert.is(got.headers['x-api-key'], 'key-value-42');
  assert.is(got.headers['x-delivery-id'], r.deliveryId);
  assert.equal(JSON.parse(got.body), { order: 'O 17/b', total: 120 });
  // the answer names the URL without its query string
  assert.is((outcome as { detail: string }).detail, `PUT ${base}/orders/eu/O%2017%2Fb → 200`);
});

test('text bodies, form bodies, GET without a body', async () => {
  await destination('plain', { url: `${base}/plain` });
  await target.deliver(request({ NAME: 'plain', BODY_PARAMS: 'hello ${not-a-template}' }));
  assert.is(last().headers['content-type'], 'text/plain; charset=utf-8');
  assert.is(last().body, 'hello ${not-a-template}');
  await target.deliver(
    request({
      NAME: 'plain',
      HEADER_PARAMS: { 'Content-Type': 'application/x-www-form-urlencoded' },
      BODY_PARAMS: { a: '1 2', b: true },
    }),
  );
  assert.is(last().body, 'a=1+2&b=true');
  await destination('getter', { url: `${base}/getter`, method: 'GET' });
  await target.deliver(request({ NAME: 'getter', QUERY_STRING_PARAMS: '?q=1' }));
  assert.is(last().method, 'GET');
  assert.is(last().body, '');
  assert.equal(last().query, { q: '1' });
});

test('outcomes: 500 and 429 retryable, 400 not, a redirect not followed, a timeout retryable', async () => {
  for (const [status, retryable] of [
    [500, true],
    [503, true],
    [429, true],
    [408, true],
    [400, false],
    [404, false],
    [302, false],
  ] as const) {
    await destination(`status-${status}`, { url: `${base}/status/${status}` });
    const f = failure(await target.deliver(request({ NAME: `status-${status}` })));
    assert.is(f.retryable, retryable, `${status}`);
    assert.is(f.httpStatus, status);
  }
  await destination('hang', { url: `${base}/hang` });
  const abort = new AbortController();
  const got = new Promise<void>((r) => (arrived = r));
  const pending = target.deliver(request({ NAME: 'hang' }, { signal: abort.signal }));
  await got;
  arrived = undefined;
  abort.abort(new DOMException('timed out', 'TimeoutError')); // the engine's 5 s timeout, without waiting 5 s
  const f = failure(await pending);
  assert.is(f.retryable, true);
  assert.match(f.error, /timeout/);
});

test('the caller’s token and connection secrets never appear in an outcome, even when the receiver echoes them', async () => {
  await destination('echo-caller', { url: `${base}/echo/400`, connection: 'caller' });
  const f = failure(await target.deliver(request({ NAME: 'echo-caller' }, { callerToken: CALLER_TOKEN })));
  assert.is(last().headers.authorization, `Bearer ${CALLER_TOKEN}`, 'it was sent');
  assert.not.ok(JSON.stringify(f).includes(CALLER_TOKEN), JSON.stringify(f));
  assert.not.ok(JSON.stringify(f).includes('caller-token-payload'));
  assert.match(f.error, /\*\*\*\*\*\*/);
  await destination('echo-basic', { url: `${base}/echo/500`, connection: 'basic' });
  const g = failure(await target.deliver(request({ NAME: 'echo-basic' }, { callerToken: CALLER_TOKEN })));
  assert.not.ok(
    JSON.stringify(g).includes(Buffer.from('svc-user:pa:ss wörd', 'utf8').toString('base64')),
    JSON.stringify(g),
  );
  // a successful outcome says nothing of them either
  const ok = await target.deliver(request({ NAME: 'to-caller' }, { callerToken: CALLER_TOKEN }));
  assert.not.ok(JSON.stringify(ok).includes(CALLER_TOKEN));
});

test('no retry for what a retry cannot fix: unknown destination, missing connection, bad params, a URL that does not render', async () => {
  const none = failure(await target.deliver(request({ NAME: 'nope' })));
  assert.is(none.retryable, false);
  assert.match(none.error, /no API destination nope/);
  assert.is(failure(await target.deliver(request({}))).retryable, false);
  const bad = failure(await target.deliver(request({ NAME: 'plain', HEADER_PARAMS: { Host: 'evil.example' } })));
  assert.ok(!bad.retryable && /Host is set by the platform/.test(bad.error), bad.error);
  assert.is(failure(await target.deliver(request({ NAME: 'plain', HEADER_PARAMS: '"just text"' }))).retryable, false);
  await destination('holes', { url: { url: `${base}/x/\${missing}`, variables: { missing: '$.data.nothing' } } });
  const hole = failure(await target.deliver(request({ NAME: 'holes' })));
  assert.ok(!hole.retryable && /matched nothing/.test(hole.error), hole.error);
  // another tenant's destination is not found
  assert.is(
    failure(await target.deliver(request({ NAME: 'to-basic' }, { tenant: 'globex', ruleTenant: 'globex' }))).retryable,
    false,
  );
});

test('a platform rule: the platform’s destination, the event tenant’s configuration first', async () => {
  await config.set({ key: 'orders.base', value: 'http://127.0.0.1:9' }, ctx('platform'), 'cfg-p');
  await destination('platform-orders', {
    tenant: 'platform',
    url: { url: '${base}/platform/${orderId}', variables: { base: 'config:orders.base', orderId: '$.data.amount' } },
  });
  const outcome = await target.deliver(
    request({ NAME: 'platform-orders' }, { tenant: 'acme', ruleTenant: 'platform' }),
  );
  assert.is(outcome.ok, true, JSON.stringify(outcome));
  assert.is(last().path, '/platform/120');
});

test.run();
