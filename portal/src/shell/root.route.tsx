import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, redirect, retainSearchParams } from '@tanstack/react-router';
import { TENANT_CODE } from '../../../domain/core/tenant-code.ts';
import { PORTAL_BASE } from '../../../domain/portal/portal.paths.ts';
import { sessionQuery } from '../api/session.ts';
import type { AreaMeta } from './area-meta.ts';
import { NotFoundPage } from './not-found.page.tsx';
import type { RootSearch } from './root-search.ts';
import { Shell } from './shell.tsx';
import type { SignInSearch } from './sign-in-errors.ts';

/** What every route can read: the query cache and the areas the shell offers. */
export type RouterContext = { queryClient: QueryClient; areas: readonly AreaMeta[] };

export type { RootSearch } from './root-search.ts';

const SIGN_IN = '/sign-in';

/** a path of the app (without the router's /portal base) as the backend's returnTo wants it */
export const portalPath = (pathname: string, search = ''): string =>
  `${PORTAL_BASE}${withoutBase(pathname) || '/'}${search}`;
const withoutBase = (pathname: string): string =>
  pathname === PORTAL_BASE || pathname.startsWith(`${PORTAL_BASE}/`) ? pathname.slice(PORTAL_BASE.length) : pathname;

/**
 * The root of the routes: the shell around every page. Before any page loads, the session is known (one
 * GET /portal/auth/session, cached): without one, every page but the sign-in sends the browser there,
 * remembering where it was going. The target tenant (`?tenant=`) stays on every link.
 */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  validateSearch: (search: Record<string, unknown>): RootSearch =>
    typeof search.tenant === 'string' && TENANT_CODE.test(search.tenant) ? { tenant: search.tenant } : {},
  search: { middlewares: [retainSearchParams(['tenant'])] },
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    const onSignIn = withoutBase(location.pathname) === SIGN_IN;
    if (session === null && !onSignIn) {
      // typed as the sign-in route's validateSearch gives it: the router's own types of this root are not known here yet
      const search: SignInSearch = { returnTo: portalPath(location.pathname, location.searchStr) };
      throw redirect({ to: SIGN_IN, search });
    }
    return { session };
  },
  component: Shell,
  notFoundComponent: NotFoundPage,
});
