// Standard Webhooks signing by the outbound client, verified by the reference implementation
// (`standardwebhooks`, its Webhook.verify) in a real HTTP receiver on 127.0.0.1: webhook-id is the
// idempotency id, a signature per secret during a rotation (either secret verifies), a tampered body or
// another secret does not. Idempotency-Key on every call.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { webhookHeaders, webhookSignature } from '../../../infra/net/webhook-signature.ts';
import { loopbackHttpClient } from './loopback-client.ts';

const test = suite('Standard Webhooks signing, verified by the reference implementation');

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
type Received = { headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let server: Server;
let url = '';
const http = loopbackHttpClient();

test.before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
test.after(async () => {
  await http.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** the receiver's side: what a Standard Webhooks consumer does with the raw body and the headers */
const verify = (key: string, r: Received) =>
  new Webhook(key).verify(
    r.body,
    {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    },
    { jsonParse: false },
  );
const fails = (key: string, r: Received) =>
  assert.throws(() => verify(key, r), /No matching signature|Missing required headers/);

test('a signed call verifies with its secret; webhook-id and Idempotency-Key are the delivery id', async () => {
  const key = secret();
  const body = JSON.stringify({ orderId: 'O-17', total: 120.5, note: 'ünïcode ✓' });
  const res = await http.send({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body,
    idempotencyId: 'dlv-42',
    signing: { secrets: [key] },
  });
  assert.is(res.status, 204);
  const got = received.at(-1)!;
  assert.is(got.body, body);
  assert.is(got.headers['webhook-id'], 'dlv-42');
  assert.is(got.headers['idempotency-key'], 'dlv-42');
  assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
  assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 300, 'a current timestamp');
  verify(key, got); // throws when it does not verify
  fails(secret(), got);
  fails(key, { ...got, body: body.replace('120.5', '121.5') });
  fails(key, { ...got, headers: { ...got.headers, 'webhook-id': 'dlv-43' } });
});

test('during a rotation both secrets sign, space-separated: either verifies', async () => {
  const [next, previous] = [secret(), secret()];
  await http.send({
    method: 'PUT',
    url,
    body: 'plain text',
    idempotencyId: 'dlv-rot',
    signing: { secrets: [next, previous] },
  });
  const got = received.at(-1)!;
  const sigs = String(got.headers['webhook-signature']).split(' ');
  assert.is(sigs.length, 2);
  assert.ok(sigs.every((s) => s.startsWith('v1,')));
  verify(next, got);
  verify(previous, got);
  fails(secret(), got);
});

test('the signature is the reference implementation’s; an empty body is signed too', () => {
  const key = secret();
  const at = new Date('2026-03-01T10:00:00Z');
  assert.is(
    webhookSignature('msg_1', at.getTime() / 1000, '{"a":1}', [key]),
    new Webhook(key).sign('msg_1', at, '{"a":1}'),
  );
  assert.is(webhookSignature('msg_1', at.getTime() / 1000, '', [key]), new Webhook(key).sign('msg_1', at, ''));
  const h = webhookHeaders('msg_1', 1772359200, 'x', [key, key]);
  assert.equal(Object.keys(h), ['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  assert.is(h['webhook-timestamp'], '1772359200');
});

test('unsigned calls carry no webhook headers, but an Idempotency-Key (fresh per call); the platform’s values win', async () => {
  await http.send({ method: 'GET', url });
  await http.send({
    method: 'GET',
    url,
    headers: { 'Idempotency-Key': 'caller-set', 'Webhook-Signature': 'v1,forged' },
  });
  const [a, b] = received.slice(-2);
  assert.is(a!.headers['webhook-signature'], undefined);
  assert.match(String(a!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  assert.match(String(b!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  assert.is.not(a!.headers['idempotency-key'], b!.headers['idempotency-key']);
  // a signed call replaces whatever the caller put in those headers
  await http.send({
    method: 'POST',
    url,
    headers: { 'Webhook-Signature': 'v1,forged', 'Idempotency-Key': 'caller-set' },
    body: '{}',
    idempotencyId: 'dlv-own',
    signing: { secrets: [secret()] },
  });
  const c = received.at(-1)!;
  assert.is(c.headers['idempotency-key'], 'dlv-own');
  assert.not.match(String(c.headers['webhook-signature']), /forged/);
});

test.run();
