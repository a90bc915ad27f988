import type { QueryClient } from '@tanstack/react-query';
import { createRoute, createRouter, redirect } from '@tanstack/react-router';
import { PORTAL_BASE } from '../../domain/portal/portal.paths.ts';
import { AREAS } from './areas/index.ts';
import { HomePage } from './shell/home.page.tsx';
import { rootRoute } from './shell/root.route.tsx';
import { SignInPage, type SignInSearch } from './shell/sign-in.page.tsx';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: HomePage });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (s: Record<string, unknown>): SignInSearch => {
    const out: SignInSearch = {};
    for (const k of ['returnTo', 'error', 'tenant', 'detail'] as const) {
      const v = str(s[k]);
      if (v !== undefined) out[k] = v.slice(0, 300);
    }
    return out;
  },
  // signed in already: nothing to do here
  beforeLoad: ({ context }) => {
    if ((context as { session?: unknown }).session) throw redirect({ to: '/' });
  },
  component: function SignIn() {
    return <SignInPage search={signInRoute.useSearch()} />;
  },
});

/** The portal's routes: home, sign-in, and each area's (src/areas/index.ts). */
export const routeTree = rootRoute.addChildren([homeRoute, signInRoute, ...AREAS.map((a) => a.route)]);

export function createPortalRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: PORTAL_BASE,
    context: { queryClient, areas: AREAS.map((a) => a.meta) },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createPortalRouter>;
  }
}
