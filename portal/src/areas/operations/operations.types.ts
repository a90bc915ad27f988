import type { paths } from '../../api/schema/operations.d.ts';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;

/** The operations API's answers, as its OpenAPI document gives them. */
export type ProjectionRow = Json<paths['/ops/v1/projections']['get']['responses'][200]>['items'][number];
export type ParkedRow = NonNullable<
  Json<paths['/ops/v1/projections/{name}/parked']['get']['responses'][200]>['items']
>[number];
export type Rebuild = Json<paths['/ops/v1/rebuilds/{id}']['get']['responses'][200]>;
export type Readiness = Json<paths['/ops/v1/readiness']['get']['responses'][200]>;

/** how often the live figures are read again */
export const REFRESH_MS = 3000;

/** a position as a number (the API's are 20-digit strings) */
export const positionNumber = (p: string): string => BigInt(p.slice(0, 20) || '0').toLocaleString('en');

/** seconds as "1 min 05 s" */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** the incident view's answers */
export type TimelineRow = NonNullable<Json<paths['/ops/v1/timeline']['get']['responses'][200]>['items']>[number];
export type StreamState = Json<paths['/ops/v1/streams/{stream}/state']['get']['responses'][200]>;
