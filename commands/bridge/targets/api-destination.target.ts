import { HEADER_NAME } from '../../../domain/bridge/connection.decider.ts';
import { queryPath } from '../../../domain/bridge/conversion/json-path.ts';
import { renderDestinationUrl } from '../../../domain/bridge/destination-url.ts';
import { assertNever } from '../../../domain/core/decider.ts';
import { type HttpClient, type HttpResponse, isDestinationRefused } from '../../../infra/core/http-client.port.ts';
import type { ApiDestinationReader } from '../api-destinations.commands.ts';
import type { ConfigCenter } from '../bridge.contracts.ts';
import type { ConnectionReader, ResolvedConnection } from '../connections.commands.ts';
import { type DeliveryOutcome, type DeliveryRequest, TARGET_TYPES, type TargetAdapter } from '../delivery.contracts.ts';
import { isOAuthTokenError, type OAuthTokenCache } from '../oauth-token.cache.ts';

/**
 * The API destination target (TypeId 4): one HTTP call to the destination the NAME parameter names.
 *
 * - The destination and its connection belong to the rule's tenant (a platform rule uses the platform's);
 *   configuration keys (URL variables, a `config` bearer token) are read from the event's tenant first,
 *   then, for a platform rule, from the platform's, as the conversions do.
 * - URL: the destination's rendered URL template (destination-url.ts), then QUERY_STRING_PARAMS appended
 *   (a JSON object: one parameter per key, arrays repeated; or a query string).
 * - Headers: HEADER_PARAMS (a JSON object; values as text), then the connection's authentication, then
 *   `X-Delivery-Id` (stable per delivery: receivers deduplicate with it) and `X-Delivery-Attempt`: what
 *   the platform sets wins. Host, Content-Length, Transfer-Encoding, Connection, the X-Delivery headers,
 *   Idempotency-Key and the webhook-* headers cannot be set by HEADER_PARAMS.
 * - Signed (Standard Webhooks, by the outbound client): `webhook-id` and `Idempotency-Key` = the delivery
 *   id, `webhook-timestamp`, `webhook-signature` under the destination's signing secret (both secrets
 *   during a rotation's overlap, space-separated).
 * - Body (not for GET and HEAD): BODY_PARAMS when given, else the rule's converted payload; JSON as
 *   `application/json`, a string as `text/plain; charset=utf-8`, unless HEADER_PARAMS sets Content-Type
 *   (an `application/x-www-form-urlencoded` content type form-encodes an object body).
 * - The call carries the request's AbortSignal (the delivery's 5 s timeout), and the destination's
 *   timeoutMs when it has one (the lower of the two applies).
 * - Outcomes: 2xx delivered; 408, 429, 5xx, network errors and timeouts retryable; a 401 from a
 *   destination with an OAuth connection drops the cached token and is retryable (the next attempt
 *   fetches a new one); other statuses (3xx included: redirects are not followed) fail without retry, as
 *   do a missing destination or connection, a URL that does not render, bad parameters, and a URL (or
 *   OAuth token URL) the outbound client's SSRF guard refuses (a loopback, private, link-local or
 *   metadata address not in OUTBOUND_ALLOW). A 429 or 503's Retry-After comes back as `retryAfterMs`.
 * - Secrets: the caller's token (request.callerToken), connection secrets and OAuth tokens are removed
 *   from every text this adapter answers (a receiver echoing the Authorization header in its error body
 *   cannot put it into the trace). Answers name the URL without its query string.
 */
export type ApiDestinationTargetDeps = {
  http: HttpClient;
  destinations: ApiDestinationReader;
  connections: ConnectionReader;
  oauth: OAuthTokenCache;
  configCenter: ConfigCenter;
};

const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'x-delivery-id',
  'x-delivery-attempt',
  'idempotency-key',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);
const BAD_HEADER_VALUE = /[\r\n\0]/;
const clip = (s: string, n = 300) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

/** A rendered parameter: TEMPLATE output comes as a parsed JSON value, or as text that may hold JSON. */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!/^[[{]/.test(t)) return value;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return value;
  }
}

/** a value as header or query text: strings raw, numbers and booleans as text, the rest compact JSON */
const asText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : (JSON.stringify(v) ?? '');

class BadParameter extends Error {}

/** case-insensitive header map keeping the first spelling of each name */
class HeaderSet {
  private readonly map = new Map<string, [string, string]>();
  set(name: string, value: string) {
    const lower = name.toLowerCase();
    this.map.set(lower, [this.map.get(lower)?.[0] ?? name, value]);
  }
  get(name: string) {
    return this.map.get(name.toLowerCase())?.[1];
  }
  record(): Record<string, string> {
    return Object.fromEntries(this.map.values());
  }
}

