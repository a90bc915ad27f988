import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { isStoreUnavailable } from '../../../infra/core/store-errors.ts';
import { errorPage, sendPage } from '../pages.ts';
import { PageError } from './authorize.errors.ts';

/**
 * A browser endpoint that catches its own failures: a browser gets a page, never JSON or a stack.
 * A PageError is shown as it is; a store outage is 503 with Retry-After; anything else 500, logged.
 */
export const pageHandler =
  (log: Logger | undefined) =>
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  async (req, res) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (err instanceof PageError) return sendPage(res, err.status, errorPage(err.title, err.message));
      const unavailable = isStoreUnavailable(err);
      log?.[unavailable ? 'warn' : 'error']({ err, path: req.path }, 'identity page failed');
      sendPage(
        res,
        unavailable ? 503 : 500,
        errorPage(
          'Something went wrong',
          'The sign-in service could not complete your request. Please try again later.',
        ),
        unavailable ? { 'Retry-After': '5' } : {},
      );
    }
  };
