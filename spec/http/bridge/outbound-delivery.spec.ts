// Outbound HTTP end to end: the whole platform with real SQLite stores, a real receiver on
// 127.0.0.1 port 0, OUTBOUND_ALLOW naming only the host name `localhost`.
// - An API destination at http://localhost:<port> (allowlisted by name): the signing secret shown once at
//   creation verifies the delivery with the Standard Webhooks reference implementation; webhook-id is the
//   delivery id.
// - The same receiver as http://127.0.0.1:<port> (a loopback address nobody allowlisted): the SSRF guard
//   refuses it; the trace shows the failed attempt with the reason, no retry, and the receiver got nothing.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deliveryIdFor } from '../../../commands/bridge/delivery.scheduler.ts';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('outbound HTTP end to end: signed deliveries, SSRF-refused destinations in the trace');
let p: BridgePlatform;
let server: Server;
let port = 0;
const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];

type TraceEntry = { status: string; ruleId: string; attempt?: number; error?: string; nextAttemptAt?: string | null };

test.before(async () => {
  const app = express();
  app.use(express.text({ type: () => true }));
  app.post('/{*rest}', (req, res) => {
    received.push({ path: req.path, headers: { ...req.headers }, body: typeof req.body === 'string' ? req.body : '' });
    res.status(204).end();
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  p = await startBridgePlatform({ env: { DELIVERY_POLL_MS: '10', OUTBOUND_ALLOW: 'localhost' } });
  const admin = await p.token('acme');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: admin, body: { name: 'orders' } })).status, 201);
});
test.after(async () => {
  await p.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function ruleTo(destination: string, url: string, source: string): Promise<string> {
  const admin = await p.token('acme');
  const d = await p.call('POST', `${ADMIN}/api-destinations`, {
    token: admin,
    body: { name: destination, url, method: 'POST' },
  });
  assert.is(d.status, 201, JSON.stringify(d.body));
  const rule = await p.call('POST', `${ADMIN}/rules`, {
    token: admin,
    body: {
      id: `to-${destination}`,
      bus: 'orders',
      name: `to ${destination}`,
      pattern: { source: [source] },
      targets: [
        {
          Id: 1,
          TypeId: 4,
          PushRetryStrategy: 'BACKOFF_RETRY',
          ErrorTolerance: 'ALL',
          DeadLetterRecord: true,
          Params: [{ ResourceKey: 'NAME', Form: 'CONSTANT', Value: destination }],
        },
      ],
    },
  });
  assert.is(rule.status, 201, JSON.stringify(rule.body));
  return d.body.signingSecret as string;
}

async function publish(source: string): Promise<string> {
  const r = await p.call('POST', PUT_EVENT, {
    token: await p.token('acme', ['bridge:publish']),
    body: { ...anEvent(), source },
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.eventId as string;
}

const settled = (eventId: string, last: string) =>
  p.eventually(async () => {
    const t = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: await p.token('acme') });
    const d = (t.body?.delivery ?? []) as TraceEntry[];
    return d.at(-1)?.status === last ? d : undefined;
  }, `the delivery ${last} in the trace`);

test('a delivery to an allowlisted host is signed: the secret shown at creation verifies it (reference implementation)', async () => {
  const secret = await ruleTo('signed-receiver', `http://localhost:${port}/signed`, 'shop:signed');
  assert.match(secret, /^whsec_/);
  const eventId = await publish('shop:signed');
  const hit = await p.eventually(async () => received.find((r) => r.path === '/signed'), 'the receiver called');
  const deliveryId = deliveryIdFor(eventId, 'acme', 'to-signed-receiver', 1);
  assert.is(hit.headers['webhook-id'], deliveryId);
  assert.is(hit.headers['idempotency-key'], deliveryId);
  const headers = {
    'webhook-id': String(hit.headers['webhook-id']),
    'webhook-timestamp': String(hit.headers['webhook-timestamp']),
    'webhook-signature': String(hit.headers['webhook-signature']),
  };
  new Webhook(secret).verify(hit.body, headers); // throws unless the signature verifies
  assert.throws(
    () => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(hit.body, headers),
    /No matching signature/,
  );
  const trace = await settled(eventId, 'succeeded');
  assert.equal(
    trace.map((d) => d.status),
    ['scheduled', 'started', 'succeeded'],
  );
});

test('a destination on a loopback address nobody allowlisted: refused, the reason in the trace, no retry, nothing sent', async () => {
  await ruleTo('internal-receiver', `http://127.0.0.1:${port}/internal`, 'shop:internal');
  const eventId = await publish('shop:internal');
  const trace = await settled(eventId, 'dead-lettered');
  assert.equal(
    trace.map((d) => d.status),
    ['scheduled', 'started', 'failed', 'dead-lettered'],
  );
  const failed = trace[2]!;
  assert.is(
    failed.error,
    `POST http://127.0.0.1:${port}/internal: destination refused: 127.0.0.1 is a loopback address (allow it with OUTBOUND_ALLOW)`,
  );
  assert.is(failed.nextAttemptAt ?? null, null, 'not retried');
  assert.not.ok(
    received.some((r) => r.path === '/internal'),
    'the receiver got nothing',
  );
});

test.run();