function headerParams(value: unknown, headers: HeaderSet) {
  if (value === undefined || value === null || value === '') return;
  const v = structured(value);
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new BadParameter('HEADER_PARAMS must render to a JSON object of header names and values');
  for (const [name, raw] of Object.entries(v as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) throw new BadParameter(`HEADER_PARAMS: ${clip(name, 60)} is not a header name`);
    if (RESERVED.has(name.toLowerCase())) throw new BadParameter(`HEADER_PARAMS: ${name} is set by the platform`);
    if (raw === undefined || raw === null) continue;
    const text = asText(raw);
    if (BAD_HEADER_VALUE.test(text))
      throw new BadParameter(`HEADER_PARAMS: the value of ${name} contains a line break or NUL`);
    headers.set(name, text);
  }
}

function queryParams(value: unknown, url: URL) {
  if (value === undefined || value === null || value === '') return;
  const v = structured(value);
  if (typeof v === 'string') {
    for (const [k, x] of new URLSearchParams(v.startsWith('?') ? v.slice(1) : v)) url.searchParams.append(k, x);
    return;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new BadParameter('QUERY_STRING_PARAMS must render to a JSON object (or a query string)');
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    if (raw === undefined || raw === null) continue;
    for (const item of Array.isArray(raw) ? raw : [raw]) url.searchParams.append(k, asText(item));
  }
}

function bodyOf(value: unknown, headers: HeaderSet): string | undefined {
  if (value === undefined) return undefined;
  const contentType = headers.get('content-type');
  if (
    contentType !== undefined &&
    /^application\/x-www-form-urlencoded\b/i.test(contentType) &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      if (v !== undefined && v !== null) form.append(k, asText(v));
    return form.toString();
  }
  if (typeof value === 'string') {
    if (contentType === undefined) headers.set('Content-Type', 'text/plain; charset=utf-8');
    return value;
  }
  if (contentType === undefined) headers.set('Content-Type', 'application/json');
  return JSON.stringify(value);
}

