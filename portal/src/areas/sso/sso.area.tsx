import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { IDENTITY_ADMIN_SCOPE } from '../../../../domain/identity/identity.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/**
 * SSO Config (identity:admin): the tenant's applications (OIDC clients) and their API access, its users
 * and their roles, the platform's signing keys, and the tenants (every one for platform administrators).
 */
export const ssoArea = defineArea(
  {
    id: 'sso',
    title: 'SSO Config',
    description:
      'The applications (OIDC clients) that sign your users in through the platform, their API access, your users and their roles, and the signing keys.',
    scopes: [IDENTITY_ADMIN_SCOPE],
    nav: [
      { to: '/sso', label: 'Applications' },
      { to: '/sso/users', label: 'Users' },
      { to: '/sso/keys', label: 'Signing keys' },
      { to: '/sso/tenants', label: 'Tenants' },
    ],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      component: lazyRouteComponent(() => import('./applications.page.tsx'), 'ApplicationsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'applications/new',
      component: lazyRouteComponent(() => import('./application-new.page.tsx'), 'ApplicationNewPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'applications/$clientId',
      component: lazyRouteComponent(() => import('./application.page.tsx'), 'ApplicationPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'applications/$clientId/api-access',
      component: lazyRouteComponent(() => import('./api-access.page.tsx'), 'ApiAccessPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'users',
      component: lazyRouteComponent(() => import('./users.page.tsx'), 'UsersPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'users/new',
      component: lazyRouteComponent(() => import('./user-new.page.tsx'), 'UserNewPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'users/$userId',
      component: lazyRouteComponent(() => import('./user.page.tsx'), 'UserPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'keys',
      component: lazyRouteComponent(() => import('./keys.page.tsx'), 'KeysPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'tenants',
      component: lazyRouteComponent(() => import('./tenants.page.tsx'), 'TenantsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'tenants/$code',
      component: lazyRouteComponent(() => import('./tenant.page.tsx'), 'TenantPage'),
    }),
  ],
);
