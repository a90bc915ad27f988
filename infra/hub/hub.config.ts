import { DEFAULT_DISPATCH_CONCURRENCY } from '../../commands/hub/dispatch.worker.ts';
import { MAX_RETENTION_DAYS } from '../../commands/hub/housekeeping.job.ts';
import { isTimeZone } from '../../domain/hub/local-time.ts';
import { type Config, ConfigError } from '../core/config.ts';
import { envInt } from '../core/env-int.ts';

/**
 * The notification hub's process configuration (environment variables, validated when the hub is built;
 * listed in docs/configuration.md#notification-hub). Per-tenant properties the spec names
 * (`comm-hub.webhook.*-timeout-ms`, `comm-hub.template.max-rendered-length`, `comm-hub.time-zone`,
 * `comm-hub.auth.client-id` / `-secret`) are read at use time from the configuration center (tenant, then
 * platform tenant); these variables are their process defaults.
 */
export type HubConfig = {
  /** HUB_DISPATCH_CONCURRENCY: message steps in flight per worker process */
  dispatchConcurrency: number;
  /**
   * HUB_INLINE_DISPATCH_CONCURRENCY: fresh sends a process that runs workers starts at once, beside their
   * answer, in flight at a time (default 2 × HUB_DISPATCH_CONCURRENCY); beyond it a send waits for its due
   * item (the worker, HUB_DISPATCH_CONCURRENCY)
   */
  inlineDispatchConcurrency: number;
  /** HUB_DISPATCH_POLL_MS: how often an idle dispatch worker looks for due work (fresh sends wake it at once) */
  dispatchPollMs: number;
  /** HUB_DISPATCH_LEASE_MS: lease on a claimed message step; an attempt without outcome this long after it started is uncertain */
  dispatchLeaseMs: number;
  /** HUB_TIME_ZONE: the tenants' time zone unless `comm-hub.time-zone` says otherwise */
  timeZone: string;
  /** HUB_CONNECT_TIMEOUT_MS, HUB_READ_TIMEOUT_MS: webhook timeouts unless the service or the configuration sets them */
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** HUB_MAX_RENDERED_LENGTH: comm-hub.template.max-rendered-length's default */
  maxRenderedLength: number;
  /** HUB_TOKEN_URL: the identity provider's token endpoint for the platform tenant token of a configured client */
  tokenUrl: string;
  /**
   * HUB_CLIENT_ID and HUB_CLIENT_SECRET: the client of the platform tenant token unless configured per tenant;
   * neither: each tenant's `hub-webhooks.<tenant>` machine client, its token minted in-process
   */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** HUB_TOKEN_SCOPE: the scope asked for (default: the client's) */
  tokenScope: string | undefined;
  /** HUB_CONFIG_CACHE_MS: how long a process keeps configuration it read (the definition cache); its own writes drop entries at once */
  configCacheMs: number;
  /** HUB_SWEEP_ENABLED: `comm-hub.sweep.enabled`'s process default (spec: false; `platform start` sets true unless told otherwise) */
  sweepEnabled: boolean;
  /** HUB_COMMAND_WORKER_ENABLED, _INTERVAL_MS, _STALE_INTERVAL_MS: `comm-hub.command-worker.*` (true, 5000, 60000); the intervals size the engine, read at start */
  commandWorkerEnabled: boolean;
  commandWorkerIntervalMs: number;
  commandWorkerStaleIntervalMs: number;
  /** HUB_ENABLED: `comm-hub.enabled`'s default (spec: true): false holds every tenant's dispatch unless its configuration says true */
  enabled: boolean;
  /** HUB_PREFERENCE_DEFAULT_ALLOW: `comm-hub.preference.default-allow`'s default (spec: false) */
  preferenceDefaultAllow: boolean;
  /** HUB_HOUSEKEEPING_RETENTION_DAYS: `comm.hub.housekeeping.retention-days`'s default (90; -1 disables housekeeping) */
  housekeepingRetentionDays: number;
};

export function loadHubConfig(env: NodeJS.ProcessEnv, platform: Pick<Config, 'publicBaseUrl'>): HubConfig {
  const problems: string[] = [];
  const int = envInt(env, problems);
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false, got "${raw}"`);
    return raw === 'true';
  };
  const timeZone = env.HUB_TIME_ZONE || 'UTC';
  if (!isTimeZone(timeZone))
    problems.push(`HUB_TIME_ZONE must be an IANA time zone (Europe/Berlin), got "${timeZone}"`);
  const tokenUrl = env.HUB_TOKEN_URL || `${platform.publicBaseUrl}/cas/oidc/token`;
  try {
    const u = new URL(tokenUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('HUB_TOKEN_URL must be http or https');
  } catch {
    problems.push(`HUB_TOKEN_URL is not a URL: "${tokenUrl}"`);
  }
  const clientId = env.HUB_CLIENT_ID || undefined;
  const clientSecret = env.HUB_CLIENT_SECRET || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined))
    problems.push('HUB_CLIENT_ID and HUB_CLIENT_SECRET go together: set both or neither');
  // a low HUB_DISPATCH_CONCURRENCY (a receiver to spare) throttles the inline dispatch too, unless it is set
  const dispatchConcurrency = int('HUB_DISPATCH_CONCURRENCY', DEFAULT_DISPATCH_CONCURRENCY, 1, 256);
  const config: HubConfig = {
    dispatchConcurrency,
    inlineDispatchConcurrency: int('HUB_INLINE_DISPATCH_CONCURRENCY', 2 * dispatchConcurrency, 0, 1024),
    dispatchPollMs: int('HUB_DISPATCH_POLL_MS', 500, 10, 60_000),
    dispatchLeaseMs: int('HUB_DISPATCH_LEASE_MS', 60_000, 2000, 3_600_000),
    timeZone,
    connectTimeoutMs: int('HUB_CONNECT_TIMEOUT_MS', 5000, 1, 120_000),
    readTimeoutMs: int('HUB_READ_TIMEOUT_MS', 10_000, 1, 600_000),
    maxRenderedLength: int('HUB_MAX_RENDERED_LENGTH', 65_536, 1, 10_000_000),
    tokenUrl,
    clientId,
    clientSecret,
    tokenScope: env.HUB_TOKEN_SCOPE || undefined,
    configCacheMs: int('HUB_CONFIG_CACHE_MS', 1000, 0, 3_600_000),
    sweepEnabled: bool('HUB_SWEEP_ENABLED', false),
    commandWorkerEnabled: bool('HUB_COMMAND_WORKER_ENABLED', true),
    commandWorkerIntervalMs: int('HUB_COMMAND_WORKER_INTERVAL_MS', 5000, 10, 3_600_000),
    commandWorkerStaleIntervalMs: int('HUB_COMMAND_WORKER_STALE_INTERVAL_MS', 60_000, 1000, 86_400_000),
    preferenceDefaultAllow: bool('HUB_PREFERENCE_DEFAULT_ALLOW', false),
    enabled: bool('HUB_ENABLED', true),
    housekeepingRetentionDays: int('HUB_HOUSEKEEPING_RETENTION_DAYS', 90, -1, MAX_RETENTION_DAYS),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
