import { hasScopes, type Session } from '../api/session.ts';
import type { AreaMeta } from './area-meta.ts';

/** the session may open the area: it holds every scope the area needs, and is an operator's where the area asks */
export const mayOpen = (area: AreaMeta, session: Session | null | undefined): boolean =>
  hasScopes(session, area.scopes) && (area.operatorOnly !== true || session?.operator === true);

/** the areas a session may open, in the navigation's order */
export const visibleAreas = (areas: readonly AreaMeta[], session: Session | null | undefined) =>
  areas.filter((a) => mayOpen(a, session));

/** navigation groups: areas under the same heading (Public Setting > Event Bridge) stay together */
export function navGroups(areas: readonly AreaMeta[]): Array<{ heading: string; areas: AreaMeta[] }> {
  const groups: Array<{ heading: string; areas: AreaMeta[] }> = [];
  for (const area of areas) {
    const heading = area.group ?? area.title;
    const group = groups.find((g) => g.heading === heading);
    if (group) group.areas.push(area);
    else groups.push({ heading, areas: [area] });
  }
  return groups;
}

/**
 * The navigation entry the page at `path` (router path, without /portal) belongs to: the longest entry that
 * is the path or a folder of it. `/sso/users/u1` belongs to Users (`/sso/users`), not Applications (`/sso`);
 * a bus's page (`/bridge/buses/b`) to Event buses (`/bridge`).
 */
export function currentNavEntry(areas: readonly AreaMeta[], path: string): string | undefined {
  const under = (to: string) => path === to || path.startsWith(to.endsWith('/') ? to : `${to}/`);
  return areas
    .flatMap((a) => a.nav.map((item) => item.to))
    .filter(under)
    .sort((a, b) => b.length - a.length)[0];
}