export function createApiDestinationTarget(deps: ApiDestinationTargetDeps): TargetAdapter {
  const { http, destinations, connections, oauth, configCenter } = deps;

  return {
    typeId: TARGET_TYPES.apiDestination,
    usesCallerToken: true,
    async deliver(request: DeliveryRequest): Promise<DeliveryOutcome> {
      // every secret this delivery touches, removed from whatever text it answers
      const secrets: string[] = [];
      const keep = (s: string | undefined) => {
        if (s !== undefined && s.length >= 4) secrets.push(s, encodeURIComponent(s));
      };
      keep(request.callerToken);
      const redact = (text: string) => secrets.reduce((t, s) => (t.includes(s) ? t.split(s).join('******') : t), text);
      const fail = (
        retryable: boolean,
        error: string,
        httpStatus?: number,
        retryAfterMs?: number,
      ): DeliveryOutcome => ({
        ok: false,
        retryable,
        error: clip(redact(error)),
        ...(httpStatus !== undefined && { httpStatus }),
        ...(retryable && retryAfterMs !== undefined && { retryAfterMs }),
      });

      const config = async (key: string) => {
        const own = await configCenter.get(request.tenant, key);
        return own !== undefined || request.ruleTenant === request.tenant
          ? own
          : configCenter.get(request.ruleTenant, key);
      };

      try {
        const rawName = request.params.NAME;
        const name = typeof rawName === 'string' ? rawName.trim() : '';
        if (name === '') return fail(false, 'NAME: no API destination named');
        const destination = await destinations.get(request.ruleTenant, name);
        if (destination === null) return fail(false, `NAME: no API destination ${name}`);
        let connection: ResolvedConnection | null = null;
        if (destination.connection !== undefined) {
          connection = await connections.resolve(request.ruleTenant, destination.connection);
          if (connection === null)
            return fail(false, `API destination ${name}: its connection ${destination.connection} does not exist`);
        }

        const rendered = await renderDestinationUrl(request.event, destination.urlTemplate, config);
        if (!rendered.ok) return fail(false, `API destination ${name}: ${rendered.error}`);
        const url = new URL(rendered.url);
        const where = `${destination.method} ${url.origin}${url.pathname}`;
        const headers = new HeaderSet();
        try {
          queryParams(request.params.QUERY_STRING_PARAMS, url);
          headerParams(request.params.HEADER_PARAMS, headers);
        } catch (err) {
          if (err instanceof BadParameter) return fail(false, err.message);
          throw err;
        }

        // authentication
        let oauthToken: string | undefined;
        if (connection !== null) {
          const auth = connection.auth;
          switch (auth.kind) {
            case 'BASIC': {
              keep(auth.password);
              const credentials = Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64');
              keep(credentials);
              headers.set('Authorization', `Basic ${credentials}`);
              break;
            }
            case 'BEARER': {
              let token: string | undefined;
              switch (auth.source) {
                case 'caller':
                  token = request.callerToken;
                  if (token === undefined || token === '')
                    return fail(
                      false,
                      `connection ${connection.name}: the publishing caller's token is not available (it is kept only while the delivery runs)`,
                    );
                  break;
                case 'fixed':
                  token = auth.token;
                  break;
                case 'config': {
                  const value = await config(auth.key);
                  if (value === undefined || value.trim() === '')
                    return fail(false, `connection ${connection.name}: configuration key ${auth.key} is not set`);
                  token = value.trim().replace(/^bearer\s+/i, '');
                  break;
                }
                case 'jsonpath': {
                  const q = queryPath(request.event, auth.path);
                  if (q.status !== 'found' || typeof q.value !== 'string' || q.value === '') {
                    return fail(
                      false,
                      `connection ${connection.name}: JSONPath ${auth.path} did not find a token (a non-empty string) in the event`,
                    );
                  }
                  token = q.value;
                  break;
                }
                default:
                  return assertNever(auth);
              }
              keep(token);
              if (BAD_HEADER_VALUE.test(token))
                return fail(false, `connection ${connection.name}: the bearer token contains a line break or NUL`);
              headers.set('Authorization', `Bearer ${token}`);
              break;
            }
            case 'OAUTH_CLIENT_CREDENTIALS': {
              keep(auth.clientSecret);
              try {
                oauthToken = await oauth.token(
                  { tenant: connection.tenant, connection: connection.name, revision: connection.revision },
                  auth,
                  request.signal,
                );
              } catch (err) {
                if (isOAuthTokenError(err))
                  return fail(
                    err.retryable,
                    `connection ${connection.name}: ${err.message}`,
                    err.httpStatus,
                    err.retryAfterMs,
                  );
                if (request.signal.aborted)
                  return fail(true, `connection ${connection.name}: timed out while fetching the OAuth token`);
                throw err;
              }
              keep(oauthToken);
              headers.set('Authorization', `Bearer ${oauthToken}`);
              break;
            }
            case 'API_KEY':
              keep(auth.value);
              headers.set(auth.headerName, auth.value);
              break;
            default:
              return assertNever(auth);
          }
        }
        headers.set('X-Delivery-Id', request.deliveryId);
        headers.set('X-Delivery-Attempt', String(request.attempt));

        const withBody = destination.method !== 'GET' && destination.method !== 'HEAD';
        const payload =
          request.params.BODY_PARAMS !== undefined ? structured(request.params.BODY_PARAMS) : request.payload;
        const body = withBody ? bodyOf(payload, headers) : undefined;
        const { signal } = request;

        let res: HttpResponse;
        try {
          res = await http.send({
            method: destination.method,
            url: url.toString(),
            headers: headers.record(),
            ...(body !== undefined && { body }),
            signal,
            ...(destination.timeoutMs !== undefined && { timeoutMs: destination.timeoutMs }),
            idempotencyId: request.deliveryId,
            ...(destination.signingSecrets.length > 0 && { signing: { secrets: destination.signingSecrets } }),
          });
        } catch (err) {
          if (isDestinationRefused(err)) return fail(false, `${where}: ${err.message}`);
          if (signal.aborted || (err instanceof Error && err.name === 'TimeoutError'))
            return fail(true, `${where}: no answer in time (timeout)`);
          return fail(true, `${where}: ${err instanceof Error ? err.message : String(err)}`);
        }
        const status = res.status;
        if (status >= 200 && status < 300) return { ok: true, httpStatus: status, detail: `${where} → ${status}` };
        const snippet = res.body.trim() === '' ? '' : `: ${clip(redact(res.body), 200)}`;
        if (status === 401 && oauthToken !== undefined && connection !== null) {
          oauth.invalidate({ tenant: connection.tenant, connection: connection.name }, oauthToken);
          return fail(
            true,
            `${where} answered 401 with the OAuth token: it is dropped, the next attempt fetches a new one${snippet}`,
            status,
          );
        }
        const retryable = status === 408 || status === 429 || status >= 500;
        const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
        return fail(retryable, `${where} answered ${status}${redirect}${snippet}`, status, res.retryAfterMs);
      } catch (err) {
        // the platform's own trouble (a store down): not the event's fault, so retryable
        return fail(true, `API destination delivery failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
