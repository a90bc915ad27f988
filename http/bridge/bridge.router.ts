import { Router } from 'express';
import type { ApiDestinationCommands } from '../../commands/bridge/api-destinations.commands.ts';
import type { BusCommands, BusLookup } from '../../commands/bridge/buses.commands.ts';
import type { ConfigCommands } from '../../commands/bridge/config-center.commands.ts';
import type { ConnectionCommands } from '../../commands/bridge/connections.commands.ts';
import type { DeadLetterCommands } from '../../commands/bridge/dead-letters.commands.ts';
import type { MqConsumers } from '../../commands/bridge/mq-consumers.commands.ts';
import type { PublisherService } from '../../commands/bridge/publish.commands.ts';
import type { RuleTargetCommands } from '../../commands/bridge/rule-target-state.commands.ts';
import type { RuleCommands } from '../../commands/bridge/rules.commands.ts';
import type { SchemaCommands } from '../../commands/bridge/schemas.commands.ts';
import type { ServiceRegistryCommands } from '../../commands/bridge/service-registry.commands.ts';
import type { SourceCommands } from '../../commands/bridge/sources.commands.ts';
import type { UserMessageCommands } from '../../commands/bridge/user-messages.commands.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { CatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import type { DeliveryQueries } from '../../projections/bridge/deliveries.queries.ts';
import type { ServiceQueries } from '../../projections/bridge/services.projection.ts';
import type { TraceQueries } from '../../projections/bridge/trace.queries.ts';
import type { UserMessageQueries } from '../../projections/bridge/user-messages.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { openApiDocument } from '../core/openapi.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { BRIDGE_OPENAPI_PATH } from './bridge.paths.ts';
import { createBusesRouter } from './buses.router.ts';
import { createConversionPreviewRouter } from './conversion-preview.router.ts';
import { createDeliveriesRouter } from './deliveries.router.ts';
import { createDestinationsRouter } from './destinations.router.ts';
import { createMqRouter } from './mq.router.ts';
import { createPutEventRouter } from './put-event.router.ts';
import { busInfoFrom, createRulesRouter } from './rules.router.ts';
import { createSchemasRouter } from './schemas.router.ts';
import { createServicesRouter } from './services.router.ts';
import { createTraceRouter } from './trace.router.ts';
import { createUserMessagesRouter } from './user-messages.router.ts';

/**
 * The event bridge's router (mounted at `/`): putEvent, buses and sources, rules and the configuration
 * center, the service registry, the schema registry, the trace, delivery administration (dead letters, blocked rule targets),
 * connections and API destinations, the message queue's consumers, the users' inboxes, and the bridge's
 * OpenAPI 3 document at `GET /api/platform/platform-pub/eventBridge/openapi.json` (public, like discovery
 * documents: it describes the API, it reveals no data). It only composes: everything it serves is built by
 * the bridge service (infra/bridge/bridge.service.ts). Paths and scopes: bridge.paths.ts; tenancy:
 * http/core/tenancy.ts; error codes: domain/bridge/bridge.errors.ts.
 */

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
  trace: TraceQueries;
  deliveries: DeliveryQueries;
  deadLetters: DeadLetterCommands;
  ruleTargets: RuleTargetCommands;
  connections: ConnectionCommands;
  destinations: ApiDestinationCommands;
  consumers: MqConsumers;
  userMessages: { commands: UserMessageCommands; queries: UserMessageQueries };
  /** the service registry (preset HTTP targets); absent: its routes are not mounted */
  services?: { commands: ServiceRegistryCommands; queries: ServiceQueries };
};

export function createBridgeRouter(deps: BridgeRouterDeps): { router: Router; registry: RouteRegistry } {
  const { readStore, bearer, lookup } = deps;
  const registry = createRouteRegistry();
  const router = Router();

  // a rule names its bus as putEvent does: the caller's custom bus, a platform bus, or <tenant>/<bus>
  const busInfo = busInfoFrom((tenant, name) => lookup.getBus(tenant, name));

  router.use(createPutEventRouter({ publisher: deps.publisher, bearer, registry }));
  router.use(
    createBusesRouter({ buses: deps.buses, sources: deps.sources, lookup, catalog: deps.catalog, bearer, registry }),
  );
  router.use(
    createRulesRouter({
      commands: { rules: deps.rules, config: deps.config },
      readStore,
      bearer,
      busInfo,
      clock: deps.clock,
      registry,
    }),
  );
  router.use(createConversionPreviewRouter({ config: deps.config, bearer, registry }));
  router.use(createSchemasRouter({ commands: deps.schemas, readStore, eventStore: deps.eventStore, bearer, registry }));
  router.use(createTraceRouter({ queries: deps.trace, bearer, registry }));
  router.use(
    createDeliveriesRouter({
      deadLetters: deps.deadLetters,
      ruleTargets: deps.ruleTargets,
      queries: deps.deliveries,
      bearer,
      registry,
    }),
  );
  router.use(
    createDestinationsRouter({
      connections: deps.connections,
      destinations: deps.destinations,
      readStore,
      bearer,
      registry,
    }),
  );
  router.use(createMqRouter({ consumers: deps.consumers, bearer, registry }));
  router.use(createUserMessagesRouter({ ...deps.userMessages, bearer, registry }));
  if (deps.services !== undefined) router.use(createServicesRouter({ ...deps.services, bearer, registry }));

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get(BRIDGE_OPENAPI_PATH, (_req, res) => {
    document ??= openApiDocument('Event bridge', registry);
    res.json(document);
  });

  return { router, registry };
}
