import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { HttpMetrics } from './metrics.ts';
import { routeLabel } from './metrics.ts';
import { requestContext } from './request-context.ts';

/**
 * One structured log line and one histogram observation per request, when the response finishes (or the
 * client goes away first). Logs the method, route pattern, path, status, duration and the two ids:
 * never bodies, headers or query strings, which carry credentials (bearer tokens, OAuth codes, passwords
 * in form posts).
 *
 * Also keeps the request-scoped child logger's maker in `res.locals.log` (see `requestLogger`): the child
 * is made only when a handler or the error middleware logs.
 */
export const requestLogging = (options: { logger: Logger; metrics: HttpMetrics }): RequestHandler => {
  const { logger, metrics } = options;
  const info = (): boolean => logger.isLevelEnabled('info');
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { requestId, correlationId } = requestContext(res);
    // most requests log only their completion line, written below with the two ids: no child for them
    let log: Logger | undefined;
    const childLog = (): Logger => (log ??= logger.child({ requestId, correlationId }));
    res.locals.log = childLog;
    metrics.requestsInFlight.inc();

    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      metrics.requestsInFlight.dec();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      // a response that never finished (client hung up) is labelled by what it had set so far
      const aborted = !res.writableFinished;
      const status = res.statusCode;
      metrics.requestDuration.observe({ method: req.method, route, status: String(status) }, seconds);
      if (!info()) return;
      logger.info(
        {
          requestId,
          correlationId,
          method: req.method,
          route,
          path: (req.originalUrl ?? req.url).split('?', 1)[0],
          status,
          ms: Math.round(seconds * 1e6) / 1e3,
          ...(aborted ? { aborted: true } : {}),
        },
        'request completed',
      );
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
};

/** The request-scoped logger (bound to requestId and correlationId), for handlers and the error middleware. */
export const requestLogger = (res: { locals: Record<string, unknown> }, fallback: Logger): Logger =>
  (res.locals.log as (() => Logger) | undefined)?.() ?? fallback;
