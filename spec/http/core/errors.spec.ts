import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DomainError, notFound } from '../../../domain/core/domain-error.ts';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../../../infra/core/store-errors.ts';
import { looksLikeStack, startTestApp, type TestApp } from './harness.ts';

const router = Router();
router.post('/echo', (req, res) => {
  res.json({ body: req.body as unknown });
});
router.get('/domain', () => {
  throw new DomainError('RULE.INVALID_PATTERN', 422, 'pattern is not valid', { field: 'pattern' });
});
router.get('/not-found', () => {
  throw notFound('RULE.NOT_FOUND', 'rule r42 not found');
});
router.get('/boom', () => {
  throw new Error('secret connection string postgres://u:p@db');
});
// express 5: a rejected promise reaches the error middleware without an asyncHandler wrapper
router.get('/async-boom', async () => {
  await Promise.resolve();
  throw new Error('async secret');
});
router.get('/async-domain', async () => {
  await Promise.resolve();
  throw notFound('TASK.NOT_FOUND', 'task t1 not found');
});
router.get('/store-down', async () => {
  throw new StoreUnavailableError('eventstore', 'connect ECONNREFUSED 10.0.0.3:2113');
});
router.get('/conflict', async () => {
  throw new WrongExpectedRevisionError('rule-acme.r42', 3, 5);
});
router.get('/oauth', () => {
  const err = Object.assign(new Error('invalid_grant'), {
    toResponse: () => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'code expired' },
      headers: { 'Cache-Control': 'no-store' },
    }),
  });
  throw err;
});
router.get('/http-error', () => {
  throw Object.assign(new Error('method not allowed here'), { status: 405, expose: true });
});
router.get('/hidden-4xx', () => {
  throw Object.assign(new Error('internal detail'), { statusCode: 409, expose: false });
});
router.get('/mid-stream', (_req, res) => {
  res.write('partial');
  throw new Error('mid-stream secret');
});
router.get('/throw-string', () => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw 'a string';
});

const Errors = suite<{ app: TestApp }>('http/core errors');

Errors.before(async (ctx) => {
  ctx.app = await startTestApp({ router, bodyLimit: '1kb' });
});
Errors.after(async (ctx) => {
  await ctx.app.close();
});

Errors('unknown route: 404 JSON naming method and path, not the query string', async ({ app }) => {
  const res = await fetch(`${app.url}/x?token=secret`);
  assert.is(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(await res.json(), { code: 'ROUTE.NOT_FOUND', message: 'no route for GET /x', details: null });
});

Errors('no x-powered-by header', async ({ app }) => {
  const res = await fetch(`${app.url}/x`);
  await res.arrayBuffer();
  assert.is(res.headers.get('x-powered-by'), null);
});

Errors('malformed JSON: 400 REQUEST.MALFORMED_JSON without stack text', async ({ app }) => {
  const res = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name": "x",',
  });
  const text = await res.text();
  assert.is(res.status, 400);
  const body = JSON.parse(text) as { code: string; message: string; details: unknown };
  assert.is(body.code, 'REQUEST.MALFORMED_JSON');
  assert.ok(body.message.startsWith('malformed JSON body: '), body.message);
  assert.is(body.details, null);
  assert.not.ok(looksLikeStack(text), text);
  assert.not.ok(text.includes('stack'), text);
});

Errors('well-formed JSON and form bodies are parsed', async ({ app }) => {
  const json = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ a: 1 }),
  });
  assert.equal(await json.json(), { body: { a: 1 } });
  const form = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=authorization_code&code=abc',
  });
  assert.equal(await form.json(), { body: { grant_type: 'authorization_code', code: 'abc' } });
});

Errors('body over the limit: 413 REQUEST.TOO_LARGE', async ({ app }) => {
  const res = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blob: 'x'.repeat(2048) }),
  });
  assert.is(res.status, 413);
  const body = (await res.json()) as { code: string };
  assert.is(body.code, 'REQUEST.TOO_LARGE');
});

Errors('unsupported charset: 415', async ({ app }) => {
  const res = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=klingon' },
    body: '{}',
  });
  assert.is(res.status, 415);
  const body = (await res.json()) as { code: string };
  assert.is(body.code, 'REQUEST.UNSUPPORTED_CHARSET');
});

