import type { Express } from 'express';
import express, { Router } from 'express';
import type { Logger } from 'pino';
import { jsonBodyLimits } from './body-limits.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import { healthRouter, type ReadinessReport } from './health.ts';
import type { HttpMetrics } from './metrics.ts';
import { middlewareChain } from './middleware-chain.ts';
import { requestContextMiddleware } from './request-context.ts';
import { requestLogging } from './request-log.ts';
import { gatedRouter } from './router-gate.ts';
import { wellFormedBodies } from './well-formed.ts';
import { wholeBodies } from './whole-body.ts';

export type ServiceName = 'bridge' | 'identity' | 'audit' | 'workflow' | 'hub' | 'portal' | 'operations';

/** A service's router. It is mounted at `/` and declares the spec's full paths (`/api/platform/…`, `/cas/…`). */
export type ServiceRouter = { service: ServiceName; router: Router };

export type AppOptions = {
  routers: ServiceRouter[];
  logger: Logger;
  metrics: HttpMetrics;
  readiness: () => Promise<ReadinessReport>;
  /** largest accepted JSON or form body (bytes library syntax), default '1mb' */
  bodyLimit?: string;
  /** open an AsyncLocalStorage context per request (currentRequestContext); off by default, see request-context.ts */
  asyncRequestContext?: boolean;
};

/** '1mb', '512kb', '100b' or a number of bytes (the subset of the bytes library's syntax we use). */
const bytesOf = (limit: string): number => {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (m === null) throw new Error(`bodyLimit ${limit} is not a size such as 1mb`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
};

/** The router of a service not built yet: answers nothing, so its paths fall through to the JSON 404. */
export const emptyServiceRouter = (): Router => Router();

/**
 * The express app all services share. Order matters: the request context first (everything after logs
 * with its ids), then logging and metrics (so they see every request, including rejected ones), body
 * parsers and the input limits of every body, health and metrics, the service routers, the 404 and finally the one error middleware.
 */
export function createApp(options: AppOptions): Express {
  const { routers, logger, metrics, readiness, bodyLimit = '1mb' } = options;
  const seen = new Set<ServiceName>();
  for (const { service } of routers) {
    if (seen.has(service)) throw new Error(`service router ${service} given twice`);
    seen.add(service);
  }

  const app = express();
  app.disable('x-powered-by');
  // no weak ETags: express would SHA-1 every answer (and copy it into a Buffer first) for conditional GETs
  // that no client of these APIs makes; their answers change with every write anyway
  app.set('etag', false);

  // the common middlewares, in this order, as one layer (middleware-chain.ts)
  app.use(
    middlewareChain([
      requestContextMiddleware({ asyncContext: options.asyncRequestContext === true }),
      requestLogging({ logger, metrics }),
      // `application/*+json` too, e.g. merge-patch and SCIM bodies.
      express.json({ limit: bodyLimit, type: ['application/json', 'application/*+json'] }),
      // Flat forms are all the OAuth endpoints need; `extended` (qs) would build nested objects from names.
      express.urlencoded({ limit: bodyLimit, extended: false }),
      // No route runs on a body that did not arrive whole: cut-off bodies stop here, unparsed ones are read to
      // their end first (whole-body.ts).
      wholeBodies({ limitBytes: bytesOf(bodyLimit) }),
      // Input limits (depth, keys, lengths) before anything walks the body: 400 REQUEST.LIMIT_EXCEEDED.
      jsonBodyLimits(),
      // Text the platform makes ids, keys and hashes of: a lone surrogate is 400 REQUEST.INVALID naming the field.
      wellFormedBodies(),
    ]),
  );

  app.use(gatedRouter(healthRouter({ readiness, registry: metrics.registry, logger })));
  // each router only sees the paths it can answer (router-gate.ts): no walk through every service's routes
  for (const { router } of routers) app.use(gatedRouter(router));

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
