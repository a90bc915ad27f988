import { createApiDestinationCommands } from '../../commands/bridge/api-destinations.commands.ts';
import type { Convert } from '../../commands/bridge/bridge.contracts.ts';
import { createBusCommands, createBusLookup } from '../../commands/bridge/buses.commands.ts';
import { type CallerTokens, createCallerTokens } from '../../commands/bridge/caller-tokens.store.ts';
import { createConfigCenter, createConfigCommands } from '../../commands/bridge/config-center.commands.ts';
import { createConnectionCommands } from '../../commands/bridge/connections.commands.ts';
import { createDeadLetterCommands } from '../../commands/bridge/dead-letters.commands.ts';
import type { TargetAdapter } from '../../commands/bridge/delivery.contracts.ts';
import { createDeliveryScheduler } from '../../commands/bridge/delivery.scheduler.ts';
import {
  createDeliveryWorker,
  type DeliveryDueItem,
  type TenantProfile,
} from '../../commands/bridge/delivery.worker.ts';
import { createMqConsumers } from '../../commands/bridge/mq-consumers.commands.ts';
import { createPublisher } from '../../commands/bridge/publish.commands.ts';
import { createEventRouter, createRouterWorker } from '../../commands/bridge/router.process.ts';
import { createRuleTargetCommands } from '../../commands/bridge/rule-target-state.commands.ts';
import { createRuleCommands } from '../../commands/bridge/rules.commands.ts';
import { createSchemaCommands, createSchemaValidator } from '../../commands/bridge/schemas.commands.ts';
import { createServiceRegistry } from '../../commands/bridge/service-registry.commands.ts';
import { createSourceCommands } from '../../commands/bridge/sources.commands.ts';
import { createUserMessageCommands } from '../../commands/bridge/user-messages.commands.ts';
import { convert } from '../../domain/bridge/conversion/index.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { createBridgeRouter } from '../../http/bridge/bridge.router.ts';
import { createCatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import { DELIVERIES_PROJECTION } from '../../projections/bridge/deliveries.projection.ts';
import { createDeliveryQueries } from '../../projections/bridge/deliveries.queries.ts';
import { createRulesIndex } from '../../projections/bridge/rules-index.ts';
import { createServiceQueries } from '../../projections/bridge/services.projection.ts';
import { createTraceQueries } from '../../projections/bridge/trace.queries.ts';
import { createUserMessageQueries } from '../../projections/bridge/user-messages.projection.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import { lazyConfigBox } from '../identity/config-box.ts';
import { loadKeySecrets } from '../identity/key-secret.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';
import { seedBridge } from './bridge.seed.ts';
import { createTargetAdapters } from './target-adapters.ts';

/** how often expired caller tokens are deleted */
export const CALLER_TOKEN_SWEEP_MS = 60_000;

export type BridgeServiceDeps = ServiceDeps & {
  /**
   * The target adapters by TypeId (tests, or a deployment adding its own); default: the five real ones
   * (createTargetAdapters). An entry here replaces the real adapter of its TypeId.
   */
  targetAdapters?: TargetAdapter[];
  /** TENANT_PROFILE parameters (default: the identity service's tenant profiles) */
  tenantProfile?: (tenant: string) => Promise<TenantProfile | null>;
};

/**
 * The event bridge's composition, in one place: buses, sources, putEvent, rules,
 * configuration center, schema registry, routing and trace; delivery (the router schedules, the delivery
 * worker runs due deliveries on the work engine over the target adapters, dead letters, blocked rule
 * targets); connections and API destinations, the message queue, the users' inboxes. Building it does no
 * I/O; `seed()` does (infra/bridge/bridge.seed.ts).
 */
export function createBridgeService(deps: BridgeServiceDeps): PlatformService {
  const { config: serviceConfig, eventStore, readStore, clock, log } = deps;
  if (deps.identity === undefined) throw new Error('the bridge is built after the identity service');
  const { bearer } = deps.identity;
  const bridgeLog = log.child({ service: 'bridge' });
  // the key-encryption secret and the ones it replaced (KEY_ENCRYPTION_SECRET_PREVIOUS): read on first use
  const secret = () => loadKeySecrets(serviceConfig);
  // configuration-center secret values: sealed before they are appended
  const box = lazyConfigBox(serviceConfig);

  const catalog = createCatalogQueries(readStore, eventStore);
  const lookup = createBusLookup({ eventStore, platformSourceNamed: (s) => catalog.isPlatformSource(s) });
  const schemaValidator = createSchemaValidator({ eventStore });
  const schemaExists = async (tenant: string, schemaId: string) => {
    try {
      await schemaValidator.validate(tenant, schemaId, {});
      return true;
    } catch (err) {
      if (isDomainError(err) && err.code === 'SCHEMA.UNKNOWN') return false;
      throw err;
    }
  };
  const buses = createBusCommands({ eventStore, clock });
  const sources = createSourceCommands({ eventStore, clock, buses: lookup, schemaExists });
  const rules = createRuleCommands({ eventStore, clock });
  const config = createConfigCommands({ eventStore, clock, box });
  const schemas = createSchemaCommands({ eventStore, clock });
  // the publishing caller's token for Bearer `caller` connections (sealed, outside the log; the key-encryption
  // secret is read on first use)
  let callerTokenStore: CallerTokens | undefined;
  const callerTokens = () => (callerTokenStore ??= createCallerTokens({ readStore, clock, secret: secret() }));
  const rulesIndex = createRulesIndex({ readStore, eventStore });
  const configCenter = createConfigCenter({ eventStore, box });
  const routing = {
    eventStore,
    clock,
    rules: rulesIndex,
    configCenter,
    convert: convert as Convert,
    log: bridgeLog.child({ worker: 'bridge.router' }),
  };
  // routed by putEvent as it accepts; the router reactor routes what was accepted alone
  const router = createRouterWorker({ ...routing, readStore });
  const scheduler = createDeliveryScheduler({ eventStore, clock });
  const publisher = createPublisher({
    eventStore,
    clock,
    buses: lookup,
    schemaValidator,
    callerTokens: {
      keep: (ref, token, expiresAt) => callerTokens().keep(ref, token, expiresAt),
      has: (ref) => callerTokens().has(ref),
      forget: (ref) => callerTokens().forget(ref),
    },
    router: createEventRouter(routing),
    // its deliveries scheduled in the acceptance's commit, each started in a slot of this process's delivery
    // worker if there is one (its first attempt in the same commit); the others are claimed from their due items
    deliveries: (routed, targets, accepted, tolerate) =>
      scheduler.prepare(routed, targets, (fresh, wait) => deliveryWorker.startFresh(fresh, accepted, wait), tolerate),
    log: bridgeLog,
  });

  // delivery: EventRouted → DeliveryScheduled (putEvent, or the router reactor) with the first attempt where
  // a slot is free → due items (bridge.deliveries) for the rest → attempts
  const deliveryQueries = createDeliveryQueries(readStore);
  const ruleTargets = createRuleTargetCommands({ eventStore, clock });
  // the service registry (preset HTTP targets): a configuration resource, resolved at delivery time
  const services = createServiceRegistry({ eventStore, clock });
  const real = createTargetAdapters({ config: serviceConfig, eventStore, clock, configCenter, services });
  const own = deps.targetAdapters ?? [];
  const adapters = [...own, ...real.adapters.filter((a) => !own.some((t) => t.typeId === a.typeId))];
  const tenantProfile = deps.tenantProfile ?? deps.identity.tenantProfile;
  const deliveryWorker = createDeliveryWorker({
    eventStore,
    clock,
    items: liveCollection<DeliveryDueItem>(readStore, DELIVERIES_PROJECTION, 'due'),
    adapters,
    configCenter,
    tenantProfile: async (code) => ((await tenantProfile(code)) as TenantProfile | null) ?? null,
    callerToken: (ref) => callerTokens().get(ref),
    timeoutMs: serviceConfig.bridge.deliveryTimeoutMs,
    leaseMs: serviceConfig.bridge.deliveryLeaseMs,
    pollMs: serviceConfig.bridge.deliveryPollMs,
    concurrency: serviceConfig.bridge.deliveryConcurrency,
    log: bridgeLog.child({ worker: 'bridge.delivery-worker' }),
  });
  const deadLetters = createDeadLetterCommands({
    eventStore,
    clock,
    index: deliveryQueries,
    onRedriven: () => deliveryWorker.notify(),
  });
  const consumers = createMqConsumers({ eventStore, readStore, clock });

  const http = createBridgeRouter({
    eventStore,
    readStore,
    clock,
    bearer,
    publisher,
    buses,
    sources,
    lookup,
    catalog,
    rules,
    config,
    schemas,
    trace: createTraceQueries(readStore),
    deliveries: deliveryQueries,
    deadLetters,
    ruleTargets,
    connections: createConnectionCommands({ eventStore, clock, secret: secret() }),
    destinations: createApiDestinationCommands({ eventStore, clock, secret: secret() }),
    consumers,
    userMessages: {
      commands: createUserMessageCommands({ eventStore, clock }),
      queries: createUserMessageQueries(readStore),
    },
    services: { commands: services, queries: createServiceQueries(readStore) },
  });

  return {
    name: 'bridge',
    router: http.router,
    registry: http.registry,
    reactors: [router],
    engines: [deliveryWorker],
    caches: [],
    timers: [
      // a caller token is kept until its own expiry; past it no delivery can use it
      {
        name: 'bridge.caller-token-sweep',
        everyMs: CALLER_TOKEN_SWEEP_MS,
        run: () =>
          callerTokens()
            .sweep()
            .then(() => undefined),
      },
    ],
    async seed() {
      const report = await seedBridge({ eventStore, clock, buses, sources, lookup, config, rules, log: bridgeLog });
      // SERVICE_REGISTRY: platform entries of the service registry (idempotent; API changes survive restarts)
      const written = await services.seed(serviceConfig.serviceRegistry);
      if (written > 0) bridgeLog.info({ services: written }, 'service registry seeded from SERVICE_REGISTRY');
      return report;
    },
    close: () => consumers.close(), // ends the message queue's waiting long-polls
    async dispose() {
      real.close(); // the SMTP and HTTP connection pools
    },
  };
}
