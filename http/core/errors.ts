import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { CORE_ERRORS } from '../../domain/core/core.errors.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { isStoreUnavailable, isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { requestContext } from './request-context.ts';
import { requestLogger } from './request-log.ts';

/**
 * The body of every error answer except the ones an error renders itself (`toResponse`). `moreDetails`:
 * how many details were left out (only present when `details` was cut, see capProblem).
 */
export type Problem = { code: string; message: string; details: unknown; moreDetails?: number };

/** How many details an error answer lists at most; the rest are counted in `moreDetails`. */
export const MAX_ERROR_DETAILS = 20;
/** Longest message an error answer carries (a message that lists every bad field grows with the request). */
export const MAX_ERROR_MESSAGE = 2_000;

/**
 * The one place error answers are kept small: a request with 50,000 unknown keys must
 * not earn a 6 MB answer. A `details` array keeps its first MAX_ERROR_DETAILS entries and the answer says
 * how many more there were (`moreDetails`); an array one level down (`details: { violations: [...] }`) is
 * cut the same way; the message is cut at MAX_ERROR_MESSAGE characters.
 */
export function capProblem(problem: Problem): Problem {
  let more = 0;
  const cut = (list: unknown[]): unknown[] => {
    if (list.length <= MAX_ERROR_DETAILS) return list;
    more += list.length - MAX_ERROR_DETAILS;
    return list.slice(0, MAX_ERROR_DETAILS);
  };
  let details = problem.details;
  if (Array.isArray(details)) details = cut(details);
  else if (typeof details === 'object' && details !== null) {
    const entries = Object.entries(details as Record<string, unknown>);
    if (entries.some(([, v]) => Array.isArray(v) && v.length > MAX_ERROR_DETAILS)) {
      details = Object.fromEntries(entries.map(([k, v]) => [k, Array.isArray(v) ? cut(v) : v]));
    }
  }
  const message =
    problem.message.length > MAX_ERROR_MESSAGE
      ? `${problem.message.slice(0, MAX_ERROR_MESSAGE - 1)}…`
      : problem.message;
  return { code: problem.code, message, details, ...(more > 0 && { moreDetails: more + (problem.moreDetails ?? 0) }) };
}

/**
 * An error that knows its own HTTP answer, e.g. RFC 6749 `{ error, error_description }` for the OAuth
 * endpoints. The middleware sends it untouched.
 */
export type SelfRenderingError = {
  toResponse(): { status: number; body: unknown; headers?: Record<string, string> };
};

export const isSelfRendering = (e: unknown): e is SelfRenderingError =>
  typeof e === 'object' && e !== null && typeof (e as { toResponse?: unknown }).toResponse === 'function';

/** Seconds a client should wait before retrying when a store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;

const send = (res: Response, status: number, problem: Problem, headers: Record<string, string> = {}): void => {
  res.status(status).set(headers).json(capProblem(problem));
};

type CoreCode = keyof typeof CORE_ERRORS;

/** A problem with one of the core catalog's codes, answered with the catalog's status (domain/core/core.errors.ts). */
const sendCore = (
  res: Response,
  code: CoreCode,
  message: string,
  details: unknown,
  headers: Record<string, string> = {},
): void => send(res, CORE_ERRORS[code], { code, message, details }, headers);

// body-parser (and raw-body) tag their errors with a `type`; these are the client's fault.
const BODY_PARSER_ERRORS: Record<string, { code: CoreCode; message: (e: Error) => string }> = {
  'entity.parse.failed': {
    code: 'REQUEST.MALFORMED_JSON',
    // The parser's message only: the stack and the raw body (on `err.body`) stay on the server.
    message: (e) => `malformed JSON body: ${firstLine(e.message)}`,
  },
  'entity.too.large': { code: 'REQUEST.TOO_LARGE', message: () => 'request body too large' },
  'parameters.too.many': { code: 'REQUEST.TOO_LARGE', message: () => 'too many form parameters' },
  'charset.unsupported': { code: 'REQUEST.UNSUPPORTED_CHARSET', message: (e) => firstLine(e.message) },
  'encoding.unsupported': { code: 'REQUEST.UNSUPPORTED_ENCODING', message: (e) => firstLine(e.message) },
  'request.aborted': { code: 'REQUEST.ABORTED', message: () => 'request aborted' },
  'request.size.invalid': { code: 'REQUEST.SIZE_MISMATCH', message: () => 'request size did not match content length' },
};

