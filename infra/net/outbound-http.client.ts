import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import {
  type HttpClient,
  type HttpFailure,
  type HttpRequest,
  type HttpResponse,
  isDestinationRefused,
} from '../core/http-client.port.ts';
import { createOutboundAllowlist, type OutboundAllowlist } from './outbound-allow.ts';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after.ts';
import { createGuardedConnector, createSsrfGuard, destinationRefused, type Resolver } from './ssrf.guard.ts';
import { webhookHeaders } from './webhook-signature.ts';

/**
 * The HttpClient port on undici (one keep-alive connection pool per origin): the platform's only way out
 * over HTTP (bridge targets, OAuth token fetches, hub webhooks). What every call gets, in order:
 *
 * 1. the SSRF guard (ssrf.guard.ts): the URL's host checked before anything is sent, and again at connect
 *    on the address actually connected to; refused: a DestinationRefusedError naming the address and why;
 * 2. a timeout: the request's `timeoutMs`, else the client's (default 10 s), besides the caller's signal;
 *    it covers the whole exchange, the body included;
 * 3. `Idempotency-Key`: the request's `idempotencyId` (stable across a delivery's retries), else a fresh
 *    UUID; the platform's value replaces one the caller put in `headers`;
 * 4. with `signing`: Standard Webhooks headers (webhook-signature.ts), `webhook-id` = the idempotency id,
 *    `webhook-timestamp` = now (the real clock: receivers compare it with theirs);
 * 5. the answer: every status resolves (a 500 is an answer, not an error); header names lower case,
 *    repeated ones joined by ", "; the body as UTF-8 text, at most `maxBodyBytes` (default 1 MiB; the rest
 *    is dropped and the connection closed); on 429 and 503 `retryAfterMs` from `Retry-After` (capped at 1 h).
 *
 * Redirects are never followed: a 3xx comes back as it is, with its `location`, and callers treat it as a
 * failure (following it could send an event, or a bearer token, to a host nobody configured, or around
 * the guard).
 *
 * Rejections are Errors whose message names the cause (`connect ECONNREFUSED 127.0.0.1:9`, `aborted: timed
 * out after 5000 ms`, `destination refused: …`); an abort keeps the name `AbortError` or `TimeoutError`.
 * Each carries `failure` (the port's HttpFailure): `connect` when nothing was sent (DNS, refused, connect
 * timeout, TLS handshake, the SSRF guard), `exchange` when the request may have arrived.
 *
 * Timeouts per call: `connectTimeoutMs` (the connection; one connection pool per distinct value),
 * `readTimeoutMs` (waiting for headers, and between body chunks, once sent), and `timeoutMs` over the whole
 * exchange as before.
 */
export type OutboundHttpClientOptions = {
  /** OUTBOUND_ALLOW entries (host names, addresses, CIDR blocks), or an allowlist; default: none */
  allow?: string | readonly string[] | OutboundAllowlist;
  /** default per-call timeout in ms (default 10,000) */
  timeoutMs?: number;
  /** default connect timeout in ms for calls that name none (default: none of its own; undici's 10 s and timeoutMs apply) */
  connectTimeoutMs?: number;
  /** largest response body kept, in bytes (default 1 MiB) */
  maxBodyBytes?: number;
  /** DNS (tests: a hostile resolver); default the system's */
  resolve?: Resolver;
  /** the clock of `webhook-timestamp` and HTTP-date `Retry-After` (default Date.now) */
  now?: () => number;
  /** largest `retryAfterMs` answered (default 1 hour) */
  maxRetryAfterMs?: number;
};

export type OutboundHttpClient = HttpClient & {
  /** closes the connection pool (idle keep-alive sockets never hold the process open anyway) */
  close(): Promise<void>;
};

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

const isAllowlist = (a: OutboundHttpClientOptions['allow']): a is OutboundAllowlist =>
  typeof a === 'object' && a !== null && 'allowsAddress' in a;

