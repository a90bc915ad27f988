import { hasScopes, type Session } from '../api/session.ts';
import type { AreaMeta } from './area-meta.ts';

/** the areas a session may open, in the navigation's order */
export const visibleAreas = (areas: readonly AreaMeta[], session: Session | null | undefined) =>
  areas.filter((a) => hasScopes(session, a.scopes));

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
