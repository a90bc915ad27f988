import type { NextFunction, Request, RequestHandler, Response } from 'express';

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/**
 * Several middlewares as one: each runs when the one before calls `next()`; an error skips the rest and
 * goes on to the app's error handling, as when they are mounted one by one (router 2's rules: a falsy
 * value or 'route' is no error, 'router' leaves the router, a throw or a rejected promise is an error).
 * Mounted once, the router visits one layer where it visited six: every layer visit costs the router's
 * matching and its closures (the platform's common middlewares were about a third of a request's layers).
 * Error handlers (four arguments) have no place in it.
 */
export function middlewareChain(handlers: RequestHandler[]): RequestHandler {
  if (handlers.some((h) => h.length > 3))
    throw new TypeError('middlewareChain: an error handler (4 arguments) cannot be chained');
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err === 'router' || (err && err !== 'route')) {
        next(err);
        return;
      }
      const handler = handlers[i++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        const result = handler(req, res, step) as unknown;
        if (isPromise(result)) result.then(undefined, (e: unknown) => step(e || new Error('Rejected promise')));
      } catch (e) {
        step(e);
      }
    };
    step();
  };
}
