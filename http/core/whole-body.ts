import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * No handler runs on a request whose body did not arrive whole.
 *
 * Why it is needed: when a body is malformed on the wire (a chunked body with the chunk size `zz`), Node's
 * HTTP parser answers `400 Connection: close` itself and destroys the socket. body-parser then takes the
 * request for one whose body was "already parsed" (`on-finished` says a request on a destroyed socket is
 * finished) and calls `next()` without an error and without a body; a route that needs no body (POST
 * /cas/exchange-code/get with a bearer token) would go on and issue a code nobody ever receives. And a
 * body no parser reads (no Content-Type, `text/plain`) is never waited for at all: the handler would run
 * while the rest of the request is still on its way, so a body that breaks later could not stop it.
 *
 * So, after the body parsers, for every request that has a body:
 * - read to its end by a parser (`req.complete`): well formed, go on;
 * - cut off (socket destroyed, stream ended early): `request.aborted` (400 REQUEST.ABORTED, which nobody
 *   receives: the connection is gone), never the route;
 * - not read by any parser: read and discarded here, up to `limitBytes` (413 REQUEST.TOO_LARGE beyond it),
 *   and only once it ended well does the route run. Media types a route streams itself (`streamed`,
 *   default multipart/*: the upload routes feed busboy, which reports a broken body as the route's error)
 *   are left alone.
 */
export type WholeBodyOptions = { limitBytes: number; streamed?: RegExp };

const DEFAULT_STREAMED = /^multipart\//i;

const bodyError = (message: string, type: string, status: number): Error =>
  Object.assign(new Error(message), { type, status, statusCode: status, expose: true });
const aborted = () => bodyError('request aborted', 'request.aborted', 400);
const tooLarge = () => bodyError('request entity too large', 'entity.too.large', 413);

/** type-is's rule: a request has a body when it says how it is framed (Transfer-Encoding or Content-Length). */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;

const cutOff = (req: IncomingMessage): boolean =>
  req.destroyed || req.socket === null || req.socket.destroyed || req.readableAborted;

export function wholeBodies(options: WholeBodyOptions): RequestHandler {
  const streamed = options.streamed ?? DEFAULT_STREAMED;
  return (req, _res, next) => {
    if (!hasBody(req) || req.complete) return next();
    if (cutOff(req)) return next(aborted());
    if (streamed.test(req.headers['content-type'] ?? '')) return next();
    drain(req, options.limitBytes, next);
  };
}

/** Reads the body to its end and throws it away; `done()` once it ended well, `done(err)` otherwise. */
function drain(req: IncomingMessage, limitBytes: number, done: (err?: unknown) => void): void {
  let size = 0;
  let finished = false;
  const finish = (err?: Error) => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
    done(err);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) finish(tooLarge()); // the rest is dumped by Node once the 413 is sent
  };
  const onEnd = () => finish(req.complete ? undefined : aborted());
  const onError = () => finish(aborted());
  const onClose = () => finish(req.complete ? undefined : aborted());
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  req.resume();
}
