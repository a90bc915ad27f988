// Shared set-up for the bridge's command specs (not a spec itself): real SQLite stores in a temp dir, the
// real rules, config center, schema registry and conversion, and a synchronous projection catch-up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Convert } from '../../../commands/bridge/bridge.contracts.ts';
import { createBusCommands, createBusLookup } from '../../../commands/bridge/buses.commands.ts';
import { createConfigCenter, createConfigCommands } from '../../../commands/bridge/config-center.commands.ts';
import { createPublisher } from '../../../commands/bridge/publish.commands.ts';
import { createRuleCommands } from '../../../commands/bridge/rules.commands.ts';
import { createSchemaValidator } from '../../../commands/bridge/schemas.commands.ts';
import { createSourceCommands } from '../../../commands/bridge/sources.commands.ts';
import { convert } from '../../../domain/bridge/conversion/index.ts';
import type { Target } from '../../../domain/bridge/model.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { catalogProjection, createCatalogQueries } from '../../../projections/bridge/catalog.projection.ts';
import { rulesProjection } from '../../../projections/bridge/rules.projection.ts';
import { createRulesIndex } from '../../../projections/bridge/rules-index.ts';
import { traceProjection } from '../../../projections/bridge/trace.projection.ts';
import { applyBatch, projectionFilter } from '../../../projections/core/apply-batch.ts';
import { initCheckpoint, readCheckpoint } from '../../../projections/core/checkpoints.ts';
import type { Projection } from '../../../projections/core/projection.ts';

export const ctxOf = (tenant: string) => ({ tenant, actor: `spec@${tenant}` });

export function mailTarget(id = 1): Target {
  return {
    id,
    typeId: 1,
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: true,
    params: [
      { resourceKey: 'SUBJECT', form: 'CONSTANT', value: 'Batch job alert' },
      { resourceKey: 'ACCOUNT', form: 'ENV_PARAM', value: 'alert.mail.account' },
      { resourceKey: 'TO', form: 'TENANT_PROFILE', value: 'supportMailGroup' },
      {
        resourceKey: 'CONTENT',
        form: 'TEMPLATE',
        value: '{"job":"$.data.jobName"}',
        template: 'Job ${job} raised an alert',
      },
    ],
    conversion: {
      kind: 'template',
      variables: { job: '$.data.jobName', level: '$.data.level' },
      template: '{"job":"${job}","level":"${level}"}',
    },
  };
}

export function httpTarget(id: number, conversion: Target['conversion']): Target {
  return {
    id,
    typeId: 3,
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: false,
    params: [
      { resourceKey: 'SERVICE_NAME', form: 'CONSTANT', value: 'claims' },
      { resourceKey: 'BODY', form: 'ORIGINAL', value: '' },
    ],
    conversion,
  };
}

export async function createBridgeFixture(o: { convert?: Convert } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bridge-spec-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const catalog = createCatalogQueries(readStore, eventStore);
  const lookup = createBusLookup({ eventStore, platformSourceNamed: (s) => catalog.isPlatformSource(s) });
  const buses = createBusCommands({ eventStore, clock });
  const sources = createSourceCommands({ eventStore, clock, buses: lookup });
  const rules = createRuleCommands({ eventStore, clock });
  const config = createConfigCommands({ eventStore, clock });
  const configCenter = createConfigCenter({ eventStore });
  const schemaValidator = createSchemaValidator({ eventStore });
  const publisher = createPublisher({ eventStore, clock, buses: lookup, schemaValidator });
  const rulesIndex = createRulesIndex({ readStore, eventStore });

  /** applies every pending event to a projection, synchronously (no runner, no timing) */
  async function catchUp(...projections: Projection[]) {
    for (const p of projections) {
      await initCheckpoint(readStore, p, clock.now().toISOString());
      while (true) {
        const cp = (await readCheckpoint(readStore, p.name))!;
        const page = await eventStore.readAll({ after: cp.position, filter: projectionFilter(p), limit: 500 });
        if (page.length === 0) break;
        await readStore.transaction((tx) => applyBatch(tx, p, page, clock.now().toISOString()));
      }
    }
  }

  let seq = 0;
  const cmd = (what: string) => `spec/${what}/${++seq}`;

  return {
    dir,
    eventStore,
    readStore,
    clock,
    catalog,
    lookup,
    buses,
    sources,
    rules,
    config,
    configCenter,
    schemaValidator,
    publisher,
    rulesIndex,
    convert: o.convert ?? (convert as Convert),
    catchUp,
    catchUpAll: () => catchUp(catalogProjection, rulesProjection, traceProjection),
    /** a rule of acme on its `orders` bus matching `data.kind`, applied before it answers */
    async ordersRule(ruleId: string, kind: string, targets: Target[]) {
      await rules.create(
        {
          ruleId,
          bus: 'orders',
          busKind: 'custom',
          busOwner: 'acme',
          name: ruleId,
          pattern: { data: { kind: [kind] } },
          targets,
        },
        ctxOf('acme'),
        `rule/${ruleId}`,
      );
      await catchUp(catalogProjection, rulesProjection, traceProjection);
    },
    cmd,
    async close() {
      await eventStore.close();
      await readStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type BridgeFixture = Awaited<ReturnType<typeof createBridgeFixture>>;