Errors('unsupported content encoding: 415', async ({ app }) => {
  const res = await fetch(`${app.url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'compress-9000' },
    body: '{}',
  });
  assert.is(res.status, 415);
  const body = (await res.json()) as { code: string };
  assert.is(body.code, 'REQUEST.UNSUPPORTED_ENCODING');
});

Errors('DomainError: its status, code, message and details', async ({ app }) => {
  const res = await fetch(`${app.url}/domain`);
  assert.is(res.status, 422);
  assert.equal(await res.json(), {
    code: 'RULE.INVALID_PATTERN',
    message: 'pattern is not valid',
    details: { field: 'pattern' },
  });
  const missing = await fetch(`${app.url}/not-found`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { code: 'RULE.NOT_FOUND', message: 'rule r42 not found', details: null });
});

Errors(
  'thrown plain Error: 500 INTERNAL with the request id, no message or stack; logged with stack',
  async ({ app }) => {
    const res = await fetch(`${app.url}/boom`, { headers: { 'x-request-id': 'req-boom-1' } });
    const text = await res.text();
    assert.is(res.status, 500);
    assert.equal(JSON.parse(text), {
      code: 'INTERNAL',
      message: 'internal error',
      details: { requestId: 'req-boom-1' },
    });
    assert.not.ok(text.includes('secret'), text);
    assert.not.ok(looksLikeStack(text), text);
    const logged = app.logs.find((l) => l.msg === 'unhandled error' && l.requestId === 'req-boom-1');
    assert.ok(logged, 'the error is logged');
    assert.is(logged.level, 50);
    const err = logged.err as { message: string; stack: string };
    assert.is(err.message, 'secret connection string postgres://u:p@db');
    assert.match(err.stack, /\n\s+at /);
  },
);

Errors('rejected async handler: 500 JSON (no asyncHandler needed in express 5)', async ({ app }) => {
  const res = await fetch(`${app.url}/async-boom`);
  const text = await res.text();
  assert.is(res.status, 500);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const body = JSON.parse(text) as { code: string; message: string };
  assert.is(body.code, 'INTERNAL');
  assert.is(body.message, 'internal error');
  assert.not.ok(text.includes('async secret'));
  const typed = await fetch(`${app.url}/async-domain`);
  assert.is(typed.status, 404);
  assert.is(((await typed.json()) as { code: string }).code, 'TASK.NOT_FOUND');
});

Errors('a thrown non-Error: 500 INTERNAL', async ({ app }) => {
  const res = await fetch(`${app.url}/throw-string`);
  assert.is(res.status, 500);
  assert.is(((await res.json()) as { code: string }).code, 'INTERNAL');
});

Errors('StoreUnavailableError: 503 STORE.UNAVAILABLE with Retry-After, no store address', async ({ app }) => {
  const res = await fetch(`${app.url}/store-down`);
  const text = await res.text();
  assert.is(res.status, 503);
  assert.is(res.headers.get('retry-after'), '5');
  const body = JSON.parse(text) as { code: string; message: string };
  assert.is(body.code, 'STORE.UNAVAILABLE');
  assert.is(body.message, 'eventstore is unavailable, retry later');
  assert.not.ok(text.includes('10.0.0.3'), text);
});

Errors('WrongExpectedRevisionError: 409 CONCURRENCY.CONFLICT with stream, expected, actual', async ({ app }) => {
  const res = await fetch(`${app.url}/conflict`);
  assert.is(res.status, 409);
  const body = (await res.json()) as { code: string; details: unknown };
  assert.is(body.code, 'CONCURRENCY.CONFLICT');
  assert.equal(body.details, { stream: 'rule-acme.r42', expected: 3, actual: 5 });
});

Errors('an error with toResponse() is sent untouched (RFC 6749 errors plug in here)', async ({ app }) => {
  const res = await fetch(`${app.url}/oauth`);
  assert.is(res.status, 400);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.equal(await res.json(), { error: 'invalid_grant', error_description: 'code expired' });
});

Errors('errors with a 4xx status: that status; unexposed messages replaced by the status text', async ({ app }) => {
  const res = await fetch(`${app.url}/http-error`);
  assert.is(res.status, 405);
  assert.equal(await res.json(), {
    code: 'REQUEST.METHOD_NOT_ALLOWED',
    message: 'method not allowed here',
    details: null,
  });
  const hidden = await fetch(`${app.url}/hidden-4xx`);
  assert.is(hidden.status, 409);
  assert.equal(await hidden.json(), { code: 'REQUEST.CONFLICT', message: 'Conflict', details: null });
});

Errors('an error after the response started cuts the connection and is logged', async ({ app }) => {
  let outcome: string;
  try {
    const res = await fetch(`${app.url}/mid-stream`);
    outcome = `complete: ${await res.text()}`;
  } catch {
    outcome = 'truncated';
  }
  assert.is(outcome, 'truncated', 'the client must not mistake the partial body for a whole one');
  assert.ok(app.logs.some((l) => l.msg === 'error after the response started'));
});

Errors.run();
