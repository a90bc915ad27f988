import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { WORKFLOW_USER_SCOPE } from '../../../../domain/workflow/workflow.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/** Workflow: BPMN deployments and definitions, process instances with their diagrams, the task list with claims, pending timers (workflow:user). */
export const workflowArea = defineArea(
  {
    id: 'workflow',
    title: 'Workflow',
    description:
      'BPMN definitions and their versions drawn, deployments, process instances with their tokens and history, the task list and the pending timers.',
    scopes: [WORKFLOW_USER_SCOPE],
    nav: [
      { to: '/workflow/definitions', label: 'Definitions' },
      { to: '/workflow/instances', label: 'Process instances' },
      { to: '/workflow/tasks', label: 'Tasks' },
      { to: '/workflow/timers', label: 'Timers' },
    ],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      beforeLoad: () => {
        throw redirect({ to: '/workflow/definitions', replace: true });
      },
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'definitions',
      component: lazyRouteComponent(() => import('./definitions.page.tsx'), 'DefinitionsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'definitions/$id',
      component: lazyRouteComponent(() => import('./definition.page.tsx'), 'DefinitionPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'instances',
      component: lazyRouteComponent(() => import('./instances.page.tsx'), 'InstancesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'instances/$id',
      component: lazyRouteComponent(() => import('./instance.page.tsx'), 'InstancePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'tasks',
      component: lazyRouteComponent(() => import('./tasks.page.tsx'), 'TasksPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'timers',
      component: lazyRouteComponent(() => import('./timers.page.tsx'), 'TimersPage'),
    }),
  ],
);
