import type { ConnectionAuth } from '../../domain/bridge/connection.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { type HttpClient, type HttpResponse, isDestinationRefused } from '../../infra/core/http-client.port.ts';

/**
 * Access tokens of OAuth client-credentials connections (spec "Authentication": client-credentials grant
 * only; "the token may be fetched with GET or POST"), cached per (tenant, connection).
 *
 * - POST (RFC 6749 4.4.2): a form-encoded body `grant_type=client_credentials&scope=…&audience=…` plus the
 *   connection's extra params. GET (for token services that want it; RFC 6749 requires POST, and this
 *   platform's own token endpoint only takes POST): the same parameters in the query string.
 * - Client authentication: `client_secret_basic` by default (RFC 6749 2.3.1: id and secret form-encoded,
 *   then `Authorization: Basic base64(id:secret)`), or `client_secret_post` (client_id and client_secret
 *   among the parameters — in the query string with GET, which is why basic is the default).
 * - A token is kept until `expires_in` minus a margin (30 s, at most half the lifetime), measured with the
 *   injected clock; without `expires_in` it is kept `defaultTtlSeconds`. A connection's new revision
 *   (its settings changed) never uses the token of the old one.
 * - Concurrent callers of one (tenant, connection) share one fetch; each caller's own signal only stops
 *   its own wait. The fetch itself has its own timeout (5 s).
 * - `invalidate` drops a token a destination refused (401): the next delivery attempt fetches a new one.
 *   Only that token is dropped, so a fresh one fetched meanwhile by another delivery stays.
 *
 * Errors are OAuthTokenError: `retryable` for network errors, timeouts, 408, 429 and 5xx (with the
 * endpoint's Retry-After as `retryAfterMs`); not for other answers (invalid_client, a body without
 * access_token) nor for a token URL the outbound client refuses (SSRF guard). Messages never contain the
 * client secret.
 */
export type OAuthClientCredentials = Extract<ConnectionAuth<string>, { kind: 'OAUTH_CLIENT_CREDENTIALS' }>;

export type OAuthTokenKey = { tenant: string; connection: string };

export class OAuthTokenError extends Error {
  readonly retryable: boolean;
  readonly httpStatus: number | undefined;
  /** the token endpoint's Retry-After (429, 503), in ms */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, retryable: boolean, httpStatus?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'OAuthTokenError';
    this.retryable = retryable;
    this.httpStatus = httpStatus;
    this.retryAfterMs = retryAfterMs;
  }
}

export const isOAuthTokenError = (e: unknown): e is OAuthTokenError => e instanceof OAuthTokenError;

export type OAuthTokenCache = {
  /** a valid access token for the connection: cached, or fetched (once for concurrent callers) */
  token(
    key: OAuthTokenKey & { revision: number },
    config: OAuthClientCredentials,
    signal?: AbortSignal,
  ): Promise<string>;
  /** drops the cached token (only `token`, when given) */
  invalidate(key: OAuthTokenKey, token?: string): void;
};

export type OAuthTokenCacheOptions = {
  http: HttpClient;
  clock: Clock;
  /** seconds before `expires_in` at which a token is no longer handed out (default 30, at most half the lifetime) */
  marginSeconds?: number;
  /** how long a token without `expires_in` is kept (default 60 s) */
  defaultTtlSeconds?: number;
  /** the token request's own timeout (default 5000 ms) */
  fetchTimeoutMs?: number;
};

type Entry = { token: string; revision: number; expiresAt: number };

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);
/** RFC 6749 appendix B: application/x-www-form-urlencoded */
const formEncode = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);

export function grantParameters(config: OAuthClientCredentials): URLSearchParams {
  const p = new URLSearchParams({ grant_type: 'client_credentials' });
  if (config.scope !== undefined) p.set('scope', config.scope);
  if (config.audience !== undefined) p.set('audience', config.audience);
  for (const [k, v] of Object.entries(config.params ?? {})) p.set(k, v);
  if (config.clientAuth === 'client_secret_post') {
    p.set('client_id', config.clientId);
    p.set('client_secret', config.clientSecret);
  }
  return p;
}

