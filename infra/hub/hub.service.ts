import { createConfigCenter } from '../../commands/bridge/config-center.commands.ts';
import { createCacheBucket } from '../../commands/hub/cache-bucket.commands.ts';
import { createConfigCommands } from '../../commands/hub/config.commands.ts';
import { createConfigBundle } from '../../commands/hub/config-bundle.commands.ts';
import { createConfigCacheConsumer } from '../../commands/hub/config-cache.consumer.ts';
import { createCustomerPolicies } from '../../commands/hub/customer-policy.commands.ts';
import { createDispatchProcess } from '../../commands/hub/dispatch.process.ts';
import {
  createDispatchWorker,
  createInlineDispatch,
  type DispatchDueItem,
} from '../../commands/hub/dispatch.worker.ts';
import { createDispatchGate } from '../../commands/hub/dispatch-gate.ts';
import type { CommDeliveryDriver } from '../../commands/hub/driver.contracts.ts';
import { createDriverRegistry } from '../../commands/hub/driver.registry.ts';
import { createRestWebhookDriver } from '../../commands/hub/drivers/rest-webhook.driver.ts';
import { type HubSettings, SETTING, type TenantTokens } from '../../commands/hub/hub.contracts.ts';
import { createHubSwitch } from '../../commands/hub/hub-switch.ts';
import {
  createInteractionPreferenceReactor,
  INTERACTION_PREFERENCE_REACTOR,
} from '../../commands/hub/interaction-preference.reactor.ts';
import { createOperatorCommands } from '../../commands/hub/operator.commands.ts';
import { createPreviews } from '../../commands/hub/preview.queries.ts';
import { createProgressQueries } from '../../commands/hub/progress.queries.ts';
import { createQuotaReleaseReactor, QUOTA_RELEASE_REACTOR } from '../../commands/hub/quota-release.reactor.ts';
import { createReceipts } from '../../commands/hub/receipts.commands.ts';
import { createSender } from '../../commands/hub/send.commands.ts';
import { createSnapshots } from '../../commands/hub/snapshots.ts';
import { createTenantTokenCache } from '../../commands/hub/tenant-token.cache.ts';
import { createHubRouter } from '../../http/hub/hub.router.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import { createConfigQueries } from '../../projections/hub/config.projection.ts';
import { createCustomerQueries } from '../../projections/hub/customer.projection.ts';
import { DISPATCH_PROJECTION } from '../../projections/hub/dispatch.projection.ts';
import { createSnapshotQueries } from '../../projections/hub/snapshots.projection.ts';
import type { HttpClient } from '../core/http-client.port.ts';
import { lazyConfigBox } from '../identity/config-box.ts';
import { createOutboundHttpClient } from '../net/outbound-http.client.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';
import { createHubHousekeeping } from './housekeeping.archive.ts';
import { type HubConfig, loadHubConfig } from './hub.config.ts';
import { createHubRecovery } from './hub-recovery.ts';
import { createHubSettings } from './hub-settings.ts';

export type HubServiceDeps = ServiceDeps & {
  /** the hub's process configuration (default: from the environment) */
  hub?: HubConfig;
  /** more CommDeliveryDriver components (a driver of an existing type replaces the built-in one) */
  drivers?: CommDeliveryDriver[];
  /** tests: the HTTP client of the webhook driver (default: the platform's outbound client) */
  http?: HttpClient;
  /** tests: the platform tenant tokens (default: a configured client's from the identity provider, else minted for the tenant's machine client) */
  tenantTokens?: TenantTokens;
  /** tests: the `comm-hub.*` properties (default: the configuration center, then the environment) */
  settings?: HubSettings;
};

/**
 * The notification hub's composition, in one place: configuration (channels, delivery services,
 * templates, contexts, definitions, rules), send with idempotency and snapshots, dispatch on the work
 * engine over the registered drivers (REST_WEBHOOK built in), receipts, progress, snapshots, OpenAPI;
 * customer policies, operator actions, previews, TCC and the sweeps. Building it does no I/O.
 */
