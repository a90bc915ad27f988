import type { ConfigCenter } from '../../commands/bridge/bridge.contracts.ts';
import type { HubSettings } from '../../commands/hub/hub.contracts.ts';
import { PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import type { Clock } from '../core/clock.port.ts';

/**
 * HubSettings over the platform's configuration mechanism (the configuration center, per-tenant key/values:
 * `…/eventBridge/admin/v1/config/{key}`): a `comm-hub.*` key is the tenant's value, else the platform
 * tenant's, else the process default (environment). Values are kept `ttlMs` (default 5 s) per tenant and
 * key: dispatch reads them on every attempt, and a change reaches every process within that time.
 */
export function createHubSettings(o: {
  configCenter: ConfigCenter;
  clock: Clock;
  defaults: Record<string, string | undefined>;
  ttlMs?: number;
}): HubSettings {
  const ttl = o.ttlMs ?? 5000;
  const cache = new Map<string, { value: string | undefined; until: number }>();
  return {
    async get(tenant, key) {
      const id = `${tenant}\n${key}`;
      const now = o.clock.now().getTime();
      const hit = cache.get(id);
      if (hit !== undefined && hit.until > now) return hit.value;
      const value =
        (await o.configCenter.get(tenant, key)) ??
        (tenant === PLATFORM_TENANT ? undefined : await o.configCenter.get(PLATFORM_TENANT, key)) ??
        o.defaults[key];
      if (cache.size > 10_000) cache.clear();
      cache.set(id, { value, until: now + ttl });
      return value;
    },
    clear(scope) {
      if (scope === '*') return cache.clear();
      for (const id of [...cache.keys()]) if (id.startsWith(`${scope}\n`)) cache.delete(id);
    },
  };
}
