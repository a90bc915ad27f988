import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../core/eventually.ts';
import { startTestApp, type TestApp } from './harness.ts';

const router = Router();
router.post('/api/platform/rules/:id', (req, res) => {
  res.status(201).json({ id: req.params.id });
});

const Log = suite<{ app: TestApp }>('http/core request log');

Log.before(async (ctx) => {
  ctx.app = await startTestApp({ router });
});
Log.after(async (ctx) => {
  await ctx.app.close();
});

Log('one info line per request with method, route, status, ms and both ids', async ({ app }) => {
  const res = await fetch(`${app.url}/api/platform/rules/r42?code=oauth-code-secret`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer eyJ.secret-token.sig',
      cookie: 'sid=cookie-secret',
      'content-type': 'application/json',
      'x-request-id': 'req-log-1',
      'x-correlation-id': 'corr-log-1',
    },
    body: JSON.stringify({ password: 'body-secret' }),
  });
  assert.is(res.status, 201);
  await res.arrayBuffer();
  // the line is written when the response finishes, which the client may see first
  await eventually(() => app.logs.some((l) => l.requestId === 'req-log-1'), 'the request line');
  const lines = app.logs.filter((l) => l.requestId === 'req-log-1');
  assert.is(lines.length, 1);
  const line = lines[0];
  assert.ok(line);
  assert.is(line.level, 30);
  assert.is(line.msg, 'request completed');
  assert.is(line.method, 'POST');
  assert.is(line.route, '/api/platform/rules/:id');
  assert.is(line.path, '/api/platform/rules/r42');
  assert.is(line.status, 201);
  assert.is(line.correlationId, 'corr-log-1');
  assert.type(line.ms, 'number');

  const all = app.rawLogs.join('');
  for (const secret of ['secret-token', 'cookie-secret', 'body-secret', 'oauth-code-secret']) {
    assert.not.ok(all.includes(secret), `${secret} must never be logged`);
  }
  assert.not.ok(/authorization/i.test(all), 'no authorization header in the logs');
});

Log('unmatched requests are logged with route "unmatched"', async ({ app }) => {
  await (await fetch(`${app.url}/nope`, { headers: { 'x-request-id': 'req-log-2' } })).arrayBuffer();
  await eventually(() => app.logs.some((l) => l.requestId === 'req-log-2'), 'the request line');
  const line = app.logs.find((l) => l.requestId === 'req-log-2' && l.msg === 'request completed');
  assert.ok(line);
  assert.is(line.route, 'unmatched');
  assert.is(line.status, 404);
});

Log.run();
