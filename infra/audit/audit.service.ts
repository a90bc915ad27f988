import { createCatalogCommands } from '../../commands/audit/catalog.commands.ts';
import { createLedgerWriter } from '../../commands/audit/ledger.writer.ts';
import { createAuditMetadata } from '../../commands/audit/metadata.cache.ts';
import {
  createRetentionCommands,
  createRetentionWorker,
  type RetentionDueItem,
} from '../../commands/audit/retention.commands.ts';
import { createAuditRouter } from '../../http/audit/audit.router.ts';
import { createRecordQueries } from '../../projections/audit/records.queries.ts';
import { RETENTION_PROJECTION } from '../../projections/audit/retention.projection.ts';
import { createScrolls } from '../../projections/audit/scrolls.store.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';
import { type AuditConfig, loadAuditConfig } from './audit.config.ts';

/** how often scrolls expired long ago are removed */
export const SCROLL_SWEEP_MS = 60_000;

export type AuditServiceDeps = ServiceDeps & { auditConfig?: AuditConfig };

/**
 * The audit log's composition: metadata (the tenant catalogs and the platform's warning levels,
 * in memory from the log), the ledger writer (per-tenant hash chain, group commit, idempotency), the
 * records projection's queries (page, scroll, export, verify), retention (a daily due item per tenant on the
 * work engine). Building it does no I/O.
 */
export function createAuditService(deps: AuditServiceDeps): PlatformService {
  const { eventStore, readStore, clock, log } = deps;
  if (deps.identity === undefined) throw new Error('the audit service is built after the identity service');
  const config = deps.auditConfig ?? loadAuditConfig();
  const auditLog = log.child({ service: 'audit' });

  const metadata = createAuditMetadata({ eventStore });
  const queries = createRecordQueries(readStore);
  const writer = createLedgerWriter({
    eventStore,
    clock,
    projectedKey: (tenant, key) => queries.key(tenant, key),
    projectedSequence: async (tenant) => (await queries.chain(tenant))?.last_sequence ?? 0,
    maxBatch: config.writeBatchMax,
  });
  const catalog = createCatalogCommands({ eventStore, clock, metadata });
  const retention = createRetentionCommands({ eventStore, clock });
  const scrolls = createScrolls({ readStore, clock, idleMs: config.scrollIdleSeconds * 1000 });
  const retentionWorker = createRetentionWorker({
    eventStore,
    clock,
    items: liveCollection<RetentionDueItem>(readStore, RETENTION_PROJECTION, 'due'),
    lastSequenceBefore: (tenant, cutoff) => queries.lastSequenceBefore(tenant, cutoff),
    log: auditLog.child({ worker: 'audit.retention' }),
  });

  const http = createAuditRouter({
    eventStore,
    bearer: deps.identity.bearer,
    writer,
    metadata,
    catalog,
    queries,
    scrolls,
    retention,
  });

  return {
    name: 'audit',
    router: http.router,
    registry: http.registry,
    reactors: [],
    engines: [retentionWorker],
    caches: [metadata],
    timers: [
      { name: 'audit.scroll-sweep', everyMs: SCROLL_SWEEP_MS, run: () => scrolls.sweep().then(() => undefined) },
    ],
    seed: async () => undefined,
    close: async () => undefined,
    dispose: async () => undefined,
  };
}
