import { useQuery } from '@tanstack/react-query';
import { type AnyRoute, createRoute, Outlet } from '@tanstack/react-router';
import { sessionQuery } from '../api/session.ts';
import type { AreaMeta } from './area-meta.ts';
import { mayOpen } from './area-nav.ts';
import { NotAvailablePage } from './not-available.page.tsx';
import { rootRoute } from './root.route.tsx';

export type { AreaMeta, AreaNavItem } from './area-meta.ts';

/**
 * An area of the portal: its folder holds an `<id>.area.tsx` that calls defineArea with the area's meta
 * and its routes (lazily loaded pages: each page is a chunk of its own), and src/areas/index.ts lists it.
 * The area's routes live under `/portal/<id>/`; a session without the area's scopes sees "not available"
 * there, and neither the navigation nor the home page offer it.
 *
 *   export const bridgeArea = defineArea(
 *     { id: 'bridge', title: 'Event Bridge', group: 'Public Setting', description: '…', scopes: [BRIDGE_ADMIN_SCOPE], nav: [{ to: '/bridge', label: 'Event buses' }] },
 *     (area) => [createRoute({ getParentRoute: () => area, path: '/', component: lazyRouteComponent(() => import('./buses.page.tsx')) })],
 *   );
 */
export function defineArea<const Id extends string, const Children extends readonly AnyRoute[]>(
  meta: AreaMeta & { id: Id },
  children: (area: ReturnType<typeof areaRoute<Id>>) => Children,
) {
  const route = areaRoute(meta);
  return { meta, route: route.addChildren(children(route)) };
}

function areaRoute<const Id extends string>(meta: AreaMeta & { id: Id }) {
  return createRoute({ getParentRoute: () => rootRoute, path: meta.id, component: () => <AreaGate meta={meta} /> });
}

function AreaGate({ meta }: { meta: AreaMeta }) {
  const session = useQuery(sessionQuery).data;
  if (!mayOpen(meta, session)) return <NotAvailablePage area={meta} session={session} />;
  return <Outlet />;
}
