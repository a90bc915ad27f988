import { Router } from 'express';
import type { BusCommands, BusLookup } from '../../commands/bridge/buses.ts';
import type { ConfigCommands } from '../../commands/bridge/config-center.ts';
import { createDeadLetterCommands, type DeadLetterCommands } from '../../commands/bridge/dead-letters.ts';
import type { PublisherService } from '../../commands/bridge/publish.ts';
import { createRuleTargetCommands, type RuleTargetCommands } from '../../commands/bridge/rule-target-state.ts';
import type { RuleCommands } from '../../commands/bridge/rules.ts';
import type { SchemaCommands } from '../../commands/bridge/schemas.ts';
import type { SourceCommands } from '../../commands/bridge/sources.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { CatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import { createDeliveryQueries } from '../../projections/bridge/deliveries.projection.ts';
import { createTraceQueries } from '../../projections/bridge/trace.queries.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { createBusesRouter } from './buses.router.ts';
import { createDeliveriesRouter } from './deliveries.router.ts';
import { createPutEventRouter } from './put-event.router.ts';
import { busInfoFrom, createRulesRouter } from './rules.router.ts';
import { createSchemasRouter } from './schemas.router.ts';
import { createTraceRouter } from './trace.router.ts';

/**
 * The event bridge's router (mounted at `/`): putEvent, buses and sources, rules and the configuration
 * center, the schema registry, the trace, delivery administration (dead letters, blocked rule targets),
 * and the bridge's OpenAPI 3 document at
 * `GET /api/platform/platform-pub/eventBridge/openapi.json` (public, like discovery documents: it
 * describes the API, it reveals no data).
 */
export const BRIDGE_OPENAPI_PATH = '/api/platform/platform-pub/eventBridge/openapi.json';

export type BridgeRouterDeps = {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  publisher: PublisherService;
  buses: BusCommands;
  sources: SourceCommands;
  lookup: BusLookup;
  catalog: CatalogQueries;
  rules: RuleCommands;
  config: ConfigCommands;
  schemas: SchemaCommands;
  /** delivery administration (dead letters, blocked rule targets); built from the stores when absent */
  deadLetters?: DeadLetterCommands;
  ruleTargets?: RuleTargetCommands;
  registry?: RouteRegistry;
};

export function createBridgeRouter(deps: BridgeRouterDeps): { router: Router; registry: RouteRegistry } {
  const { eventStore, readStore, clock, bearer, lookup } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();

  // a rule names its bus as putEvent does: the caller's custom bus, a platform bus, or <tenant>/<bus>
  const busInfo = busInfoFrom((tenant, name) => lookup.getBus(tenant, name));

  router.use(createPutEventRouter({ publisher: deps.publisher, bearer, registry }));
  router.use(createBusesRouter({ buses: deps.buses, sources: deps.sources, lookup, catalog: deps.catalog, bearer, registry }));
  router.use(createRulesRouter({ commands: { rules: deps.rules, config: deps.config }, readStore, bearer, busInfo, clock, registry }));
  router.use(createSchemasRouter({ commands: deps.schemas, readStore, eventStore, bearer, registry }));
  router.use(createTraceRouter({ queries: createTraceQueries(readStore), bearer, registry }));
  const deliveryQueries = createDeliveryQueries(readStore);
  router.use(
    createDeliveriesRouter({
      deadLetters: deps.deadLetters ?? createDeadLetterCommands({ eventStore, clock, index: deliveryQueries }),
      ruleTargets: deps.ruleTargets ?? createRuleTargetCommands({ eventStore, clock }),
      queries: deliveryQueries,
      bearer,
      registry,
    }),
  );

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(BRIDGE_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Event bridge', registry);
    res.json(document);
  });

  return { router, registry };
}
