// Bearer source `caller` end to end: the whole platform with real SQLite stores, a real receiver
// on 127.0.0.1 port 0. putEvent with the tenant's token → rule → API destination whose connection forwards
// the publishing caller's token → the receiver sees `Authorization: Bearer <that token>`. The token is in
// neither the trace nor the event log (nor, readable, in the read-model file: it is kept sealed there).

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('delivery: an API destination forwards the publishing caller’s token');
let p: BridgePlatform;
let server: Server;
let port: number;
const received: Array<{ authorization: string | undefined; deliveryId: string | undefined; body: unknown }> = [];

test.before(async () => {
  const app = express();
  app.use(express.json());
  app.post('/in', (req, res) => {
    received.push({
      authorization: req.headers.authorization,
      deliveryId: req.headers['x-delivery-id'] as string | undefined,
      body: req.body,
    });
    res.status(204).end();
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  p = await startBridgePlatform({ env: { DELIVERY_POLL_MS: '10' } });
});
test.after(async () => {
  await p.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const bytesOf = (dir: string, prefix: string) =>
  Buffer.concat(
    readdirSync(dir)
      .filter((n) => n.startsWith(prefix))
      .map((n) => readFileSync(path.join(dir, n))),
  );

test('the receiver gets Authorization: Bearer <the publisher’s token>; the trace does not hold it', async () => {
  const admin = await p.token('acme');
  const publisherToken = await p.token('acme', ['bridge:publish']);
  const ok = (r: { status: number; body: unknown }, status: number, what: string) =>
    assert.is(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
  ok(await p.call('POST', `${ADMIN}/buses`, { token: admin, body: { name: 'orders' } }), 201, 'bus');
  ok(
    await p.call('POST', `${ADMIN}/connections`, {
      token: admin,
      body: { name: 'caller', auth: { kind: 'BEARER', source: 'caller' } },
    }),
    201,
    'connection',
  );
  ok(
    await p.call('POST', `${ADMIN}/api-destinations`, {
      token: admin,
      body: { name: 'receiver', url: `http://127.0.0.1:${port}/in`, method: 'POST', connection: 'caller' },
    }),
    201,
    'destination',
  );
  ok(
    await p.call('POST', `${ADMIN}/rules`, {
      token: admin,
      body: {
        id: 'forward-caller',
        bus: 'orders',
        name: 'forward with the caller token',
        pattern: { source: ['shop:checkout'] },
        targets: [
          {
            Id: 1,
            TypeId: 4,
            PushRetryStrategy: 'BACKOFF_RETRY',
            ErrorTolerance: 'ALL',
            DeadLetterRecord: true,
            Params: [{ ResourceKey: 'NAME', Form: 'CONSTANT', Value: 'receiver' }],
          },
        ],
      },
    }),
    201,
    'rule',
  );

  const r = await p.call('POST', PUT_EVENT, { token: publisherToken, body: anEvent() });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const eventId = r.body.eventId as string;
  const hit = await p.eventually(async () => received[0], 'the receiver called');
  assert.is(hit.authorization, `Bearer ${publisherToken}`);
  assert.ok(hit.deliveryId !== undefined && hit.deliveryId !== '', 'the delivery id is sent');

  const trace = await p.eventually(async () => {
    const t = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: admin });
    const d = (t.body?.delivery ?? []) as Array<{ status: string }>;
    return d.at(-1)?.status === 'succeeded' ? t : undefined;
  }, 'delivered in the trace');
  const text = JSON.stringify(trace.body);
  assert.not.ok(text.includes(publisherToken), 'the trace does not contain the token');
  assert.not.ok(text.includes(publisherToken.split('.')[2]!), 'nor its signature');

  // nor the log; the read model holds it sealed only
  const dir = p.config.dataDir;
  const token = Buffer.from(publisherToken, 'utf8');
  assert.not.ok(bytesOf(dir, 'events.sqlite').includes(token), 'not in the event log');
  assert.not.ok(bytesOf(dir, 'read-models.sqlite').includes(token), 'not readable in the read-model file');
  assert.is(received.length, 1);
});

test.run();
