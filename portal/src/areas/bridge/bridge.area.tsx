import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { BRIDGE_ADMIN_SCOPE } from '../../../../domain/bridge/bridge.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/** Public Setting > Event Bridge: buses, sources, rules and targets (bridge:admin). */
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
  ],
);
