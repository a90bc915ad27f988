// The API destination target (TypeId 4) through the real outbound HTTP client, against a real receiver on
// 127.0.0.1 that verifies Standard Webhooks signatures with the reference implementation: deliveries
// signed with the destination's secret (webhook-id = the delivery id), both secrets during a rotation's
// overlap then only the new one, Retry-After passed on, and destinations the SSRF guard refuses (the URL,
// or the OAuth token URL) failing without retry with a clear error. Real SQLite stores.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createApiDestinationCommands,
  createApiDestinationReader,
} from '../../../../commands/bridge/api-destinations.commands.ts';
import { createConfigCenter } from '../../../../commands/bridge/config-center.commands.ts';
import { createConnectionCommands, createConnectionReader } from '../../../../commands/bridge/connections.commands.ts';
import type {
  DeliveryOutcome,
  DeliveryRequest,
  TargetAdapter,
} from '../../../../commands/bridge/delivery.contracts.ts';
import { createOAuthTokenCache } from '../../../../commands/bridge/oauth-token.cache.ts';
import { createApiDestinationTarget } from '../../../../commands/bridge/targets/api-destination.target.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import { manualClock } from '../../../../infra/core/clock.port.ts';
import type { HttpClient } from '../../../../infra/core/http-client.port.ts';
import { createOutboundHttpClient } from '../../../../infra/net/outbound-http.client.ts';
import { createSqliteEventStore } from '../../../../infra/sqlite/event-store.sqlite.ts';
import { loopbackHttpClient } from '../../../infra/net/loopback-client.ts';

