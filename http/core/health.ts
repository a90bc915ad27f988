import { Router } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { requestLogger } from './request-log.ts';

/** What readiness found. `lag` is for projections: events between the log's head and the checkpoint. */
export type ReadinessCheck = { name: string; ok: boolean; detail?: string; lag?: number };
export type ReadinessReport = { ok: boolean; checks: ReadinessCheck[] };

/**
 * `GET /health/live` (the process answers), `GET /health/ready` (the stores answer and projections keep
 * up; 503 takes the instance out of a load balancer without restarting it) and `GET /metrics`.
 * Mounted before the service routers, so no service's auth applies to them.
 */
export function healthRouter(options: {
  readiness: () => Promise<ReadinessReport>;
  registry: Registry;
  logger: Logger;
}): Router {
  const { readiness, registry, logger } = options;
  const router = Router();

  router.get('/health/live', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/health/ready', async (_req, res) => {
    let report: ReadinessReport;
    try {
      report = await readiness();
    } catch (err) {
      // A readiness function that throws is itself a failed check, not a 500.
      requestLogger(res, logger).warn({ err }, 'readiness check threw');
      report = { ok: false, checks: [{ name: 'readiness', ok: false, detail: 'readiness check failed' }] };
    }
    res
      .set('Cache-Control', 'no-store')
      .status(report.ok ? 200 : 503)
      .json(report);
  });

  router.get('/metrics', async (_req, res) => {
    const body = await registry.metrics();
    res.set('Content-Type', registry.contentType).set('Cache-Control', 'no-store').send(body);
  });

  return router;
}
