import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { IDENTITY_ADMIN_SCOPE } from '../../../../domain/identity/identity.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/** SSO Config > Applications: the tenant's OIDC clients (identity:admin). */
export const ssoArea = defineArea(
  {
    id: 'sso',
    title: 'SSO Config',
    description:
      'The applications (OIDC clients) that sign your users in through the platform, and their redirect URIs and scopes.',
    scopes: [IDENTITY_ADMIN_SCOPE],
    nav: [{ to: '/sso', label: 'Applications' }],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      component: lazyRouteComponent(() => import('./applications.page.tsx'), 'ApplicationsPage'),
    }),
  ],
);
