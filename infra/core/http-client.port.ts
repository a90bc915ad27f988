/**
 * Outbound HTTP (bridge targets, OAuth token fetches, hub webhooks): the platform's only way out. The
 * adapter (infra/net/outbound-http.client.ts) applies to every call:
 * - a timeout (the request's `timeoutMs`, else the client's default) besides the caller's signal;
 * - an idempotency id: `Idempotency-Key` on every call (the caller's `idempotencyId`, stable across the
 *   retries of one logical call, e.g. a delivery id; a fresh one for a call nobody repeats);
 * - Standard Webhooks signing when `signing` is given (`webhook-id` = the idempotency id);
 * - `Retry-After` read on 429 and 503 (`retryAfterMs`);
 * - the SSRF guard: a destination on a loopback, private, link-local, CGNAT, unique-local or metadata
 *   address (after DNS resolution and again at connect) is refused unless allowlisted (OUTBOUND_ALLOW).
 *   The rejection is a DestinationRefusedError (`isDestinationRefused`): retrying cannot help.
 * - redirects are never followed: a 3xx comes back as it is.
 */
export type HttpRequest = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** aborts the call (the caller's deadline); the client's timeout applies as well */
  signal?: AbortSignal;
  /** this call's timeout in ms (default: the client's), covering connect, headers and body */
  timeoutMs?: number;
  /**
   * the connection's own deadline in ms (DNS, TCP connect, TLS); past it the call rejects with a `connect`
   * failure (nothing was sent). Absent: the client's `connectTimeoutMs` option, else only `timeoutMs` bounds it.
   */
  connectTimeoutMs?: number;
  /**
   * once the request is sent: how long to wait for the response headers, and between body chunks; past it
   * the call rejects with an `exchange` timeout (the receiver may have the request). Absent: only `timeoutMs`.
   */
  readTimeoutMs?: number;
  /**
   * the stable id of the logical call (a delivery id): sent as `Idempotency-Key` and, when signed, as
   * `webhook-id`, so the receiver deduplicates retries. Absent: a fresh id per call.
   */
  idempotencyId?: string;
  /**
   * Standard Webhooks signing (`webhook-id`, `webhook-timestamp`, `webhook-signature`): one `v1,` HMAC-SHA256
   * signature per secret (`whsec_` + base64), space-separated (two during a secret rotation's overlap).
   * No secrets: sent unsigned.
   */
  signing?: { secrets: readonly string[] };
};

export type HttpResponse = {
  status: number;
  /** lower-case names; repeated headers joined by ", " */
  headers: Record<string, string>;
  body: string;
  /** a 429 or 503 with a usable `Retry-After` (seconds or an HTTP date): how long to wait, capped */
  retryAfterMs?: number;
};

export type HttpClient = {
  /**
   * resolves for every HTTP status; rejects on network errors, timeouts (name `TimeoutError`), aborts
   * (`AbortError`) and refused destinations (DestinationRefusedError); every rejection carries `failure`
   * (httpFailureOf) saying whether the request could have reached the receiver
   */
  send(request: HttpRequest): Promise<HttpResponse>;
};

/**
 * Where and how a call failed, for callers that must tell "nothing was sent" from "the receiver may have
 * it" (the hub's webhook classification):
 * - `connect`: before any byte of the request left (DNS, TCP connect, TLS handshake, the SSRF guard's
 *   refusal, the connect timeout);
 * - `exchange`: after the connection was up: the request may have been received (a reset, a read timeout,
 *   an abort, the overall timeout, whose phase is not known and so counts as this one).
 */
export type HttpFailure = {
  phase: 'connect' | 'exchange';
  reason: 'refused' | 'timeout' | 'reset' | 'tls' | 'dns' | 'network' | 'aborted' | 'destination-refused';
};

/** the failure a rejection of `send` carries (undefined for other errors) */
export const httpFailureOf = (err: unknown): HttpFailure | undefined =>
  err instanceof Error && typeof (err as { failure?: unknown }).failure === 'object'
    ? ((err as { failure?: HttpFailure }).failure ?? undefined)
    : undefined;

/** `code` of the error a refused destination rejects with. */
export const DESTINATION_REFUSED = 'DESTINATION_REFUSED';

/**
 * The SSRF guard's refusal: the message says why (`destination refused: 127.0.0.1 is a loopback address
 * (allow it with OUTBOUND_ALLOW)`). Callers treat it as final: the same destination is refused again.
 */
export type DestinationRefusedError = Error & { code: typeof DESTINATION_REFUSED; retryable: false };

export const isDestinationRefused = (err: unknown): err is DestinationRefusedError =>
  err instanceof Error && (err as { code?: unknown }).code === DESTINATION_REFUSED;
