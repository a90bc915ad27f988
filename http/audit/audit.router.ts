import { Router } from 'express';
import type { CatalogCommands } from '../../commands/audit/catalog.commands.ts';
import type { LedgerWriter } from '../../commands/audit/ledger.writer.ts';
import type { AuditMetadata } from '../../commands/audit/metadata.cache.ts';
import type { RetentionCommands } from '../../commands/audit/retention.commands.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { RecordQueries } from '../../projections/audit/records.queries.ts';
import type { Scrolls } from '../../projections/audit/scrolls.store.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { AUDIT_OPENAPI_PATH } from './audit.paths.ts';
import { createIntegrityRouter } from './integrity.router.ts';
import { createLogRouter } from './log.router.ts';
import { createLogExportRouter } from './log-export.router.ts';
import { createMetadataRouter } from './metadata.router.ts';
import { createMetadataSheetRouter } from './metadata-sheet.router.ts';
import { createRecordRouter } from './record.router.ts';

/**
 * The audit service's router (mounted at `/`): the log (v3 and v2), metadata with its spreadsheets, the
 * export, verify and retention, and the OpenAPI 3 document at `GET /api/platform/audit/1.0/openapi.json`
 * (public: it describes the API, it reveals no data). It only composes what infra/audit/audit.service.ts built.
 */
export type AuditRouterDeps = {
  eventStore: EventStore;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  writer: LedgerWriter;
  metadata: AuditMetadata;
  catalog: CatalogCommands;
  queries: RecordQueries;
  scrolls: Scrolls;
  retention: RetentionCommands;
};

export function createAuditRouter(deps: AuditRouterDeps): { router: Router; registry: RouteRegistry } {
  const { bearer } = deps;
  const registry = createRouteRegistry();
  const router = Router();
  router.use(
    createLogRouter({
      writer: deps.writer,
      metadata: deps.metadata,
      queries: deps.queries,
      scrolls: deps.scrolls,
      bearer,
      registry,
    }),
  );
  router.use(createLogExportRouter({ queries: deps.queries, bearer, registry }));
  router.use(createRecordRouter({ queries: deps.queries, bearer, registry }));
  router.use(createMetadataRouter({ commands: deps.catalog, metadata: deps.metadata, bearer, registry }));
  router.use(createMetadataSheetRouter({ commands: deps.catalog, metadata: deps.metadata, bearer, registry }));
  router.use(
    createIntegrityRouter({
      eventStore: deps.eventStore,
      queries: deps.queries,
      retention: deps.retention,
      bearer,
      registry,
    }),
  );

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(AUDIT_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Audit log', registry);
    res.json(document);
  });
  return { router, registry };
}
