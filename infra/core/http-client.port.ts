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
   * (`AbortError`) and refused destinations (DestinationRefusedError)
   */
  send(request: HttpRequest): Promise<HttpResponse>;
};

/** `code` of the error a refused destination rejects with. */
export const DESTINATION_REFUSED = 'DESTINATION_REFUSED';

/**
 * The SSRF guard's refusal: the message says why (`destination refused: 127.0.0.1 is a loopback address
 * (allow it with OUTBOUND_ALLOW)`). Callers treat it as final: the same destination is refused again.
 */
export type DestinationRefusedError = Error & { code: typeof DESTINATION_REFUSED; retryable: false };

export const isDestinationRefused = (err: unknown): err is DestinationRefusedError =>
  err instanceof Error && (err as { code?: unknown }).code === DESTINATION_REFUSED;
