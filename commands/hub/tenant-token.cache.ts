import type { Clock } from '../../infra/core/clock.port.ts';
import { type HttpClient, isDestinationRefused } from '../../infra/core/http-client.port.ts';
import {
  type HubSettings,
  SETTING,
  TenantTokenError,
  type TenantTokenMinter,
  type TenantTokens,
} from './hub.contracts.ts';

/**
 * The platform tenant token webhook calls carry (spec "Authentication": "Outbound webhook calls are
 * authenticated with the platform tenant token"): an access token from the platform's own identity
 * provider, by client_credentials (RFC 6749 4.4, client_secret_basic), as the bridge's OAuth connections
 * fetch theirs (commands/bridge/oauth-token.cache.ts).
 *
 * Credentials come from the platform's configuration mechanism, never from delivery settings or snapshots:
 * `comm-hub.auth.client-id` and `comm-hub.auth.client-secret` of the tenant (the configuration center's
 * entries; the secret one marked secret), else of the platform tenant, else the process's HUB_CLIENT_ID /
 * HUB_CLIENT_SECRET (HubSettings resolves that order). None configured: the platform, being its own
 * identity provider, mints the token of the tenant's `hub-webhooks.<tenant>` machine client in-process
 * (`mint`: same claims and keys as the token endpoint would give that client, with the message's tenant);
 * without `mint`, or when that client is disabled, no token (the call is signed, not authenticated:
 * receivers verify the signature). The token is cached per tenant and client until `expires_in` minus a
 * margin (30 s, at most half its life); concurrent callers share one fetch or mint.
 * Failures: TenantTokenError, retryable unless the identity provider answered 400/401/403 (wrong
 * credentials: retrying cannot help).
 */
export type TenantTokenCacheOptions = {
  http: HttpClient;
  clock: Clock;
  settings: HubSettings;
  /** the identity provider's token endpoint */
  tokenUrl: string;
  /** scope requested (default none: the client's default scopes) */
  scope?: string;
  /** the tenant's own token when no client is configured (the identity provider's machine client) */
  mint?: TenantTokenMinter;
  marginSeconds?: number;
  fetchTimeoutMs?: number;
};

type Entry = { token: string; clientId: string; expiresAt: number };
/** the cache entry's client for a minted token (a configured client id is never empty) */
const MINTED = '';

const formEncode = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);

export function createTenantTokenCache(o: TenantTokenCacheOptions): TenantTokens {
  const margin = o.marginSeconds ?? 30;
  const fetchTimeoutMs = o.fetchTimeoutMs ?? 5000;
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<Entry | undefined>>();
  /** until when a token of `lifetime` seconds is used: its life less the margin (at most half of it) */
  const keepUntil = (lifetime: number) => o.clock.now().getTime() + (lifetime - Math.min(margin, lifetime / 2)) * 1000;

  async function fetchToken(clientId: string, clientSecret: string): Promise<Entry> {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (o.scope !== undefined) params.set('scope', o.scope);
    let res;
    try {
      res = await o.http.send({
        method: 'POST',
        url: o.tokenUrl,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`,
        },
        body: params.toString(),
        timeoutMs: fetchTimeoutMs,
      });
    } catch (err) {
      if (isDestinationRefused(err))
        throw new TenantTokenError(`the token endpoint cannot be called: ${err.message}`, false);
      throw new TenantTokenError(
        `the token endpoint could not be reached: ${err instanceof Error ? err.message : String(err)}`,
        true,
      );
    }
    if (res.status !== 200) {
      let why = '';
      try {
        const b = JSON.parse(res.body) as { error?: unknown };
        if (typeof b.error === 'string') why = `: ${b.error}`;
      } catch {
        // the status says enough
      }
      throw new TenantTokenError(
        `the token endpoint answered ${res.status}${why}`,
        !(res.status === 400 || res.status === 401 || res.status === 403),
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(res.body) as typeof body;
    } catch {
      throw new TenantTokenError('the token endpoint answered 200 without JSON', true);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '')
      throw new TenantTokenError('the token endpoint answered without an access_token', false);
    const lifetime = typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) ? body.expires_in : 60;
    return { token: body.access_token, clientId, expiresAt: keepUntil(lifetime) };
  }

  async function mintToken(tenant: string): Promise<Entry | undefined> {
    let minted;
    try {
      minted = await o.mint!(tenant);
    } catch (err) {
      throw new TenantTokenError(
        `the tenant's token could not be minted: ${err instanceof Error ? err.message : String(err)}`,
        true,
      );
    }
    return minted === undefined
      ? undefined
      : { token: minted.token, clientId: MINTED, expiresAt: keepUntil(minted.expiresIn) };
  }

  return {
    async token(tenant) {
      const clientId = await o.settings.get(tenant, SETTING.clientId);
      const clientSecret = await o.settings.get(tenant, SETTING.clientSecret);
      // an empty value configures nothing (and cannot be taken for the minted entry's empty client)
      const configured = clientId !== undefined && clientId !== '' && clientSecret !== undefined && clientSecret !== '';
      if (!configured && o.mint === undefined) return undefined;
      const source = configured ? clientId : MINTED;
      const cached = cache.get(tenant);
      if (cached !== undefined && cached.clientId === source && cached.expiresAt > o.clock.now().getTime())
        return cached.token;
      const key = `${tenant}\n${source}`;
      let p = pending.get(key);
      if (p === undefined) {
        p = (configured ? fetchToken(clientId, clientSecret) : mintToken(tenant)).finally(() => pending.delete(key));
        pending.set(key, p);
      }
      const entry = await p;
      if (entry === undefined) return undefined;
      cache.set(tenant, entry);
      return entry.token;
    },
    invalidate(tenant, token) {
      if (cache.get(tenant)?.token === token) cache.delete(tenant);
    },
  };
}