export function createHubService(deps: HubServiceDeps): PlatformService {
  const { config, eventStore, readStore, clock, log } = deps;
  if (deps.identity === undefined) throw new Error('the hub is built after the identity service');
  const hub = deps.hub ?? loadHubConfig(process.env, config);
  const hubLog = log.child({ service: 'hub' });

  // signing secrets are sealed with the current key-encryption secret's key id and open under the previous
  // ones too (KEY_ENCRYPTION_SECRET_PREVIOUS), as configuration values do: a rotation does not stop webhooks
  const box = lazyConfigBox(config);
  const secretSealer = () => box;

  const settings =
    deps.settings ??
    createHubSettings({
      configCenter: createConfigCenter({ eventStore, box }),
      clock,
      defaults: {
        [SETTING.connectTimeoutMs]: String(hub.connectTimeoutMs),
        [SETTING.readTimeoutMs]: String(hub.readTimeoutMs),
        [SETTING.maxRenderedLength]: String(hub.maxRenderedLength),
        [SETTING.timeZone]: hub.timeZone,
        [SETTING.clientId]: hub.clientId,
        [SETTING.clientSecret]: hub.clientSecret,
        [SETTING.sweepEnabled]: String(hub.sweepEnabled),
        [SETTING.commandWorkerEnabled]: String(hub.commandWorkerEnabled),
        [SETTING.preferenceDefaultAllow]: String(hub.preferenceDefaultAllow),
        [SETTING.housekeepingRetentionDays]: String(hub.housekeepingRetentionDays),
        [SETTING.enabled]: String(hub.enabled),
      },
    });

  // webhooks go through the platform's outbound client (SSRF guard, OUTBOUND_ALLOW); the token endpoint is
  // the platform's own, allowed by name. With no client configured, the identity service mints the tenant's
  // token in this process (its machine client `hub-webhooks.<tenant>`), no token endpoint needed.
  const outbound = deps.http === undefined ? createOutboundHttpClient({ allow: config.outboundAllow }) : undefined;
  const http = deps.http ?? outbound!;
  const tokenClient =
    deps.tenantTokens === undefined
      ? createOutboundHttpClient({ allow: [...config.outboundAllow, new URL(hub.tokenUrl).hostname] })
      : undefined;
  const tokens =
    deps.tenantTokens ??
    createTenantTokenCache({
      http: tokenClient!,
      clock,
      settings,
      tokenUrl: hub.tokenUrl,
      ...(hub.tokenScope !== undefined && { scope: hub.tokenScope }),
      mint: deps.identity.tenantToken,
    });

  const own = deps.drivers ?? [];
  const builtIn = [
    createRestWebhookDriver({
      http,
      tokens,
      settings,
      defaults: { connectTimeoutMs: hub.connectTimeoutMs, readTimeoutMs: hub.readTimeoutMs },
    }),
  ];
  const drivers = createDriverRegistry([
    ...own,
    ...builtIn.filter((d) => !own.some((o) => o.driverType === d.driverType)),
  ]);

  const configCommands = createConfigCommands({
    eventStore,
    clock,
    drivers,
    sealer: secretSealer,
    cacheMs: hub.configCacheMs,
  });
  const snapshots = createSnapshots({ eventStore });
  const gate = createDispatchGate({ eventStore, settings, defaultTimeZone: hub.timeZone });
  const customerPolicies = createCustomerPolicies({ eventStore, clock, settings });
  // comm-hub.enabled: off for a tenant, its sends are stored but nothing is sent (commands/hub/hub-switch.ts)
  const hubSwitch = createHubSwitch(settings);
  const dispatch = createDispatchProcess({
    eventStore,
    clock,
    drivers,
    snapshots,
    config: configCommands,
    publicBaseUrl: config.publicBaseUrl,
    // an attempt is lost only once its call is surely over: the lease, or the call's own timeouts and a margin
    outcomeAfterMs: (callMs) => Math.max(hub.dispatchLeaseMs, callMs + 5000),
    log: hubLog.child({ worker: 'hub.dispatch' }),
    gate,
    hubSwitch,
  });
  // the engine runs where workers run (the composition root starts it); inline dispatch only there
  let workersHere = false;
  const inline = createInlineDispatch({
    process: dispatch,
    maxInFlight: hub.inlineDispatchConcurrency,
    enabled: () => workersHere,
    log: hubLog.child({ worker: 'hub.inline-dispatch' }),
    unstarted: () => engine.wake(),
  });
  const engine = createDispatchWorker({
    items: liveCollection<DispatchDueItem>(readStore, DISPATCH_PROJECTION, 'due'),
    clock,
    process: dispatch,
    leaseMs: hub.dispatchLeaseMs,
    pollMs: hub.dispatchPollMs,
    concurrency: hub.dispatchConcurrency,
    inline,
    log: hubLog.child({ worker: 'hub.dispatch-worker' }),
  });
  const worker = {
    ...engine,
    start() {
      workersHere = true;
      engine.start();
    },
    async stop() {
      workersHere = false;
      await engine.stop();
    },
  };
  const sender = createSender({
    eventStore,
    clock,
    config: configCommands,
    snapshots,
    settings,
    defaults: { timeZone: hub.timeZone, maxRenderedLength: hub.maxRenderedLength },
    afterAccept: inline,
  });
  // TCC and the command worker, dead-letter alerts into the event bridge, the sweeps
  const recovery = createHubRecovery({ deps, hub, settings, sender, dispatch, log: hubLog });

  const configQueries = createConfigQueries(readStore);
  const { router, registry } = createHubRouter({
    bearer: deps.identity.bearer,
    sender,
    progress: createProgressQueries({ eventStore }),
    receipts: createReceipts({ eventStore, clock }),
    config: configCommands,
    configQueries,
    drivers,
    snapshots,
    snapshotQueries: createSnapshotQueries(readStore),
    tcc: recovery.tcc,
    operator: {
      commands: createOperatorCommands({ eventStore, clock, dispatch, gate, hubSwitch }),
      housekeeping: createHubHousekeeping({ deps, settings, retentionDays: hub.housekeepingRetentionDays }),
    },
    previews: createPreviews({
      config: configCommands,
      settings,
      defaults: { maxRenderedLength: hub.maxRenderedLength },
    }),
    bundle: createConfigBundle({ eventStore, clock, config: configCommands, queries: configQueries, drivers }),
    cacheBucket: createCacheBucket({ eventStore, clock, cache: configCommands.cache, settings }),
    customer: { policies: customerPolicies, queries: createCustomerQueries(readStore) },
  });

  return {
    name: 'hub',
    router,
    registry,
    // customer policies: a message that ended with nothing committed gives its quota slot back (docs/hub.md#customer-policies)
    reactors: [
      createQuotaReleaseReactor({
        eventStore,
        readStore,
        clock,
        gate,
        log: hubLog.child({ worker: QUOTA_RELEASE_REACTOR }),
      }),
      // an OPT_OUT / OPT_IN interaction always changes the preference, even after a crash between the two appends
      createInteractionPreferenceReactor({
        eventStore,
        readStore,
        clock,
        policies: customerPolicies,
        log: hubLog.child({ worker: INTERACTION_PREFERENCE_REACTOR }),
      }),
    ],
    engines: [worker, ...recovery.engines],
    // the definition cache follows the log in every process that builds the hub (commands/hub/config-cache.consumer.ts)
    caches: [
      createConfigCacheConsumer({
        eventStore,
        cache: configCommands.cache,
        onClear: (scope) => settings.clear?.(scope),
      }),
    ],
    timers: [],
    seed: async () => undefined,
    close: async () => undefined,
    async dispose() {
      await Promise.allSettled([outbound?.close(), tokenClient?.close()]);
    },
  };
}
