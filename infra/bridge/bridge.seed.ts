import type { Logger } from 'pino';
import type { BusCommands, BusLookup } from '../../commands/bridge/buses.commands.ts';
import type { ConfigCommands } from '../../commands/bridge/config-center.commands.ts';
import type { RuleCommands } from '../../commands/bridge/rules.commands.ts';
import type { SourceCommands } from '../../commands/bridge/sources.commands.ts';
import { busStream } from '../../domain/bridge/bus.decider.ts';
import { configEntryStream } from '../../domain/bridge/config-entry.decider.ts';
import { eventSourceStream } from '../../domain/bridge/event-source.decider.ts';
import { type BusKind, PLATFORM_TENANT, type Target } from '../../domain/bridge/model.ts';
import { ruleStream } from '../../domain/bridge/rule.decider.ts';
import { TARGET_TYPE_IDS } from '../../domain/bridge/target-params.ts';
import type { Clock } from '../core/clock.port.ts';
import type { EventStore } from '../core/event-store.port.ts';
import { platformSchemaDocuments, seedPlatformSchemas } from './platform-schemas.ts';

/**
 * The event bridge's first-start data (idempotent, derived command ids; something an administrator deleted
 * later is not re-created):
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
export type BridgeSeedReport = { created: string[] };

export type BridgeSeedDeps = {
  eventStore: EventStore;
  clock: Clock;
  buses: BusCommands;
  sources: SourceCommands;
  lookup: BusLookup;
  config: ConfigCommands;
  rules: RuleCommands;
  log: Pick<Logger, 'info'>;
};

export const PLATFORM_BUSES: ReadonlyArray<{ name: string; kind: BusKind; description: string }> = [
  {
    name: 'platform',
    kind: 'platform',
    description: 'the dedicated platform line: events of the platform’s own services',
  },
  { name: 'platform-batch', kind: 'platform', description: 'the batch module’s line: job alerts' },
  { name: 'baseline-policy', kind: 'baseline', description: 'baseline product: policy administration' },
  { name: 'baseline-claim', kind: 'baseline', description: 'baseline product: claims' },
  { name: 'baseline-product', kind: 'baseline', description: 'baseline product: product maintenance' },
];

/** which platform bus each platform source publishes to */
export const PLATFORM_SOURCE_BUS: Readonly<Record<string, string>> = { 'batchv2:job': 'platform-batch' };
export const ALERT_RULE_ID = 'platform-batch-job-alert';
export const ALERT_ACCOUNT_KEY = 'alert.mail.account';

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
        value: JSON.stringify({
          jobName: '$.data.jobName',
          status: '$.data.status',
          message: '$.data.message',
          occurredAt: '$.data.occurredAt',
        }),
        template: 'Batch job ${jobName} reported ${status} at ${occurredAt}: ${message}',
      },
    ],
    conversion: { kind: 'partial', path: '$.data' },
  };
}

export async function seedBridge(deps: BridgeSeedDeps): Promise<BridgeSeedReport> {
  const { eventStore, clock, buses, sources, lookup, config, rules, log } = deps;
  const created: string[] = [];
  const ctx = { tenant: PLATFORM_TENANT, actor: 'system:seed' };
  const fresh = async (stream: string) => (await eventStore.readStream(stream, { limit: 1 })).length === 0;

  const schemaReport = await seedPlatformSchemas({ eventStore, clock });
  created.push(...schemaReport.created.map((id) => `schema ${id}`));

  for (const b of PLATFORM_BUSES) {
    if (!(await fresh(busStream(PLATFORM_TENANT, b.name)))) continue;
    await buses.createBus(b, ctx, `bridge-seed/bus/${b.name}`);
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
      {
        busTenant: PLATFORM_TENANT,
        bus: s.bus,
        name: s.name,
        kind: 'platform',
        eventTypes: s.eventTypes,
        schemaId: s.schemaId,
      },
      ctx,
      `bridge-seed/source/${s.bus}/${s.name}`,
    );
    created.push(`source ${s.bus}/${s.name}`);
  }

  if (await fresh(configEntryStream(PLATFORM_TENANT, ALERT_ACCOUNT_KEY))) {
    await config.set(
      { key: ALERT_ACCOUNT_KEY, value: 'alerts@platform.local' },
      ctx,
      `bridge-seed/config/${ALERT_ACCOUNT_KEY}`,
    );
    created.push(`config ${ALERT_ACCOUNT_KEY}`);
  }

  if (
    (await fresh(ruleStream(PLATFORM_TENANT, ALERT_RULE_ID))) &&
    (await lookup.getBus(PLATFORM_TENANT, 'platform-batch')) !== null
  ) {
    await rules.create(
      {
        ruleId: ALERT_RULE_ID,
        bus: 'platform-batch',
        busKind: 'platform',
        busOwner: PLATFORM_TENANT,
        name: 'Batch job alert mail',
        description:
          'The standard alert mail for batch job alerts, through the platform mail target. Tenants may opt out and route the event themselves.',
        pattern: { source: ['batchv2:job'], type: ['batchv2:Alter:JobAlter'] },
        targets: [alertMailTarget()],
        platform: true,
      },
      ctx,
      `bridge-seed/rule/${ALERT_RULE_ID}`,
    );
    created.push(`rule ${ALERT_RULE_ID}`);
  }
  if (created.length > 0) log.info({ created }, 'bridge seeded');
  return { created };
}
