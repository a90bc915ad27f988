import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one: each runs when the one before calls `next()`, an error skips the rest and
 * goes on to the app's error handling, as when they are mounted one by one. Mounted once, the router
 * visits one layer where it visited six: every layer visit costs the router's matching and its closures
 * (the platform's common middlewares were about a third of the layers of a request).
 */
export function middlewareChain(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null && err !== 'route') return next(err);
      const handler = handlers[i++];
      if (handler === undefined) return next();
      try {
        const result = handler(req, res, step) as unknown;
        // an async middleware's rejection goes where a synchronous throw goes
        if (result instanceof Promise) result.catch(step);
      } catch (e) {
        step(e ?? new Error('middleware threw a nullish value'));
      }
    };
    step();
  };
}