const firstLine = (s: string): string => (s.split('\n', 1)[0] ?? '').slice(0, 300);

const numericStatus = (e: unknown): number | undefined => {
  if (typeof e !== 'object' || e === null) return undefined;
  const { status, statusCode } = e as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
};

/** `REQUEST.METHOD_NOT_ALLOWED` from 405: a stable code for 4xx errors raised by express or its helpers. */
const codeForStatus = (status: number): string =>
  `REQUEST.${(STATUS_CODES[status] ?? 'CLIENT_ERROR').toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/** The JSON 404 for any request no route answered. Mounted after the service routers. */
export const notFoundHandler = (): RequestHandler => (req, res) => {
  // The path only: a query string may carry credentials and is not echoed back.
  const path = (req.originalUrl ?? req.url).split('?', 1)[0];
  sendCore(res, 'ROUTE.NOT_FOUND', `no route for ${req.method} ${path}`, null);
};

/**
 * The single problem-details error middleware: typed errors to their status, everything unexpected to a
 * bare 500 that names the request id (the stack goes to the log, never to the caller).
 */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err: unknown, req, res, _next) => {
    const log = requestLogger(res, logger);
    if (res.headersSent) {
      // Too late for an error body: cut the connection so the client sees a truncated response rather than
      // a complete-looking one (what express's final handler does, minus its stack dump on stderr).
      log.error({ err }, 'error after the response started');
      req.socket.destroy();
      return;
    }

    if (isSelfRendering(err)) {
      const { status, body, headers } = err.toResponse();
      res
        .status(status)
        .set(headers ?? {})
        .json(body);
      return;
    }

    if (isDomainError(err)) {
      send(res, err.status, { code: err.code, message: err.message, details: err.details ?? null });
      return;
    }

    if (isWrongExpectedRevision(err)) {
      // Reached only when the command handler gave up retrying: the client may re-read and try again.
      sendCore(res, 'CONCURRENCY.CONFLICT', `concurrent change to ${err.stream}, retry`, {
        stream: err.stream,
        expected: err.expected,
        actual: err.actual,
      });
      return;
    }

    if (isStoreUnavailable(err)) {
      log.warn({ err }, 'store unavailable');
      sendCore(res, 'STORE.UNAVAILABLE', `${err.store} is unavailable, retry later`, null, {
        'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
      });
      return;
    }

    const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
    const parserError = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
    if (parserError !== undefined && err instanceof Error) {
      sendCore(res, parserError.code, parserError.message(err), null);
      return;
    }

    const status = numericStatus(err);
    if (status !== undefined && status >= 400 && status < 500) {
      // http-errors marks 4xx messages as safe to show (`expose`); anything else gets the status text.
      const exposed = err instanceof Error && (err as { expose?: unknown }).expose !== false;
      const message = exposed ? firstLine((err as Error).message) : (STATUS_CODES[status] ?? 'client error');
      send(res, status, { code: codeForStatus(status), message, details: null });
      return;
    }

    let requestId: string | undefined;
    try {
      requestId = requestContext(res).requestId;
    } catch {
      requestId = undefined;
    }
    log.error({ err, method: req.method, path: (req.originalUrl ?? req.url).split('?', 1)[0] }, 'unhandled error');
    sendCore(res, 'INTERNAL', 'internal error', { requestId: requestId ?? null });
  };
