
import type { Logger } from 'pino';
import { createBusCommands, createBusLookup, type BusCommands, type BusLookup } from '../../commands/bridge/buses.ts';
import { createConfigCenter, createConfigCommands, type ConfigCommands } from '../../commands/bridge/config-center.ts';
import type { ConfigCenter, Convert, RulesIndex, SchemaValidator } from '../../commands/bridge/contracts.ts';
import { createApiDestinationReader } from '../../commands/bridge/api-destinations.ts';
import { createCallerTokens, type CallerTokens } from '../../commands/bridge/caller-tokens.ts';
import { createConnectionReader } from '../../commands/bridge/connections.ts';
import { createDeadLetterCommands, type DeadLetterCommands } from '../../commands/bridge/dead-letters.ts';
import type { TargetAdapter } from '../../commands/bridge/delivery-contracts.ts';
import { createDeliverySchedulerWorker } from '../../commands/bridge/delivery.scheduler.ts';
import { createDeliveryWorker, type DeliveryDueItem, type DeliveryWorker, type TenantProfile } from '../../commands/bridge/delivery.worker.ts';
import { createOAuthTokenCache } from '../../commands/bridge/oauth-token-cache.ts';
import { createRuleTargetCommands, type RuleTargetCommands } from '../../commands/bridge/rule-target-state.ts';
import { createApiDestinationTarget } from '../../commands/bridge/targets/api-destination.target.ts';
import { createMailTarget } from '../../commands/bridge/targets/mail.target.ts';
import { createMessageQueueTarget } from '../../commands/bridge/targets/message-queue.target.ts';
import { createPresetHttpTarget, serviceRegistryFrom } from '../../commands/bridge/targets/preset-http.target.ts';
import { createUserMessageBoxTarget } from '../../commands/bridge/targets/user-message-box.target.ts';
import { createDirectory } from '../../commands/identity/directory.ts';
import { createPublisher, type PublisherService } from '../../commands/bridge/publish.ts';
import { createRouterWorker } from '../../commands/bridge/router.process.ts';
import { createRuleCommands, type RuleCommands } from '../../commands/bridge/rules.ts';
import { createSchemaCommands, createSchemaValidator, type SchemaCommands } from '../../commands/bridge/schemas.ts';
import { createSourceCommands, type SourceCommands } from '../../commands/bridge/sources.ts';
import type { Reactor } from '../../commands/core/reactor.ts';
import { busStream } from '../../domain/bridge/bus.decider.ts';
import { convert } from '../../domain/bridge/conversion/index.ts';
import { configEntryStream } from '../../domain/bridge/config-entry.decider.ts';
import { eventSourceStream } from '../../domain/bridge/event-source.decider.ts';
import { PLATFORM_TENANT, type BusKind, type Target } from '../../domain/bridge/model.ts';
import { ruleStream } from '../../domain/bridge/rule.decider.ts';
import { TARGET_TYPE_IDS } from '../../domain/bridge/target-params.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { BearerAuth } from '../../http/core/bearer-auth.ts';
import type { RouteRegistry } from '../../http/core/route-registry.ts';
import { createBridgeRouter } from '../../http/bridge/bridge.router.ts';
import { createCatalogQueries, type CatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import { createRulesIndex } from '../../projections/bridge/rules-index.ts';
import { createDeliveryQueries, DELIVERIES_PROJECTION } from '../../projections/bridge/deliveries.projection.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import type { Clock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import type { MailSender } from '../core/mail.port.ts';
import type { ReadStore } from '../core/read-store.port.ts';
import { Router } from 'express';
import { createApiDestinationCommands } from '../../commands/bridge/api-destinations.ts';
import { createConnectionCommands } from '../../commands/bridge/connections.ts';
import { createMqConsumers } from '../../commands/bridge/mq-consumers.ts';
import { createUserMessageCommands } from '../../commands/bridge/user-messages.ts';
import { createDestinationsRouter } from '../../http/bridge/destinations.router.ts';
import { createMqRouter } from '../../http/bridge/mq.router.ts';
import { createUserMessagesRouter } from '../../http/bridge/user-messages.router.ts';
import { createUserMessageQueries } from '../../projections/bridge/user-messages.projection.ts';
import { loadKeyEncryptionSecret } from '../identity/key-secret.ts';
import { createHttpClient } from '../net/http-client.ts';
import { createSmtpMailSender, smtpMailOptions } from '../net/smtp-mail.ts';
import { platformSchemaDocuments, seedPlatformSchemas } from './platform-schemas.ts';

/**
 * The event bridge's composition (issues 4 and 5): buses, sources, putEvent, rules, configuration center,
 * schema registry, routing and trace; delivery (scheduler, worker over the target adapters, dead letters,
 * blocked rule targets). Building it does no I/O; `seed()` does, `workers` run the router, the delivery
 * scheduler and the delivery worker.
 *
 * Seed (idempotent, derived command ids; something an administrator deleted later is not re-created):
 * - the platform bus family: `platform` (the dedicated platform line: identity and product events) and
 *   `platform-batch` (the batch module's line); baseline buses `baseline-policy`, `baseline-claim`,
 *   `baseline-product` (their sources are registered by platform administrators as baseline products
 *   arrive);
 * - the platform event sources with their schemas (infra/bridge/platform-schemas.ts: each platform source
 *   has a schema in the registry), registered on their bus with the event types they publish;
 * - the spec's example platform rule `platform-batch-job-alert`: every `batchv2:Alter:JobAlter` event on
 *   `platform-batch` goes to the platform mail target (TypeId 1: SUBJECT constant, ACCOUNT from the
 *   configuration-center key `alert.mail.account`, TO the tenant's support mail group (TENANT_PROFILE),
 *   CONTENT a template over the alert), payload `$.data`; tenants switch it off for themselves with
 *   POST /platform-rules/platform-batch-job-alert/opt-out and route the type with their own rule;
 * - the platform's `alert.mail.account` configuration value (a tenant may set its own: the router reads the
 *   event tenant's first).
 */
export type BridgeServiceDeps = {
  config: Config;
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  log: Logger;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope' | 'targetTenant'>;
  /**
   * The target adapters by TypeId (tests, or a deployment adding its own); default: the five real ones
   * (createTargetAdapters). An entry here replaces the real adapter of its TypeId.
   */
  targetAdapters?: TargetAdapter[];
  /** TENANT_PROFILE parameters: the identity directory's tenant record (default: read from its stream) */
  tenantProfile?: (tenant: string) => Promise<TenantProfile | null>;
};

export type BridgeSeedReport = { created: string[] };

export type BridgeService = {
  router: Router;
  /** ends the message queue's waiting long-polls (before the HTTP server drains) */
  close(): Promise<void>;
  registry: RouteRegistry;
  /** the bridge's projections (also listed in infra/platform-projections.ts) */
  projections: Projection[];
  /** the process managers (start/stop/status): routing, delivery scheduling, the delivery worker */
  workers: Reactor[];
  /** the delivery worker (also in `workers`) */
  deliveryWorker: DeliveryWorker;
  deadLetters: DeadLetterCommands;
  ruleTargets: RuleTargetCommands;
  seed(): Promise<BridgeSeedReport>;
  publisher: PublisherService;
  buses: BusCommands;
  sources: SourceCommands;
  lookup: BusLookup;
  catalog: CatalogQueries;
  rules: RuleCommands;
  config: ConfigCommands;
  schemas: SchemaCommands;
  rulesIndex: RulesIndex;
  configCenter: ConfigCenter;
  schemaValidator: SchemaValidator;
};

/** The bridge's projections, for infra/platform-projections.ts. */
export { bridgeProjections } from './bridge-projections.ts';
import { bridgeProjections as bridgeProjectionList } from './bridge-projections.ts';

export const PLATFORM_BUSES: ReadonlyArray<{ name: string; kind: BusKind; description: string }> = [
  { name: 'platform', kind: 'platform', description: 'the dedicated platform line: events of the platform’s own services' },
  { name: 'platform-batch', kind: 'platform', description: 'the batch module’s line: job alerts' },
  { name: 'baseline-policy', kind: 'baseline', description: 'baseline product: policy administration' },
  { name: 'baseline-claim', kind: 'baseline', description: 'baseline product: claims' },
  { name: 'baseline-product', kind: 'baseline', description: 'baseline product: product maintenance' },
];

/** which platform bus each platform source publishes to */
export const PLATFORM_SOURCE_BUS: Readonly<Record<string, string>> = { 'batchv2:job': 'platform-batch' };
export const ALERT_RULE_ID = 'platform-batch-job-alert';
export const ALERT_ACCOUNT_KEY = 'alert.mail.account';
/** how often the delivery worker's runner deletes expired caller tokens */
export const CALLER_TOKEN_SWEEP_MS = 60_000;

export function alertMailTarget(): Target {
  return {
    id: 1,
    typeId: TARGET_TYPE_IDS.mail,
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: true,
    params: [
      { resourceKey: 'SUBJECT', form: 'CONSTANT', value: 'Batch job alert' },
      { resourceKey: 'ACCOUNT', form: 'ENV_PARAM', value: ALERT_ACCOUNT_KEY },
      { resourceKey: 'TO', form: 'TENANT_PROFILE', value: 'supportMailGroup' },
      {
        resourceKey: 'CONTENT',
        form: 'TEMPLATE',
        value: JSON.stringify({ jobName: '$.data.jobName', status: '$.data.status', message: '$.data.message', occurredAt: '$.data.occurredAt' }),
        template: 'Batch job ${jobName} reported ${status} at ${occurredAt}: ${message}',
      },
    ],
    conversion: { kind: 'partial', path: '$.data' },
  };
}

/**
 * The real target adapters (issue 5), by TypeId: 1 mail (SMTP through nodemailer: SMTP_*; without
 * SMTP_HOST every mail delivery fails, retryable, naming the missing setting), 2 platform message queue
 * (topic logs in the event store), 3 preset HTTP client (SERVICE_REGISTRY), 4 API destination (with its
 * connections, secrets opened with the key-encryption secret, OAuth tokens cached), 5 user message box.
 * `close()` ends the SMTP connection pool.
 */
export function createTargetAdapters(deps: { config: Config; eventStore: EventStore; clock: Clock; configCenter: ConfigCenter }): { adapters: TargetAdapter[]; close(): void } {
  const { config, eventStore, clock, configCenter } = deps;
  const http = createHttpClient();
  const smtp = smtpMailOptions(config.smtp);
  const sender = smtp !== undefined ? createSmtpMailSender(smtp) : undefined;
  const mail: MailSender = sender ?? {
    send: async () => {
      throw new Error('no SMTP server is configured (SMTP_HOST)');
    },
  };
  let messageIdDomain = 'platform';
  try {
    messageIdDomain = new URL(config.publicBaseUrl).hostname || messageIdDomain;
  } catch {
    // validated at start
  }
  // the connection secrets' key: read only when an API destination is delivered (a process without
  // deliveries never creates DATA_DIR/key-encryption.secret for it)
  let connections: ReturnType<typeof createConnectionReader> | undefined;
  const connectionReader = () => (connections ??= createConnectionReader({ eventStore, secret: loadKeyEncryptionSecret(config) }));
  const adapters: TargetAdapter[] = [
    createMailTarget({ mail, defaultFrom: config.smtp.from, messageIdDomain }),
    createMessageQueueTarget({ eventStore, clock }),
    createPresetHttpTarget({ http, registry: serviceRegistryFrom(config.serviceRegistry) }),
    createApiDestinationTarget({
      http,
      destinations: createApiDestinationReader({ eventStore }),
      connections: { resolve: (tenant, name) => connectionReader().resolve(tenant, name) },
      oauth: createOAuthTokenCache({ http, clock }),
      configCenter,
    }),
    createUserMessageBoxTarget({ eventStore, clock }),
  ];
  return { adapters, close: () => sender?.close() };
}

export function createBridgeService({ config: serviceConfig, eventStore, readStore, clock, log, bearer, targetAdapters, tenantProfile }: BridgeServiceDeps): BridgeService {
  const bridgeLog = log.child({ service: 'bridge' });
  const catalog = createCatalogQueries(readStore);
  const lookup = createBusLookup({ eventStore, platformSourceNamed: (s) => catalog.isPlatformSource(s) });
  const schemaValidator = createSchemaValidator({ eventStore });
  const schemaExists = async (tenant: string, schemaId: string) => {
    try {
      await schemaValidator.validate(tenant, schemaId, {});
      return true;
    } catch (err) {
      if (isDomainError(err) && err.code === 'SCHEMA.NOT_FOUND') return false;
      throw err;
    }
  };
  const buses = createBusCommands({ eventStore, clock });
  const sources = createSourceCommands({ eventStore, clock, buses: lookup, schemaExists });
  const rules = createRuleCommands({ eventStore, clock });
  const config = createConfigCommands({ eventStore, clock });
  const schemas = createSchemaCommands({ eventStore, clock });
  // the publishing caller's token for Bearer `caller` connections (sealed, outside the log; the key-encryption
  // secret is read on first use)
  let callerTokenStore: CallerTokens | undefined;
  const callerTokens = () => (callerTokenStore ??= createCallerTokens({ readStore, clock, secret: loadKeyEncryptionSecret(serviceConfig) }));
  const publisher = createPublisher({
    eventStore,
    clock,
    buses: lookup,
    schemaValidator,
    callerTokens: {
      keep: (eventKey, token, expiresAt) => callerTokens().keep(eventKey, token, expiresAt),
      has: (eventKey) => callerTokens().has(eventKey),
      forget: (eventKey) => callerTokens().forget(eventKey),
    },
  });
  const rulesIndex = createRulesIndex(readStore);
  const configCenter = createConfigCenter({ eventStore });
  const router = createRouterWorker({
    eventStore,
    readStore,
    clock,
    rules: rulesIndex,
    configCenter,
    convert: convert as Convert,
    log: bridgeLog.child({ worker: 'bridge.router' }),
  });

  // delivery (issue 5): EventRouted → DeliveryScheduled (scheduler) → attempts (worker) over the adapters
  const deliveryQueries = createDeliveryQueries(readStore);
  const ruleTargets = createRuleTargetCommands({ eventStore, clock });
  const real = createTargetAdapters({ config: serviceConfig, eventStore, clock, configCenter });
  const adapters = [...(targetAdapters ?? []), ...real.adapters.filter((a) => !(targetAdapters ?? []).some((t) => t.typeId === a.typeId))];
  const directory = tenantProfile === undefined ? createDirectory({ eventStore, clock }) : undefined;
  const deliveryWorker = createDeliveryWorker({
    eventStore,
    clock,
    items: liveCollection<DeliveryDueItem>(readStore, DELIVERIES_PROJECTION, 'due'),
    adapters,
    configCenter,
    tenantProfile: tenantProfile ?? (async (code) => (await directory!.getTenant(code)) ?? null),
    callerToken: (eventKey) => callerTokens().get(eventKey),
    timeoutMs: serviceConfig.bridge.deliveryTimeoutMs,
    leaseMs: serviceConfig.bridge.deliveryLeaseMs,
    pollMs: serviceConfig.bridge.deliveryPollMs,
    concurrency: serviceConfig.bridge.deliveryConcurrency,
    log: bridgeLog.child({ worker: 'bridge.delivery-worker' }),
  });
  const deliveryScheduler = createDeliverySchedulerWorker({
    eventStore,
    readStore,
    clock,
    log: bridgeLog.child({ worker: 'bridge.delivery-scheduler' }),
    onScheduled: (stream, o) => deliveryWorker.notify(stream, o),
  });
  const deadLetters = createDeadLetterCommands({ eventStore, clock, index: deliveryQueries, onRedriven: (stream) => deliveryWorker.notify(stream) });
  // the worker as started and stopped with the others; stopping it also closes the SMTP pool
  // and sweeps the expired caller tokens while it runs (commands/bridge/caller-tokens.ts: a caller token is
  // kept until its own expiry; past it no delivery can use it)
  let sweeper: NodeJS.Timeout | undefined;
  const sweepCallerTokens = () => {
    callerTokens()
      .sweep().catch((err: unknown) => bridgeLog.warn({ err: err instanceof Error ? err.message : String(err) }, 'caller token sweep failed'));
  };
  const deliveryWorkerRunner: Reactor = {
    name: deliveryWorker.name,
    start: () => {
      deliveryWorker.start();
      if (sweeper === undefined) {
        sweeper = setInterval(sweepCallerTokens, Math.max(serviceConfig.bridge.deliveryPollMs, CALLER_TOKEN_SWEEP_MS));
        sweeper.unref();
      }
    },
    stop: async () => {
      clearInterval(sweeper);
      sweeper = undefined;
      await deliveryWorker.stop();
      real.close();
    },
    status: () => deliveryWorker.status(),
    drain: () => deliveryWorker.drain(),
  };

  const http = createBridgeRouter({ eventStore, readStore, clock, bearer, publisher, buses, sources, lookup, catalog, rules, config, schemas, deadLetters, ruleTargets });
  // connections and API destinations, the message queue's consumers, the users' inboxes: same registry
  const consumers = createMqConsumers({ eventStore, readStore, clock });
  const bridgeRouter = Router();
  bridgeRouter.use(http.router);
  bridgeRouter.use(
    createDestinationsRouter({
      connections: createConnectionCommands({ eventStore, clock, secret: loadKeyEncryptionSecret(serviceConfig) }),
      destinations: createApiDestinationCommands({ eventStore, clock }),
      readStore,
      bearer,
      registry: http.registry,
    }),
  );
  bridgeRouter.use(createMqRouter({ consumers, bearer, registry: http.registry }));
  bridgeRouter.use(
    createUserMessagesRouter({ commands: createUserMessageCommands({ eventStore, clock }), queries: createUserMessageQueries(readStore), bearer, registry: http.registry }),
  );

  async function seed(): Promise<BridgeSeedReport> {
    const created: string[] = [];
    const ctx = { tenant: PLATFORM_TENANT, actor: 'system:seed' };
    const fresh = async (stream: string) => (await eventStore.readStream(stream, { limit: 1 })).length === 0;

    const schemaReport = await seedPlatformSchemas({ eventStore, clock });
    created.push(...schemaReport.created.map((id) => `schema ${id}`));

    for (const b of PLATFORM_BUSES) {
      if (!(await fresh(busStream(PLATFORM_TENANT, b.name)))) continue;
      await buses.createBus({ tenant: PLATFORM_TENANT, ...b }, ctx, `bridge-seed/bus/${b.name}`);
      created.push(`bus ${b.name}`);
    }

    // one source per (bus, source), with every event type its schemas name
    const bySource = new Map<string, { bus: string; name: string; eventTypes: string[]; schemaId: string }>();
    for (const doc of platformSchemaDocuments()) {
      const bus = PLATFORM_SOURCE_BUS[doc.source] ?? 'platform';
      const key = `${bus}~${doc.source}`;
      const entry = bySource.get(key) ?? { bus, name: doc.source, eventTypes: [], schemaId: doc.schemaId };
      entry.eventTypes.push(doc.eventType);
      bySource.set(key, entry);
    }
    for (const s of bySource.values()) {
      if (!(await fresh(eventSourceStream(PLATFORM_TENANT, s.bus, s.name)))) continue;
      if ((await lookup.getBus(PLATFORM_TENANT, s.bus)) === null) continue; // an administrator deleted the bus
      await sources.registerSource(
        { busTenant: PLATFORM_TENANT, bus: s.bus, name: s.name, kind: 'platform', eventTypes: s.eventTypes, schemaId: s.schemaId },
        ctx,
        `bridge-seed/source/${s.bus}/${s.name}`,
      );
      created.push(`source ${s.bus}/${s.name}`);
    }

    if (await fresh(configEntryStream(PLATFORM_TENANT, ALERT_ACCOUNT_KEY))) {
      await config.set({ tenant: PLATFORM_TENANT, key: ALERT_ACCOUNT_KEY, value: 'alerts@platform.local' }, ctx, `bridge-seed/config/${ALERT_ACCOUNT_KEY}`);
      created.push(`config ${ALERT_ACCOUNT_KEY}`);
    }

    if ((await fresh(ruleStream(PLATFORM_TENANT, ALERT_RULE_ID))) && (await lookup.getBus(PLATFORM_TENANT, 'platform-batch')) !== null) {
      await rules.create(
        {
          tenant: PLATFORM_TENANT,
          ruleId: ALERT_RULE_ID,
          bus: 'platform-batch',
          busKind: 'platform',
          busOwner: PLATFORM_TENANT,
          name: 'Batch job alert mail',
          description: 'The standard alert mail for batch job alerts, through the platform mail target. Tenants may opt out and route the event themselves.',
          pattern: { source: ['batchv2:job'], type: ['batchv2:Alter:JobAlter'] },
          targets: [alertMailTarget()],
          platform: true,
        },
        ctx,
        `bridge-seed/rule/${ALERT_RULE_ID}`,
      );
      created.push(`rule ${ALERT_RULE_ID}`);
    }
    if (created.length > 0) bridgeLog.info({ created }, 'bridge seeded');
    return { created };
  }

  return {
    router: bridgeRouter,
    registry: http.registry,
    close: () => consumers.close(),
    projections: bridgeProjectionList(),
    workers: [router, deliveryScheduler, deliveryWorkerRunner],
    deliveryWorker,
    deadLetters,
    ruleTargets,
    seed,
    publisher,
    buses,
    sources,
    lookup,
    catalog,
    rules,
    config,
    schemas,
    rulesIndex,
    configCenter,
    schemaValidator,
  };
}
