import type { Request } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The HTTP metrics of one process, on a registry the caller owns. Other layers register their own
 * metrics (projection lag, queue depth) on the same `registry`, so `GET /metrics` serves them all.
 */
export type HttpMetrics = {
  readonly registry: Registry;
  /** `http_request_duration_seconds{method, route, status}` */
  readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** `http_requests_in_flight`: requests received whose response has not finished */
  readonly requestsInFlight: Gauge;
};

/**
 * Creates the HTTP metrics and the default process metrics (CPU, memory, event loop lag) on `registry`.
 * Call once per registry: prom-client refuses to register the same metric name twice.
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests from arrival to the end of the response, by route pattern',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requestsInFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests currently being served',
    registers: [registry],
  });
  return { registry, requestDuration, requestsInFlight };
}

/**
 * The `route` label: the matched route pattern (`/api/platform/rules/:id`), never the raw URL, whose ids
 * would make one time series per resource. Requests no route matched share `unmatched`.
 *
 * Read when the response finishes. Service routers are mounted at `/` and carry full paths, so
 * `req.baseUrl` is empty there; a sub-router's mount path is kept when the route answered itself.
 */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route === undefined || route.path === undefined) return 'unmatched';
  const path = typeof route.path === 'string' ? route.path : String(route.path);
  return `${req.baseUrl ?? ''}${path}` || '/';
}
