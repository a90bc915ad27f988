/**
 * The notification hub's ports besides the event store and the read store (composed in
 * infra/hub/hub.service.ts):
 *
 * - HubSettings: the `comm-hub.*` properties the spec names (`comm-hub.webhook.connect-timeout-ms`,
 *   `comm-hub.template.max-rendered-length`, `comm-hub.time-zone` …), read at use time from the platform's
 *   configuration mechanism: the tenant's entry, else the platform tenant's, else the process default;
 * - TenantTokens: the platform tenant token webhook calls carry (client_credentials from the identity
 *   provider with a configured client, else minted in-process for the tenant's machine client; cached);
 * - Sealer (domain/core/sealed-secret.ts): encryption at rest of delivery-service signing secrets
 *   (AES-256-GCM under the platform's key-encryption secret).
 */
export type HubSettings = {
  get(tenant: string, key: string): Promise<string | undefined>;
  /** forgets kept values: one tenant's, or every tenant's with `*` (the cache bucket's clear) */
  clear?(scope: string): void;
};

export type TenantTokens = {
  /** a bearer token for calls made on behalf of `tenant`; undefined when no credentials are configured */
  token(tenant: string, signal?: AbortSignal): Promise<string | undefined>;
  /** drops a token a receiver refused (401): the next attempt fetches a new one */
  invalidate(tenant: string, token: string): void;
};

/**
 * The platform's own platform tenant token of a tenant, minted in-process by the identity provider (the
 * tenant's `hub-webhooks.<tenant>` machine client): what webhook calls carry when no client is configured.
 * Undefined when the tenant has no usable machine client.
 */
export type TenantTokenMinter = (tenant: string) => Promise<{ token: string; expiresIn: number } | undefined>;

/** A failure to get a token: `retryable` when the identity provider may answer later. */
export class TenantTokenError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'TenantTokenError';
  }
}

/** property keys (spec "Limits" and "Communication hub") */
export const SETTING = {
  connectTimeoutMs: 'comm-hub.webhook.connect-timeout-ms',
  readTimeoutMs: 'comm-hub.webhook.read-timeout-ms',
  maxRenderedLength: 'comm-hub.template.max-rendered-length',
  timeZone: 'comm-hub.time-zone',
  clientId: 'comm-hub.auth.client-id',
  clientSecret: 'comm-hub.auth.client-secret',
  // customer policies (docs/hub.md#customer-policies): what a preference lookup gives when nothing allows
  preferenceDefaultAllow: 'comm-hub.preference.default-allow',
  // spec "Recovery properties": the hub's switch per tenant (commands/hub/hub-switch.ts; docs/hub.md#hub-switch)
  enabled: 'comm-hub.enabled',
  // spec "Recovery properties" (docs/hub.md#sweeps-and-the-command-worker)
  commandWorkerEnabled: 'comm-hub.command-worker.enabled',
  commandWorkerIntervalMs: 'comm-hub.command-worker.interval-ms',
  commandWorkerStaleIntervalMs: 'comm-hub.command-worker.stale-interval-ms',
  sweepEnabled: 'comm-hub.sweep.enabled',
  sweepRetryIntervalMs: 'comm-hub.sweep.retry-interval-ms',
  sweepScheduledIntervalMs: 'comm-hub.sweep.scheduled-interval-ms',
  sweepExpiryIntervalMs: 'comm-hub.sweep.expiry-interval-ms',
  sweepStaleIntervalMs: 'comm-hub.sweep.stale-interval-ms',
  sweepReceiptTimeoutIntervalMs: 'comm-hub.sweep.receipt-timeout-interval-ms',
  sweepAlertIntervalMs: 'comm-hub.sweep.alert-interval-ms',
  // housekeeping's retention (spec: the business-config key, spelled `comm.hub.…`; docs/hub.md#housekeeping)
  housekeepingRetentionDays: 'comm.hub.housekeeping.retention-days',
} as const;

/** a numeric setting: the configured integer when it is one within [min, max], else the fallback */
export async function numberSetting(
  settings: HubSettings,
  tenant: string,
  key: string,
  fallback: number,
  min: number,
  max: number,
): Promise<number> {
  const raw = await settings.get(tenant, key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}
