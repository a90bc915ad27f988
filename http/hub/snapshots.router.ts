import { Router } from 'express';
import type { Snapshots } from '../../commands/hub/snapshots.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import type { SnapshotQueries } from '../../projections/hub/snapshots.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { HUB_ADMIN_SCOPE, SNAPSHOTS_PATH } from './hub.paths.ts';
import { pageQuery } from './hub.schemas.ts';

/**
 * Configuration snapshots (spec "Endpoints"), scope hub:admin:
 *   GET /comm/v1/configuration-snapshots/getById?snapshotId=         the captured configuration
 *   GET /comm/v1/configuration-snapshots/list?definitionId=          a definition version's snapshots, newest first (paged)
 *   GET /comm/v1/configuration-snapshots/notifications?snapshotId=   notifications accepted with it (paged)
 */
export function createSnapshotsRouter(deps: {
  snapshots: Snapshots;
  queries: SnapshotQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
}): Router {
  const router = Router();
  router.use(SNAPSHOTS_PATH, deps.bearer.authenticate, deps.bearer.requireScope(HUB_ADMIN_SCOPE));
  const id: JsonSchema = { type: 'string', minLength: 1, maxLength: 80 };
  const tags = ['hub snapshots'];
  deps.registry.route(
    router,
    {
      method: 'get',
      path: `${SNAPSHOTS_PATH}/getById`,
      summary: 'one snapshot: the captured configuration',
      schemas: {
        query: {
          type: 'object',
          additionalProperties: false,
          required: ['snapshotId'],
          properties: { snapshotId: id },
        },
      },
      tags,
    },
    async (req, res) => {
      const snapshotId = String((req.query as { snapshotId: string }).snapshotId);
      const s = /^snap-[0-9a-f]{32}$/.test(snapshotId) ? await deps.snapshots.get(tenantOf(res), snapshotId) : null;
      if (s === null) throw hubError('SNAPSHOT.NOT_FOUND', 'no such snapshot', { snapshotId });
      res.json(s);
    },
  );
  deps.registry.route(
    router,
    {
      method: 'get',
      path: `${SNAPSHOTS_PATH}/list`,
      summary: "a definition version's snapshots, newest first",
      schemas: { query: pageQuery({ definitionId: id }, ['definitionId']) },
      tags,
    },
    async (req, res) => {
      const q = req.query as unknown as { definitionId: string; pageNo: number; pageSize: number };
      res.json(await deps.queries.list(tenantOf(res), q.definitionId, q.pageNo, q.pageSize));
    },
  );
  deps.registry.route(
    router,
    {
      method: 'get',
      path: `${SNAPSHOTS_PATH}/notifications`,
      summary: 'the notifications accepted with a snapshot, newest first',
      schemas: { query: pageQuery({ snapshotId: id }, ['snapshotId']) },
      tags,
    },
    async (req, res) => {
      const q = req.query as unknown as { snapshotId: string; pageNo: number; pageSize: number };
      res.json(await deps.queries.notifications(tenantOf(res), q.snapshotId, q.pageNo, q.pageSize));
    },
  );
  return router;
}
