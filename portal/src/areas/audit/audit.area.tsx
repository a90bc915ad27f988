import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { AUDIT_READ_SCOPE } from '../../../../domain/audit/audit.scopes.ts';
import { defineArea } from '../../shell/area.tsx';
import { recordsSearchOf } from './records-search.ts';

/**
 * Audit: the records (query, detail, export), the modules and transactions they are written under, and the
 * chain's tamper check. The area needs audit:read; the metadata pages ask for audit:admin themselves.
 */
export const auditArea = defineArea(
  {
    id: 'audit',
    title: 'Audit',
    group: 'Utility and Admin Services',
    description: 'Query the operations log, export it, manage its modules and transactions, and verify its hash chain.',
    scopes: [AUDIT_READ_SCOPE],
    nav: [
      { to: '/audit/records', label: 'Audit records' },
      { to: '/audit/modules', label: 'Modules and transactions' },
      { to: '/audit/verify', label: 'Chain verification' },
    ],
  },
  (area) => [
    // the area's address leads to the records (their own path: the navigation marks one entry at a time)
    createRoute({
      getParentRoute: () => area,
      path: '/',
      beforeLoad: ({ location }) => {
        throw redirect({ to: '/audit/records', search: location.search as never });
      },
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'records',
      validateSearch: recordsSearchOf,
      component: lazyRouteComponent(() => import('./records.page.tsx'), 'RecordsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'records/$id',
      component: lazyRouteComponent(() => import('./record.page.tsx'), 'RecordByIdPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'chain/$sequence',
      component: lazyRouteComponent(() => import('./record.page.tsx'), 'RecordBySequencePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'modules',
      validateSearch: (s: Record<string, unknown>): { module?: string } =>
        typeof s.module === 'string' && s.module !== '' ? { module: s.module.slice(0, 128) } : {},
      component: lazyRouteComponent(() => import('./modules.page.tsx'), 'ModulesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'verify',
      component: lazyRouteComponent(() => import('./verify.page.tsx'), 'VerifyPage'),
    }),
  ],
);
