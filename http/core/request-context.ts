import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Who is asking, for logs and for event metadata. `requestId` names this one HTTP request; `correlationId`
 * names the whole conversation (a caller that fans out passes its own id on, so every event caused by one
 * user action shares it).
 */
export type RequestContext = { readonly requestId: string; readonly correlationId: string };

/** The metadata fields a command handler copies into every event it appends (see domain/core/event.ts). */
export type CommandMetadata = {
  tenant: string;
  actor?: string;
  correlationId: string;
  /** the request that caused the command: the event's direct cause */
  causationId: string;
};

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

// Caller-supplied ids end up in logs, response headers and event metadata: accept only short, plain
// tokens (no spaces, quotes or control characters), otherwise mint our own.
const SANE_TOKEN = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

const storage = new AsyncLocalStorage<RequestContext>();

const headerToken = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' && SANE_TOKEN.test(value) ? value : undefined;
};

/**
 * First middleware of the app: assigns the ids, echoes them, and (with `asyncContext`) opens the async
 * context that `currentRequestContext()` reads. Off by default: on Node 20 an entered AsyncLocalStorage
 * keeps promise hooks on, and every promise of every request pays for them; the app's own code reads the
 * context from `res.locals` (requestContext(req | res)).
 */
export const requestContextMiddleware =
  (o: { asyncContext?: boolean } = {}): RequestHandler =>
  (req, res, next) => {
    const requestId = headerToken(req, REQUEST_ID_HEADER) ?? randomUUID();
    const correlationId = headerToken(req, CORRELATION_ID_HEADER) ?? requestId;
    const context: RequestContext = Object.freeze({ requestId, correlationId });
    res.locals.context = context;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.setHeader(CORRELATION_ID_HEADER, correlationId);
    if (o.asyncContext === true) storage.run(context, next);
    else next();
  };

/**
 * Re-enters the request's async context. Not needed for the app's own chain (the body parsers keep the
 * context, see spec/http/core/request-context.spec.ts), but a middleware that resumes `next` from a callback
 * of something created outside the request (a connection pool, a cache client) runs in that thing's
 * async context; a router using one mounts this right after it.
 */
export const rebindRequestContext = (): RequestHandler => (_req, res, next) => {
  const context = res.locals.context as RequestContext | undefined;
  if (context === undefined) return next();
  storage.run(context, next);
};

// Only the response carries `locals`; the request reaches it through `req.res`.
const isResponse = (x: Request | Response): x is Response => 'locals' in x;

/**
 * The ids of the request being served. Pass `req` or `res`; throws when the request did not pass through
 * `requestContextMiddleware` (a wiring bug, not a client error).
 */
export function requestContext(reqOrRes: Request | Response): RequestContext {
  const res = isResponse(reqOrRes) ? reqOrRes : reqOrRes.res;
  const context = (res?.locals.context as RequestContext | undefined) ?? storage.getStore();
  if (context === undefined) throw new Error('no request context: requestContextMiddleware is not mounted');
  return context;
}

/** The context of the request whose async work is running, if any (for code that has no `req`/`res`). */
export const currentRequestContext = (): RequestContext | undefined => storage.getStore();

/**
 * The metadata a command handler puts into its events: this is how the request and correlation ids reach
 * the event log. The request id becomes the causation id.
 */
export function commandMetadata(
  reqOrRes: Request | Response,
  extra: { tenant: string; actor?: string },
): CommandMetadata {
  const { requestId, correlationId } = requestContext(reqOrRes);
  const metadata: CommandMetadata = { tenant: extra.tenant, correlationId, causationId: requestId };
  if (extra.actor !== undefined) metadata.actor = extra.actor;
  return metadata;
}

/** For tests and for code that runs request-scoped work outside express. */
export const runWithRequestContext = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);
