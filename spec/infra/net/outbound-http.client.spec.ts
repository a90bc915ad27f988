import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOutboundHttpClient } from '../../../infra/net/outbound-http.client.ts';
import { eventually } from '../../core/eventually.ts';

const test = suite('outbound HTTP client (undici adapter of the HttpClient port)');
// the receiver is on loopback: allowed the way the tests and the demo allow it (OUTBOUND_ALLOW)
const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];
const createHttpClient = (o: { maxBodyBytes?: number } = {}) => createOutboundHttpClient({ allow: LOOPBACK, ...o });

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
let server: Server;
let base: string;
const seen: Seen[] = [];
/** responses held open by the /hang route, ended in `after` */
const hanging: ServerResponse[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      switch (req.url) {
        case '/ok':
          res.writeHead(200, { 'Content-Type': 'application/json', 'X-Mixed-Case': 'Yes' }).end('{"hello":"wörld"}');
          return;
        case '/fail':
          res.writeHead(503, { 'Retry-After': '7' }).end('down for maintenance');
          return;
        case '/redirect':
          res.writeHead(302, { Location: 'http://elsewhere.invalid/steal' }).end();
          return;
        case '/big':
          res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(100_000));
          return;
        case '/busy':
          res.writeHead(429, { 'Retry-After': new Date(Date.now() + 90_000).toUTCString() }).end('slow down');
          return;
        case '/broken':
          res.writeHead(500, { 'Retry-After': '5' }).end('oops');
          return;
        case '/empty':
          res.writeHead(204).end();
          return;
        case '/hang':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('partial'); // headers and part of the body, then nothing
          hanging.push(res);
          return;
        default:
          res.writeHead(404).end('no');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after(async () => {
  for (const r of hanging) r.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const http = createHttpClient();

test('a 200 answers status, lower-case headers and the body as text', async () => {
  const res = await http.send({ method: 'GET', url: `${base}/ok` });
  assert.is(res.status, 200);
  assert.is(res.headers['x-mixed-case'], 'Yes');
  assert.is(res.headers['content-type'], 'application/json');
  assert.ok(Object.keys(res.headers).every((k) => k === k.toLowerCase()));
  assert.is(res.body, '{"hello":"wörld"}');
});

test('method, headers and body reach the server', async () => {
  const res = await http.send({
    method: 'post',
    url: `${base}/ok`,
    headers: { 'Content-Type': 'application/json', 'X-Delivery-Id': 'd-1' },
    body: JSON.stringify({ a: 1 }),
  });
  assert.is(res.status, 200);
  const last = seen.at(-1)!;
  assert.is(last.method, 'POST');
  assert.is(last.headers['x-delivery-id'], 'd-1');
  assert.is(last.headers['content-type'], 'application/json');
  assert.is(last.body, '{"a":1}');
});

test('an error status resolves (it is an answer, not an exception)', async () => {
  const res = await http.send({ method: 'GET', url: `${base}/fail` });
  assert.is(res.status, 503);
  assert.is(res.headers['retry-after'], '7');
  assert.is(res.body, 'down for maintenance');
});

test('a redirect is not followed: the 3xx comes back with its location', async () => {
  const before = seen.length;
  const res = await http.send({ method: 'POST', url: `${base}/redirect`, body: 'secret' });
  assert.is(res.status, 302);
  assert.is(res.headers.location, 'http://elsewhere.invalid/steal');
  assert.is(seen.length, before + 1); // one request, to us only
});

test('a 204 has an empty body', async () => {
  const res = await http.send({ method: 'GET', url: `${base}/empty` });
  assert.is(res.status, 204);
  assert.is(res.body, '');
});

test('the body is capped at maxBodyBytes', async () => {
  const small = createHttpClient({ maxBodyBytes: 10 });
  const res = await small.send({ method: 'GET', url: `${base}/big` });
  assert.is(res.status, 200);
  assert.is(res.body, 'xxxxxxxxxx');
  const full = await http.send({ method: 'GET', url: `${base}/big` });
  assert.is(full.body.length, 100_000);
});

test('a refused connection rejects, naming the cause', async () => {
  // a port that was free a moment ago: bind and close
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  try {
    await http.send({ method: 'GET', url: `http://127.0.0.1:${port}/` });
    assert.unreachable('should reject');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.match((err as Error).message, /ECONNREFUSED/);
  }
});

test('an abort rejects with an AbortError, even while the body is being read', async () => {
  const controller = new AbortController();
  const pending = http.send({ method: 'GET', url: `${base}/hang`, signal: controller.signal });
  // the server has answered the headers and part of the body, then goes quiet
  await eventually(() => hanging.length > 0, { what: 'the server went quiet mid-body', intervalMs: 1 });
  controller.abort();
  try {
    await pending;
    assert.unreachable('should reject');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.is((err as Error).name, 'AbortError');
    assert.match((err as Error).message, /^aborted/);
  }
});

test('a timeout signal rejects with a TimeoutError', async () => {
  try {
    await http.send({ method: 'GET', url: `${base}/hang`, signal: AbortSignal.timeout(20) });
    assert.unreachable('should reject');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.is((err as Error).name, 'TimeoutError');
  }
});

test('an already aborted signal sends nothing', async () => {
  const before = seen.length;
  const controller = new AbortController();
  controller.abort(new Error('gave up'));
  try {
    await http.send({ method: 'GET', url: `${base}/ok`, signal: controller.signal });
    assert.unreachable('should reject');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.is((err as Error).name, 'AbortError');
    assert.match((err as Error).message, /gave up/);
  }
  assert.is(seen.length, before);
});

test('Retry-After on 429 and 503 (seconds or a date) as retryAfterMs; not on other statuses', async () => {
  assert.is((await http.send({ method: 'GET', url: `${base}/fail` })).retryAfterMs, 7000);
  const busy = await http.send({ method: 'GET', url: `${base}/busy` });
  assert.is(busy.status, 429);
  // the date has a one-second resolution and the call takes a moment: between 88 and 90 s
  assert.ok(busy.retryAfterMs! > 88_000 && busy.retryAfterMs! <= 90_000, String(busy.retryAfterMs));
  const broken = await http.send({ method: 'GET', url: `${base}/broken` });
  assert.equal([broken.status, broken.retryAfterMs, broken.headers['retry-after']], [500, undefined, '5']);
  assert.is((await http.send({ method: 'GET', url: `${base}/ok` })).retryAfterMs, undefined);
});

test('a timeout: the request’s timeoutMs, else the client’s default, rejects with a TimeoutError', async () => {
  for (const [client, request] of [
    [http, { timeoutMs: 30 }],
    [createOutboundHttpClient({ allow: LOOPBACK, timeoutMs: 30 }), {}],
  ] as const) {
    try {
      await client.send({ method: 'GET', url: `${base}/hang`, ...request });
      assert.unreachable('should reject');
    } catch (err) {
      if (err instanceof assert.Assertion) throw err;
      assert.is((err as Error).name, 'TimeoutError');
      assert.match((err as Error).message, /timed out after 30 ms/);
    }
  }
});

test.run();
