import { CATALOG_CATEGORY, catalogDecider } from '../../domain/audit/catalog.decider.ts';
import { LEDGER_CATEGORY, ledgerDecider } from '../../domain/audit/ledger.decider.ts';
import { RETENTION_CATEGORY, retentionDecider } from '../../domain/audit/retention.decider.ts';
import { LEVELS_CATEGORY, levelsDecider } from '../../domain/audit/warning-levels.decider.ts';
import { recordsProjection } from '../../projections/audit/records.projection.ts';
import { retentionProjection } from '../../projections/audit/retention.projection.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { type DeciderRegistry, deciderEntry as entry, type ServiceModule } from '../platform-service.ts';

/** The audit service's projections (free of HTTP imports: the CLI loads them). */
export const auditProjections = (): Projection[] => [recordsProjection(), retentionProjection];

/** The audit service's deciders by stream category (`platform replay --state`). */
export const auditDeciders = (): DeciderRegistry => ({
  [CATALOG_CATEGORY]: entry(catalogDecider),
  [LEVELS_CATEGORY]: entry(levelsDecider),
  [LEDGER_CATEGORY]: entry(ledgerDecider),
  [RETENTION_CATEGORY]: entry(retentionDecider),
});

/** The audit log as one entry of the platform's service list. */
export const auditModule: ServiceModule = {
  name: 'audit',
  projections: auditProjections,
  deciders: auditDeciders,
  async create(deps) {
    const { createAuditService } = await import('./audit.service.ts');
    return createAuditService(deps);
  },
};
