import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { OPS_ADMIN_SCOPE } from '../../../../domain/operations/operations.scopes.ts';
import { defineArea } from '../../shell/area.tsx';
import { incidentSearchOf } from './incident-search.ts';

/** Operations: the platform's projections (parked events, rebuilds) and readiness (ops:admin). */
export const operationsArea = defineArea(
  {
    id: 'operations',
    title: 'Operations',
    description:
      "The platform's projections with their lag and parked events, rebuilds with their progress, readiness and the work engines' backlogs.",
    scopes: [OPS_ADMIN_SCOPE],
    operatorOnly: true,
    nav: [
      { to: '/operations/projections', label: 'Projections' },
      { to: '/operations/readiness', label: 'Readiness' },
      { to: '/operations/incident', label: 'Incident view' },
    ],
  },
  (area) => [
    // the area's own address leads to its first page (each navigation entry is highlighted on its own pages)
    createRoute({
      getParentRoute: () => area,
      path: '/',
      beforeLoad: () => {
        throw redirect({ to: '/operations/projections', replace: true });
      },
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'projections',
      component: lazyRouteComponent(() => import('./projections.page.tsx'), 'ProjectionsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'projections/$name',
      component: lazyRouteComponent(() => import('./parked.page.tsx'), 'ParkedPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'readiness',
      component: lazyRouteComponent(() => import('./readiness.page.tsx'), 'ReadinessPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'incident',
      validateSearch: incidentSearchOf,
      component: lazyRouteComponent(() => import('./incident.page.tsx'), 'IncidentPage'),
    }),
  ],
);
