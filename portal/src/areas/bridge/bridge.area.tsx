import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { BRIDGE_ADMIN_SCOPE } from '../../../../domain/bridge/bridge.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/** Public Setting > Event Bridge: buses, sources, rules and targets, and their operations (bridge:admin). */
export const bridgeArea = defineArea(
  {
    id: 'bridge',
    title: 'Event Bridge',
    group: 'Public Setting',
    description: 'Event buses and their sources, the rules that match events, and the targets they deliver to.',
    scopes: [BRIDGE_ADMIN_SCOPE],
    nav: [
      { to: '/bridge', label: 'Event buses' },
      { to: '/bridge/rules', label: 'Rules' },
      { to: '/bridge/platform-rules', label: 'Platform rules' },
      { to: '/bridge/dead-letters', label: 'Dead letters' },
      { to: '/bridge/connections', label: 'Connections' },
      { to: '/bridge/api-destinations', label: 'API destinations' },
      { to: '/bridge/schemas', label: 'Schema registry' },
    ],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      component: lazyRouteComponent(() => import('./buses.page.tsx'), 'BusesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'buses/$bus',
      component: lazyRouteComponent(() => import('./bus.page.tsx'), 'BusPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'buses/$bus/rules/new',
      component: lazyRouteComponent(() => import('./rule.page.tsx'), 'NewRulePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'rules',
      component: lazyRouteComponent(() => import('./rules.page.tsx'), 'RulesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'rules/$ruleId',
      component: lazyRouteComponent(() => import('./rule.page.tsx'), 'RulePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'platform-rules',
      component: lazyRouteComponent(() => import('./platform-rules.page.tsx'), 'PlatformRulesPage'),
    }),
    // operations: trace, dead letters, connections, API destinations, schemas
    createRoute({
      getParentRoute: () => area,
      path: 'buses/$bus/trace',
      component: lazyRouteComponent(() => import('./trace.page.tsx'), 'TracePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'trace/$eventId',
      component: lazyRouteComponent(() => import('./trace-event.page.tsx'), 'TraceEventPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'dead-letters',
      component: lazyRouteComponent(() => import('./dead-letters.page.tsx'), 'DeadLettersPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'dead-letters/$ruleId/$targetId/$deliveryId',
      component: lazyRouteComponent(() => import('./dead-letter.page.tsx'), 'DeadLetterPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'connections',
      component: lazyRouteComponent(() => import('./connections.page.tsx'), 'ConnectionsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'connections/new',
      component: lazyRouteComponent(() => import('./connection.page.tsx'), 'NewConnectionPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'connections/$name',
      component: lazyRouteComponent(() => import('./connection.page.tsx'), 'ConnectionPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'api-destinations',
      component: lazyRouteComponent(() => import('./api-destinations.page.tsx'), 'ApiDestinationsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'api-destinations/new',
      component: lazyRouteComponent(() => import('./api-destination.page.tsx'), 'NewApiDestinationPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'api-destinations/$name',
      component: lazyRouteComponent(() => import('./api-destination.page.tsx'), 'ApiDestinationPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'schemas',
      component: lazyRouteComponent(() => import('./schemas.page.tsx'), 'SchemasPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'schemas/new',
      component: lazyRouteComponent(() => import('./schema-new.page.tsx'), 'NewSchemaPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'schemas/$schemaId',
      component: lazyRouteComponent(() => import('./schema.page.tsx'), 'SchemaPage'),
    }),
  ],
);
