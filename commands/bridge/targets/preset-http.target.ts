import { RECEIVED_EVENT_PATH } from '../../../domain/bridge/bridge.paths.ts';
import { type HttpClient, isDestinationRefused } from '../../../infra/core/http-client.port.ts';
import { type DeliveryOutcome, TARGET_TYPES, type TargetAdapter } from '../delivery.contracts.ts';

/**
 * The preset HTTP client target (TypeId 3): POSTs the BODY as JSON to the receive-event endpoint of a
 * service named by SERVICE_NAME, the receiving side being the SDK's `receivedEventHandler`
 * (http/bridge/sdk/receiver.ts, the spec's `EventReceivedRest.receivedEvent(payload)`).
 *
 * - SERVICE_NAME (CONSTANT, or ENV_PARAM resolved by the engine) is looked up in the service registry at
 *   delivery time (the rule tenant's entry, else the platform's; admin API
 *   `…/admin/v1/services`, seeded from SERVICE_REGISTRY): a changed URL counts for the next delivery. An
 *   unknown name fails without retry, naming it.
 * - The request: `POST <base URL><receivePath>` (the entry's receive path, default
 *   `/eventbridge/receivedEvent`, where a service mounts the SDK's handler), body `JSON.stringify(BODY)` — a string BODY therefore travels as a JSON
 *   string, which a receiver parses with `express.json({ strict: false })` — and the headers
 *   `Content-Type: application/json`, `X-Delivery-Id` and `Idempotency-Key` (the delivery id, stable per
 *   delivery: the receiver deduplicates with it), `X-Event-Id`, `X-Event-Source`, `X-Event-Type` and
 *   `X-Delivery-Attempt` (1, 2, …).
 * - Outcomes: 2xx delivered; 408, 429 and 5xx retryable; a 3xx fails without retry (redirects are never
 *   followed: the registry names the right URL); any other 4xx fails without retry; a network error or
 *   the per-call timeout (the request's AbortSignal) is retryable; a 429 or 503's Retry-After comes back as
 *   `retryAfterMs`. A base URL the outbound client's SSRF guard refuses (a loopback or private address not
 *   in OUTBOUND_ALLOW) fails without retry, saying so.
 */
/**
 * Service name (and the rule's tenant, whose registry comes first) → the base URL, or the base URL with its
 * own receive path; undefined when unknown.
 */
export type ServiceRegistry = (
  serviceName: string,
  ruleTenant: string,
) =>
  | string
  | { baseUrl: string; receivePath?: string }
  | undefined
  | null
  | Promise<string | { baseUrl: string; receivePath?: string } | undefined | null>;

export type PresetHttpTargetDeps = {
  http: HttpClient;
  /** service name → base URL (scheme, host, port, optional path prefix), or the URL and its receive path */
  registry: ServiceRegistry;
  /** appended to a base URL that comes without its own (default RECEIVED_EVENT_PATH) */
  receivePath?: string;
};

/** A registry over a plain map (config.serviceRegistry), immune to inherited names (`constructor`). */
export const serviceRegistryFrom =
  (map: Readonly<Record<string, string>>): ServiceRegistry =>
  (name) =>
    Object.hasOwn(map, name) ? map[name] : undefined;

/** Header values must be visible ASCII: anything else is percent-encoded (and CR/LF cannot sneak in). */
const headerValue = (s: string) => s.slice(0, 512).replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
const clip = (s: string, n = 300) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

export function createPresetHttpTarget(deps: PresetHttpTargetDeps): TargetAdapter {
  const { http, registry } = deps;
  const receivePath = (() => {
    const p = deps.receivePath ?? RECEIVED_EVENT_PATH;
    return p.startsWith('/') ? p : `/${p}`;
  })();
  const bad = (error: string, httpStatus?: number): DeliveryOutcome => ({
    ok: false,
    retryable: false,
    error,
    ...(httpStatus !== undefined && { httpStatus }),
  });
  const again = (error: string, httpStatus?: number, retryAfterMs?: number): DeliveryOutcome => ({
    ok: false,
    retryable: true,
    error,
    ...(httpStatus !== undefined && { httpStatus }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });

  return {
    typeId: TARGET_TYPES.presetHttp,
    async deliver(request) {
      const rawName = request.params.SERVICE_NAME;
      const service = typeof rawName === 'string' ? rawName.trim() : '';
      if (service === '') return bad('SERVICE_NAME: no service named');
      const found = await registry(service, request.ruleTenant);
      if (found === undefined || found === null) {
        return bad(
          `SERVICE_NAME: no service ${JSON.stringify(service.slice(0, 100))} in the service registry (of tenant ${request.ruleTenant} or the platform: …/admin/v1/services, SERVICE_REGISTRY)`,
        );
      }
      const base = typeof found === 'string' ? found : found.baseUrl;
      const path =
        typeof found === 'string' || found.receivePath === undefined
          ? receivePath
          : found.receivePath.startsWith('/')
            ? found.receivePath
            : `/${found.receivePath}`;
      if (request.params.BODY === undefined) return bad('BODY: no body');
      let body: string;
      try {
        body = JSON.stringify(request.params.BODY);
      } catch (err) {
        return bad(`BODY: not serialisable as JSON (${err instanceof Error ? err.message : String(err)})`);
      }
      const url = `${base.replace(/\/+$/, '')}${path}`;
      const { signal } = request;
      if (signal.aborted) return again(`${service}: timed out before sending`);
      let res;
      try {
        res = await http.send({
          method: 'POST',
          url,
          headers: {
            'content-type': 'application/json',
            'x-delivery-id': headerValue(request.deliveryId),
            'x-event-id': headerValue(request.event.id),
            'x-event-source': headerValue(request.event.source),
            'x-event-type': headerValue(request.event.type),
            'x-delivery-attempt': String(request.attempt),
          },
          body,
          signal,
          idempotencyId: request.deliveryId,
        });
      } catch (err) {
        if (isDestinationRefused(err)) return bad(`${service}: ${err.message}`);
        if (signal.aborted) return again(`${service}: timed out waiting for ${url}`);
        return again(`${service}: ${clip(err instanceof Error ? err.message : String(err))}`);
      }
      const status = res.status;
      if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
      const answer = res.body === '' ? '' : `: ${clip(res.body)}`;
      if (status >= 300 && status < 400) {
        const location = res.headers.location === undefined ? '' : ` to ${clip(res.headers.location, 200)}`;
        return bad(
          `${service}: HTTP ${status}, redirected${location} (redirects are not followed: register the final URL)`,
          status,
        );
      }
      if (status === 408 || status === 429 || status >= 500)
        return again(`${service}: HTTP ${status}${answer}`, status, res.retryAfterMs);
      return bad(`${service}: HTTP ${status}${answer}`, status);
    },
  };
}
