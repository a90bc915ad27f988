import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReadinessReport } from '../../../http/core/health.ts';
import { startTestApp, type TestApp } from './harness.ts';

let report: ReadinessReport | Error = { ok: true, checks: [] };

const router = Router();
router.get('/api/platform/things/:id', (req, res) => {
  res.json({ id: req.params.id });
});

const Health = suite<{ app: TestApp }>('http/core health and metrics');

Health.before(async (ctx) => {
  ctx.app = await startTestApp({
    router,
    readiness: async () => {
      if (report instanceof Error) throw report;
      return report;
    },
  });
});
Health.after(async (ctx) => {
  await ctx.app.close();
});

Health('GET /health/live: 200 {status: ok}', async ({ app }) => {
  const res = await fetch(`${app.url}/health/live`);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { status: 'ok' });
});

Health('GET /health/ready: 200 with the report when ready', async ({ app }) => {
  report = {
    ok: true,
    checks: [
      { name: 'eventstore', ok: true },
      { name: 'projection:tasks', ok: true, lag: 0 },
    ],
  };
  const res = await fetch(`${app.url}/health/ready`);
  assert.is(res.status, 200);
  assert.equal(await res.json(), report);
});

Health('GET /health/ready: 503 with the report when not ready', async ({ app }) => {
  report = {
    ok: false,
    checks: [
      { name: 'eventstore', ok: false, detail: 'connection refused' },
      { name: 'projection:tasks', ok: false, lag: 1200 },
    ],
  };
  const res = await fetch(`${app.url}/health/ready`);
  assert.is(res.status, 503);
  assert.equal(await res.json(), report);
  // live stays green: the process is up, it just should not get traffic
  assert.is((await fetch(`${app.url}/health/live`)).status, 200);
});

Health('GET /health/ready: a throwing readiness function is a 503, not a 500', async ({ app }) => {
  report = new Error('boom');
  const res = await fetch(`${app.url}/health/ready`);
  assert.is(res.status, 503);
  const body = (await res.json()) as ReadinessReport;
  assert.is(body.ok, false);
  assert.is(body.checks[0]?.name, 'readiness');
});

Health('GET /metrics: Prometheus text with http_request_duration_seconds by route pattern', async ({ app }) => {
  await (await fetch(`${app.url}/api/platform/things/id-12345`)).arrayBuffer();
  await (await fetch(`${app.url}/no/such/path-67890`)).arrayBuffer();
  const res = await fetch(`${app.url}/metrics`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
  const text = await res.text();
  assert.ok(text.includes('# TYPE http_request_duration_seconds histogram'));
  assert.match(
    text,
    /http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/things\/:id",status="200"\} 1/,
  );
  assert.match(text, /http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1/);
  assert.not.ok(text.includes('id-12345'), 'no raw URL in labels');
  assert.not.ok(text.includes('path-67890'), 'no raw URL in labels');
  assert.ok(text.includes('http_requests_in_flight'));
  assert.ok(text.includes('process_cpu_user_seconds_total'), 'default metrics');
});

Health('other layers can add metrics to the same registry', async ({ app }) => {
  const { Gauge } = await import('prom-client');
  const lag = new Gauge({
    name: 'projection_lag_events',
    help: 'lag',
    labelNames: ['projection'],
    registers: [app.metrics.registry],
  });
  lag.set({ projection: 'tasks' }, 3);
  const text = await (await fetch(`${app.url}/metrics`)).text();
  assert.ok(text.includes('projection_lag_events{projection="tasks"} 3'));
});

Health.run();
