import { Router } from 'express';
import type { ConfigCommands } from '../../commands/hub/config.commands.ts';
import type { DriverRegistry } from '../../commands/hub/driver.registry.ts';
import type { ProgressQueries } from '../../commands/hub/progress.queries.ts';
import type { Receipts } from '../../commands/hub/receipts.commands.ts';
import type { Sender } from '../../commands/hub/send.commands.ts';
import type { Snapshots } from '../../commands/hub/snapshots.ts';
import type { ConfigQueries } from '../../projections/hub/config.projection.ts';
import type { SnapshotQueries } from '../../projections/hub/snapshots.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { createConfigRouter } from './config.router.ts';
import { HUB_OPENAPI_PATH } from './hub.paths.ts';
import { createReceiptsRouter } from './receipts.router.ts';
import { createSendRouter } from './send.router.ts';
import { createSnapshotsRouter } from './snapshots.router.ts';

/**
 * The notification hub's router (mounted at `/`): the business API under `/comm/v1` (send, progress,
 * receipts, configuration, snapshots) and the OpenAPI document of the group `connecthub` at
 * `GET /v3/api-docs/connecthub` (public, like the bridge's: it describes the API, no data). It only
 * composes what infra/hub/hub.service.ts built. Paths and scopes: hub.paths.ts; errors:
 * domain/hub/hub.errors.ts.
 */
export type HubRouterDeps = {
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  sender: Sender;
  progress: ProgressQueries;
  receipts: Receipts;
  config: ConfigCommands;
  configQueries: ConfigQueries;
  drivers: DriverRegistry;
  snapshots: Snapshots;
  snapshotQueries: SnapshotQueries;
};

export function createHubRouter(deps: HubRouterDeps): { router: Router; registry: RouteRegistry } {
  const registry = createRouteRegistry();
  const router = Router();
  const { bearer } = deps;
  router.use(createSendRouter({ sender: deps.sender, progress: deps.progress, bearer, registry }));
  router.use(createReceiptsRouter({ receipts: deps.receipts, registry }));
  router.use(createConfigRouter({ commands: deps.config, queries: deps.configQueries, drivers: deps.drivers, bearer, registry, timeZoneOf: deps.sender.timeZoneOf }));
  router.use(createSnapshotsRouter({ snapshots: deps.snapshots, queries: deps.snapshotQueries, bearer, registry }));
  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(HUB_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Notification hub (connecthub)', registry);
    res.json(document);
  });
  return { router, registry };
}