export function createOutboundHttpClient(options: OutboundHttpClientOptions = {}): OutboundHttpClient {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const allow = isAllowlist(options.allow) ? options.allow : createOutboundAllowlist(options.allow);
  const guard = createSsrfGuard({ allow, ...(options.resolve !== undefined && { resolve: options.resolve }) });
  const agent = new Agent({ connect: createGuardedConnector(guard) });
  // one pool per connect timeout (the connector carries it); a handful of distinct values in practice
  const agents = new Map<number, Agent>();
  const agentFor = (connectTimeoutMs: number | undefined): Agent => {
    if (connectTimeoutMs === undefined) return agent;
    let a = agents.get(connectTimeoutMs);
    if (a === undefined) {
      a = new Agent({ connect: createGuardedConnector(guard, { timeoutMs: connectTimeoutMs }) });
      agents.set(connectTimeoutMs, a);
    }
    return a;
  };

  async function send(request: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
    const outer = request.signal;
    if (outer?.aborted) throw describe(undefined, outer);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw destinationRefused(`${JSON.stringify(request.url.slice(0, 200))} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw destinationRefused(`${url.protocol} URLs are not called (http and https only)`);

    // one signal for the caller's deadline and this call's timeout, cleared when the call is over
    const controller = new AbortController();
    const signal = controller.signal;
    const timer = setTimeout(
      () => controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    const onAbort = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      try {
        await untilAborted(guard.check(url.hostname), signal);
      } catch (err) {
        throw describe(err, signal, 'connect');
      }
      const body = request.body ?? '';
      const headers = platformHeaders(request, body);
      let res: Dispatcher.ResponseData;
      try {
        res = await agentFor(request.connectTimeoutMs ?? options.connectTimeoutMs).request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: request.method.toUpperCase() as Dispatcher.HttpMethod,
          headers,
          ...(request.body !== undefined && { body: request.body }),
          ...(request.readTimeoutMs !== undefined && {
            headersTimeout: request.readTimeoutMs,
            bodyTimeout: request.readTimeoutMs,
          }),
          signal,
        });
      } catch (err) {
        throw describe(err, signal);
      }
      let text: string;
      try {
        text = await readText(res.body, maxBodyBytes);
      } catch (err) {
        throw describe(err, signal);
      }
      const answer: HttpResponse = { status: res.statusCode, headers: flatHeaders(res.headers), body: text };
      if (res.statusCode === 429 || res.statusCode === 503) {
        const wait = parseRetryAfter(answer.headers['retry-after'], now(), maxRetryAfterMs);
        if (wait !== undefined) answer.retryAfterMs = wait;
      }
      return answer;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  }

  /** the caller's headers, then what the platform sets (its values win, whatever the caller's spelling) */
  function platformHeaders(request: HttpRequest, body: string): Record<string, string> {
    const id = request.idempotencyId ?? randomUUID();
    const own: Record<string, string> = { 'idempotency-key': id };
    const secrets = request.signing?.secrets ?? [];
    if (secrets.length > 0) Object.assign(own, webhookHeaders(id, Math.floor(now() / 1000), body, secrets));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {}))
      if (!Object.hasOwn(own, name.toLowerCase())) headers[name] = value;
    return Object.assign(headers, own);
  }

  return { send, close: async () => void (await Promise.all([agent, ...agents.values()].map((a) => a.close()))) };
}

function flatHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The body as UTF-8 text, cut at `max` bytes (the stream is destroyed then, closing the connection). */
async function readText(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = max - size;
    if (chunk.byteLength >= room) {
      chunks.push(chunk.subarray(0, room));
      size = max;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  // a multi-byte character cut at the limit decodes to U+FFFD: acceptable for a capped body
  return Buffer.concat(chunks, size).toString('utf8');
}

/** `promise`, or the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled, only left) */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** A readable Error from what undici threw; an abort named by its reason (TimeoutError or AbortError). */
function describe(err: unknown, signal: AbortSignal | undefined, stage?: 'connect'): Error {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const name = reason instanceof Error ? reason.name : 'AbortError';
    const why = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
    const e = new Error(`aborted: ${why}`, { cause: err ?? reason });
    e.name = name === 'TimeoutError' ? 'TimeoutError' : 'AbortError';
    // the overall timeout or the caller's abort: whether the request went out is not known
    return withFailure(e, { phase: stage ?? 'exchange', reason: name === 'TimeoutError' ? 'timeout' : 'aborted' });
  }
  if (err instanceof Error) {
    if (isDestinationRefused(err)) return withFailure(err, { phase: 'connect', reason: 'destination-refused' });
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : undefined;
    const e = new Error(
      detail !== undefined && detail !== '' && detail !== err.message ? `${err.message}: ${detail}` : err.message,
      { cause: err },
    );
    if (err.name === 'AbortError' || err.name === 'TimeoutError') e.name = err.name;
    return withFailure(e, failureOf(err, stage));
  }
  return withFailure(new Error(String(err)), { phase: stage ?? 'exchange', reason: 'network' });
}

const withFailure = (e: Error, failure: HttpFailure): Error => Object.assign(e, { failure });

const CONNECT_CODES: Record<string, HttpFailure['reason']> = {
  ECONNREFUSED: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
  EHOSTDOWN: 'network',
  EADDRNOTAVAIL: 'network',
};

/** what undici's (or the socket's) error code says about where the call failed */
function failureOf(err: Error, stage: 'connect' | undefined): HttpFailure {
  const codes: string[] = [];
  for (let e: unknown = err; e instanceof Error && codes.length < 4; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  for (const code of codes) {
    const connect = CONNECT_CODES[code];
    if (connect !== undefined) return { phase: 'connect', reason: connect };
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return { phase: 'exchange', reason: 'timeout' };
    if (
      code.startsWith('ERR_TLS') ||
      code.startsWith('ERR_SSL') ||
      /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(code)
    )
      return { phase: 'connect', reason: 'tls' };
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
      return { phase: stage ?? 'exchange', reason: 'reset' };
  }
  return { phase: stage ?? 'exchange', reason: 'network' };
}
