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
    nav: [{ to: '/bridge', label: 'Event buses' }],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      component: lazyRouteComponent(() => import('./buses.page.tsx'), 'BusesPage'),
    }),
  ],
);
