import { Router } from 'express';
import type { RetentionCommands } from '../../commands/audit/retention.commands.ts';
import type { RetentionState } from '../../domain/audit/retention.decider.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { RecordQueries } from '../../projections/audit/records.queries.ts';
import { verifyChain } from '../../projections/audit/verify.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import { AUDIT_ADMIN_SCOPE, AUDIT_READ_SCOPE, RETENTION, VERIFY } from './audit.paths.ts';
import { retentionBody, retentionView, verifyQuery } from './audit.schemas.ts';
import { readTenant } from './read-tenant.ts';

/**
 * Tamper evidence and retention, under `/api/platform/audit/1.0/audit/v3`:
 *
 *   GET …/verify?from_sequence=&to_sequence=   (scope audit:read; `target_tenant`: read-tenant.ts) the
 *                                              range (default: the whole chain) recomputed from the log and
 *                                              from the query store (projections/audit/verify.ts)
 *   GET …/retention                            (scope audit:admin) {days, retired_through_sequence, …}
 *   PUT …/retention                            {days: 1-36500 | null}: null keeps every record (the default)
 */
export type IntegrityRouterDeps = {
  eventStore: EventStore;
  queries: RecordQueries;
  retention: RetentionCommands;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

const retentionOf = (s: RetentionState) => ({
  days: s.days,
  retired_through_sequence: s.retired_through,
  retired_before: s.retired_before ?? null,
  last_run_at: s.last_run_at ?? null,
});

export function createIntegrityRouter(deps: IntegrityRouterDeps): Router {
  const { eventStore, queries, retention, bearer, registry } = deps;
  const router = Router();
  router.use(VERIFY, bearer.authenticate, bearer.requireScope(AUDIT_READ_SCOPE));
  router.use(RETENTION, bearer.authenticate, bearer.requireScope(AUDIT_ADMIN_SCOPE));

  registry.route(
    router,
    {
      method: 'get',
      path: VERIFY,
      summary: "verify a range of the tenant's hash chain",
      schemas: { query: verifyQuery },
      tags: ['integrity'],
    },
    async (req, res) => {
      const q = req.query as { from_sequence?: number; to_sequence?: number; target_tenant?: string };
      const tenant = readTenant(res, q.target_tenant);
      res.json(
        await verifyChain({ eventStore, queries }, tenant, {
          ...(q.from_sequence !== undefined && { from: q.from_sequence }),
          ...(q.to_sequence !== undefined && { to: q.to_sequence }),
        }),
      );
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: RETENTION,
      summary: "the tenant's retention",
      schemas: { response: retentionView },
      tags: ['integrity'],
    },
    async (_req, res) => {
      res.json(retentionOf(await retention.get(tenantOf(res))));
    },
  );

  registry.route(
    router,
    {
      method: 'put',
      path: RETENTION,
      summary: "set the tenant's retention",
      schemas: { body: retentionBody, response: retentionView },
      tags: ['integrity'],
    },
    async (req, res) => {
      const { days } = req.body as { days: number | null };
      res.json(retentionOf(await retention.set(days, commandContext(res), commandIdFrom(req))));
    },
  );
  return router;
}