const SECRET = 'spec-key-encryption-secret-0123456789abcdef';
const dir = mkdtempSync(path.join(tmpdir(), 'api-destination-outbound-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const destinations = createApiDestinationCommands({ eventStore, clock, secret: SECRET });
const connections = createConnectionCommands({ eventStore, clock, secret: SECRET });
const loopback = loopbackHttpClient();
const guarded = createOutboundHttpClient(); // nothing allowlisted: what production does with OUTBOUND_ALLOW unset
const targetWith = (http: HttpClient): TargetAdapter =>
  createApiDestinationTarget({
    http,
    destinations: createApiDestinationReader({ eventStore, secret: SECRET, clock }),
    connections: createConnectionReader({ eventStore, secret: SECRET }),
    oauth: createOAuthTokenCache({ http, clock }),
    configCenter: createConfigCenter({ eventStore }),
  });
const target = targetWith(loopback);

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
const app = express();
app.use(express.text({ type: () => true }));
app.all('/{*rest}', (req, res) => {
  received.push({ path: req.path, headers: { ...req.headers }, body: typeof req.body === 'string' ? req.body : '' });
  if (req.path === '/busy') return void res.status(429).set('Retry-After', '45').json({ error: 'slow down' });
  if (req.path === '/maintenance') return void res.status(503).set('Retry-After', '120').end();
  res.status(200).json({ ok: true });
});
const server: Server = createServer(app);
let base = '';

const event: BridgeEvent = {
  id: 'evt-1',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { orderId: 'O-1' },
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
const request = (name: string): DeliveryRequest => {
  seq++;
  return {
    deliveryId: `${String(seq).padStart(4, '0')}${'ab'.repeat(30)}`,
    attemptId: `att-${seq}`,
    attempt: 1,
    tenant: 'acme',
    ruleTenant: 'acme',
    ruleId: 'r1',
    target: apiTarget,
    event,
    payload: { orderId: 'O-1', total: 99.5 },
    params: { NAME: name },
    signal: new AbortController().signal,
  };
};
const ctx = { tenant: 'acme', actor: 'spec@acme' };
let n = 0;
const create = async (name: string, url: string, connection?: string) =>
  (
    await destinations.create(
      { name, urlTemplate: { url, variables: {} }, method: 'POST', ...(connection !== undefined && { connection }) },
      ctx,
      `d-${++n}`,
    )
  ).signingSecret!;
const failure = (o: DeliveryOutcome) => {
  assert.is(o.ok, false, JSON.stringify(o));
  return o as Extract<DeliveryOutcome, { ok: false }>;
};
/** the receiver's check, by the reference implementation */
const verifies = (secret: string, r: Received): boolean => {
  try {
    const h = r.headers;
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(h['webhook-id']),
      'webhook-timestamp': String(h['webhook-timestamp']),
      'webhook-signature': String(h['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
};

const test = suite('API destination target: signed deliveries, Retry-After, refused destinations');

test.before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(async () => {
  await loopback.close();
  await guarded.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a delivery is signed with the destination’s secret: webhook-id and Idempotency-Key are the delivery id', async () => {
  const secret = await create('signed', `${base}/in`);
  const r = request('signed');
  assert.equal(await target.deliver(r), { ok: true, httpStatus: 200, detail: `POST ${base}/in → 200` });
  const got = received.at(-1)!;
  assert.is(got.headers['webhook-id'], r.deliveryId);
  assert.is(got.headers['idempotency-key'], r.deliveryId);
  assert.is(got.headers['x-delivery-id'], r.deliveryId);
  assert.ok(verifies(secret, got), 'verifies with the secret shown at creation');
  assert.not.ok(verifies(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got), 'not with another');
  assert.equal(JSON.parse(got.body), { orderId: 'O-1', total: 99.5 });
});

test('rotation: during the overlap both secrets sign (either verifies), after it only the new one', async () => {
  const first = await create('rotating', `${base}/rotating`);
  const rotation = await destinations.rotateSigningSecret('rotating', undefined, ctx, 'rot-1');
  const second = rotation.signingSecret!;
  assert.is(rotation.previousValidUntil, '2026-03-02T10:00:00.000Z');
  assert.ok((await target.deliver(request('rotating'))).ok);
  const during = received.at(-1)!;
  assert.is(String(during.headers['webhook-signature']).split(' ').length, 2);
  assert.ok(verifies(first, during), 'a receiver still on the previous secret accepts it');
  assert.ok(verifies(second, during), 'a receiver already on the new secret accepts it');
  clock.advance(24 * 3600 * 1000 + 1);
  assert.ok((await target.deliver(request('rotating'))).ok);
  const after = received.at(-1)!;
  assert.is(String(after.headers['webhook-signature']).split(' ').length, 1);
  assert.ok(verifies(second, after));
  assert.not.ok(verifies(first, after), 'the previous secret no longer signs');
  // a replay of the rotation (same command id) makes no new secret and shows none
  const replay = await destinations.rotateSigningSecret('rotating', undefined, ctx, 'rot-1');
  assert.equal([replay.replayed, replay.signingSecret], [true, undefined]);
});

test('Retry-After of a 429 or 503 comes back with the retryable failure', async () => {
  await create('busy', `${base}/busy`);
  await create('maintenance', `${base}/maintenance`);
  const busy = failure(await target.deliver(request('busy')));
  assert.equal([busy.retryable, busy.httpStatus, busy.retryAfterMs], [true, 429, 45_000]);
  const down = failure(await target.deliver(request('maintenance')));
  assert.equal([down.retryable, down.httpStatus, down.retryAfterMs], [true, 503, 120_000]);
});

test('a destination on a refused address fails without retry, saying why; nothing is sent', async () => {
  await create('internal', `${base}/internal`);
  const before = received.length;
  const f = failure(await targetWith(guarded).deliver(request('internal')));
  assert.is(f.retryable, false);
  assert.is(
    f.error,
    `POST ${base}/internal: destination refused: 127.0.0.1 is a loopback address (allow it with OUTBOUND_ALLOW)`,
  );
  assert.is(f.httpStatus, undefined);
  assert.is(received.length, before);
});

test('an OAuth token URL on a refused address fails without retry too (and the client secret is not in the error)', async () => {
  await connections.create(
    {
      name: 'oauth-internal',
      auth: {
        kind: 'OAUTH_CLIENT_CREDENTIALS',
        tokenUrl: `${base}/token`,
        clientId: 'c1',
        clientSecret: 'client-secret-value',
        method: 'GET',
        clientAuth: 'client_secret_post',
      },
    },
    ctx,
    'c-1',
  );
  await create('oauth-internal', 'https://api.example/in', 'oauth-internal');
  const before = received.length;
  const f = failure(await targetWith(guarded).deliver(request('oauth-internal')));
  assert.is(f.retryable, false);
  assert.match(
    f.error,
    /^connection oauth-internal: the token endpoint cannot be called: destination refused: 127\.0\.0\.1 is a loopback address/,
  );
  assert.not.ok(f.error.includes('client-secret-value'));
  assert.is(received.length, before);
});

test.run();
