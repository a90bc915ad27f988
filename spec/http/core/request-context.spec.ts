import { request } from 'node:http';
import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  commandMetadata,
  currentRequestContext,
  type RequestContext,
  requestContext,
} from '../../../http/core/request-context.ts';
import { startTestApp, type TestApp } from './harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const router = Router();
router.get('/ctx', (req, res) => {
  res.json({ fromReq: requestContext(req), fromRes: requestContext(res), fromStorage: currentRequestContext() });
});
// after the body parsers and an await: the async context must still be this request's
router.post('/ctx', async (req, res) => {
  await new Promise((r) => setTimeout(r, 1));
  res.json({ fromStorage: currentRequestContext(), body: req.body as unknown });
});
router.post('/commands', (_req, res) => {
  res.json(commandMetadata(res, { tenant: 'acme', actor: 'user-1' }));
});

type CtxBody = { fromReq: RequestContext; fromRes: RequestContext; fromStorage: RequestContext };

const Ctx = suite<{ app: TestApp }>('http/core request context');

Ctx.before(async (ctx) => {
  ctx.app = await startTestApp({ router, asyncRequestContext: true });
});
Ctx.after(async (ctx) => {
  await ctx.app.close();
});

Ctx('request and correlation ids are echoed and visible inside the handler', async ({ app }) => {
  const res = await fetch(`${app.url}/ctx`, { headers: { 'x-request-id': 'req-1', 'x-correlation-id': 'corr-9' } });
  assert.is(res.headers.get('x-request-id'), 'req-1');
  assert.is(res.headers.get('x-correlation-id'), 'corr-9');
  const body = (await res.json()) as CtxBody;
  const expected = { requestId: 'req-1', correlationId: 'corr-9' };
  assert.equal(body.fromReq, expected);
  assert.equal(body.fromRes, expected);
  assert.equal(body.fromStorage, expected);
});

Ctx('without headers: a fresh UUID request id, which is also the correlation id', async ({ app }) => {
  const res = await fetch(`${app.url}/ctx`);
  const requestId = res.headers.get('x-request-id') ?? '';
  assert.match(requestId, UUID);
  assert.is(res.headers.get('x-correlation-id'), requestId);
  const body = (await res.json()) as CtxBody;
  assert.equal(body.fromReq, { requestId, correlationId: requestId });
});

Ctx('an insane or overlong request id is replaced', async ({ app }) => {
  for (const bad of ['has space', 'x'.repeat(129), 'quote"d', '<script>']) {
    const res = await fetch(`${app.url}/ctx`, { headers: { 'x-request-id': bad } });
    await res.arrayBuffer();
    assert.match(res.headers.get('x-request-id') ?? '', UUID, bad);
  }
  const ok = await fetch(`${app.url}/ctx`, { headers: { 'x-request-id': 'y'.repeat(128) } });
  await ok.arrayBuffer();
  assert.is(ok.headers.get('x-request-id'), 'y'.repeat(128));
});

Ctx('the async context survives body parsing and awaits', async ({ app }) => {
  const res = await fetch(`${app.url}/ctx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-post', 'x-correlation-id': 'corr-post' },
    body: JSON.stringify({ a: 1 }),
  });
  assert.equal(await res.json(), {
    fromStorage: { requestId: 'req-post', correlationId: 'corr-post' },
    body: { a: 1 },
  });
});

Ctx('the async context survives a body that arrives after the headers', async ({ app }) => {
  // The body parser then resumes from the socket's callbacks, outside the request's async context.
  const url = new URL(app.url);
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/ctx',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '9', 'x-request-id': 'req-chunked' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write('{"a":');
    setTimeout(() => req.end('123}'), 20);
  });
  assert.equal(JSON.parse(text), {
    fromStorage: { requestId: 'req-chunked', correlationId: 'req-chunked' },
    body: { a: 123 },
  });
});

Ctx('concurrent requests keep their own context', async ({ app }) => {
  const ids = Array.from({ length: 20 }, (_, i) => `req-${i}`);
  const bodies = await Promise.all(
    ids.map(async (id) => {
      const res = await fetch(`${app.url}/ctx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ id }),
      });
      return (await res.json()) as { fromStorage: RequestContext; body: { id: string } };
    }),
  );
  for (const b of bodies) assert.is(b.fromStorage.requestId, b.body.id);
});

Ctx('commandMetadata carries the ids into event metadata (causation = request)', async ({ app }) => {
  const res = await fetch(`${app.url}/commands`, {
    method: 'POST',
    headers: { 'x-request-id': 'req-cmd', 'x-correlation-id': 'corr-flow' },
  });
  assert.equal(await res.json(), {
    tenant: 'acme',
    actor: 'user-1',
    correlationId: 'corr-flow',
    causationId: 'req-cmd',
  });
});

Ctx('ids are echoed on error answers too', async ({ app }) => {
  const res = await fetch(`${app.url}/nowhere`, { headers: { 'x-request-id': 'req-404' } });
  await res.arrayBuffer();
  assert.is(res.status, 404);
  assert.is(res.headers.get('x-request-id'), 'req-404');
});

Ctx.run();