function tokenRequest(config: OAuthClientCredentials, timeoutMs: number) {
  const params = grantParameters(config);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.clientAuth === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${formEncode(config.clientId)}:${formEncode(config.clientSecret)}`).toString('base64')}`;
  }
  if (config.method === 'GET') {
    const url = new URL(config.tokenUrl);
    for (const [k, v] of params) url.searchParams.set(k, v);
    return { method: 'GET', url: url.toString(), headers, timeoutMs };
  }
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: 'POST', url: config.tokenUrl, headers, body: params.toString(), timeoutMs };
}

function tokenError(res: HttpResponse): OAuthTokenError {
  let reason = '';
  try {
    const body = JSON.parse(res.body) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string')
      reason = `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}`;
  } catch {
    // not JSON: the status says enough
  }
  const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
  return new OAuthTokenError(
    clip(`the token endpoint answered ${res.status}${reason}`),
    retryable,
    res.status,
    res.retryAfterMs,
  );
}

export function createOAuthTokenCache(o: OAuthTokenCacheOptions): OAuthTokenCache {
  const margin = o.marginSeconds ?? 30;
  const defaultTtl = o.defaultTtlSeconds ?? 60;
  const fetchTimeoutMs = o.fetchTimeoutMs ?? 5000;
  const cache = new Map<string, Entry>();
  const pending = new Map<string, { revision: number; promise: Promise<string> }>();
  const keyOf = (k: OAuthTokenKey) => `${k.tenant}\n${k.connection}`;

  async function fetchToken(id: string, revision: number, config: OAuthClientCredentials): Promise<string> {
    let res: HttpResponse;
    try {
      res = await o.http.send(tokenRequest(config, fetchTimeoutMs));
    } catch (err) {
      // the SSRF guard's message names the host and address only, never the URL's query
      if (isDestinationRefused(err))
        throw new OAuthTokenError(`the token endpoint cannot be called: ${err.message}`, false);
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      // the client's message may quote the URL, which holds the client secret with GET + client_secret_post
      const why = [
        config.clientSecret,
        formEncode(config.clientSecret),
        encodeURIComponent(config.clientSecret),
      ].reduce(
        (text, secret) => (secret.length > 0 ? text.split(secret).join('******') : text),
        err instanceof Error ? err.message : String(err),
      );
      throw new OAuthTokenError(
        timedOut
          ? `the token endpoint did not answer within ${fetchTimeoutMs} ms`
          : `the token endpoint could not be reached: ${clip(why)}`,
        true,
      );
    }
    if (res.status !== 200) throw tokenError(res);
    let body: { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(res.body) as typeof body;
    } catch {
      throw new OAuthTokenError('the token endpoint answered 200 without a JSON body', false, 200);
    }
    const token = body?.access_token;
    if (typeof token !== 'string' || token.length === 0)
      throw new OAuthTokenError('the token endpoint answered without an access_token', false, 200);
    if (body.token_type !== undefined && String(body.token_type).toLowerCase() !== 'bearer') {
      throw new OAuthTokenError(
        `the token endpoint answered token_type ${clip(String(body.token_type), 40)} (only Bearer is supported)`,
        false,
        200,
      );
    }
    const expiresIn = body.expires_in === undefined ? defaultTtl : Number(body.expires_in);
    const lifetime = Number.isFinite(expiresIn) ? expiresIn : defaultTtl;
    const keep = lifetime - Math.min(margin, lifetime / 2);
    if (keep > 0) cache.set(id, { token, revision, expiresAt: o.clock.now().getTime() + keep * 1000 });
    return token;
  }

  const waitWith = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
    if (signal === undefined) return promise;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
        (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
      );
    });
  };

  return {
    token(key, config, signal) {
      const id = keyOf(key);
      const cached = cache.get(id);
      if (cached !== undefined) {
        if (cached.revision === key.revision && cached.expiresAt > o.clock.now().getTime())
          return Promise.resolve(cached.token);
        cache.delete(id);
      }
      const inFlight = pending.get(id);
      if (inFlight !== undefined && inFlight.revision === key.revision) return waitWith(inFlight.promise, signal);
      const promise = fetchToken(id, key.revision, config).finally(() => {
        if (pending.get(id)?.promise === promise) pending.delete(id);
      });
      promise.catch(() => undefined); // a caller that gave up must not leave an unhandled rejection behind
      pending.set(id, { revision: key.revision, promise });
      return waitWith(promise, signal);
    },

    invalidate(key, token) {
      const id = keyOf(key);
      const cached = cache.get(id);
      if (cached !== undefined && (token === undefined || cached.token === token)) cache.delete(id);
    },
  };
}
