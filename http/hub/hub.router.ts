import { Router } from 'express';
import type { CacheBucket } from '../../commands/hub/cache-bucket.commands.ts';
import type { ConfigCommands } from '../../commands/hub/config.commands.ts';
import type { ConfigBundleCommands } from '../../commands/hub/config-bundle.commands.ts';
import type { CustomerPolicies } from '../../commands/hub/customer-policy.commands.ts';
import type { DriverRegistry } from '../../commands/hub/driver.registry.ts';
import type { HousekeepingJob } from '../../commands/hub/housekeeping.job.ts';
import type { OperatorCommands } from '../../commands/hub/operator.commands.ts';
import type { Previews } from '../../commands/hub/preview.queries.ts';
import type { ProgressQueries } from '../../commands/hub/progress.queries.ts';
import type { Receipts } from '../../commands/hub/receipts.commands.ts';
import type { Sender } from '../../commands/hub/send.commands.ts';
import type { Snapshots } from '../../commands/hub/snapshots.ts';
import type { TccCommands } from '../../commands/hub/tcc.commands.ts';
import type { ConfigQueries } from '../../projections/hub/config.projection.ts';
import type { CustomerQueries } from '../../projections/hub/customer.projection.ts';
import type { SnapshotQueries } from '../../projections/hub/snapshots.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { createBundleRouter } from './bundle.router.ts';
import { createConfigRouter } from './config.router.ts';
import { createCustomerPolicyRouter } from './customer-policy.router.ts';
import { HUB_OPENAPI_PATH } from './hub.paths.ts';
import { createNotificationSearchRouter } from './notification-search.router.ts';
import { createOperatorRouter } from './operator.router.ts';
import { createPreviewRouter } from './preview.router.ts';
import { createReceiptsRouter } from './receipts.router.ts';
import { createSendRouter } from './send.router.ts';
import { createSnapshotsRouter } from './snapshots.router.ts';
import { createTccRouter } from './tcc.router.ts';

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
  /** TCC branches of sends */
  tcc?: TccCommands;
  /** operator actions and the housekeeping job */
  operator?: { commands: OperatorCommands; housekeeping: HousekeepingJob };
  /** previews */
  previews?: Previews;
  /** configuration bundle export/import and the cache bucket clear */
  bundle?: ConfigBundleCommands;
  cacheBucket?: CacheBucket;
  /** customer policies: preferences, interactions, frequency caps, quiet hours */
  customer?: { policies: CustomerPolicies; queries: CustomerQueries };
};

export function createHubRouter(deps: HubRouterDeps): { router: Router; registry: RouteRegistry } {
  const registry = createRouteRegistry();
  const router = Router();
  const { bearer } = deps;
  router.use(createSendRouter({ sender: deps.sender, progress: deps.progress, bearer, registry }));
  router.use(createReceiptsRouter({ receipts: deps.receipts, registry }));
  router.use(
    createConfigRouter({
      commands: deps.config,
      queries: deps.configQueries,
      drivers: deps.drivers,
      bearer,
      registry,
      timeZoneOf: deps.sender.timeZoneOf,
    }),
  );
  router.use(createSnapshotsRouter({ snapshots: deps.snapshots, queries: deps.snapshotQueries, bearer, registry }));
  router.use(
    createNotificationSearchRouter({
      queries: deps.snapshotQueries,
      bearer,
      registry,
      timeZoneOf: deps.sender.timeZoneOf,
    }),
  );
  if (deps.customer !== undefined)
    router.use(createCustomerPolicyRouter({ ...deps.customer, bearer, registry, timeZoneOf: deps.sender.timeZoneOf }));
  if (deps.tcc !== undefined) router.use(createTccRouter({ tcc: deps.tcc, bearer, registry }));
  if (deps.operator !== undefined)
    router.use(
      createOperatorRouter({
        operator: deps.operator.commands,
        housekeeping: deps.operator.housekeeping,
        bearer,
        registry,
      }),
    );
  if (deps.previews !== undefined) router.use(createPreviewRouter({ previews: deps.previews, bearer, registry }));
  if (deps.bundle !== undefined && deps.cacheBucket !== undefined)
    router.use(createBundleRouter({ bundle: deps.bundle, cacheBucket: deps.cacheBucket, bearer, registry }));
  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(HUB_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Notification hub (connecthub)', registry);
    res.json(document);
  });
  return { router, registry };
}
