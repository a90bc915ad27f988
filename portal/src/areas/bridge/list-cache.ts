import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { PageResult } from '../../ui/paging.ts';

/**
 * The bridge's lists come from read models that catch up a moment after a command: a refetch right after
 * a change can still show the old row. So a change is applied to the cached lists at once, from the
 * command's own answer, and the lists are asked again a little later.
 */
export function updateCachedLists<T>(queryClient: QueryClient, queryKey: QueryKey, update: (items: T[]) => T[]): void {
  queryClient.setQueriesData<PageResult<T>>({ queryKey }, (old) =>
    old === undefined ? old : { ...old, items: update(old.items) },
  );
  setTimeout(() => void queryClient.invalidateQueries({ queryKey }), REFRESH_AFTER_MS);
}

const REFRESH_AFTER_MS = 1500;

/** replaces the item with the same key, or adds it at the end */
export const upsert =
  <T>(item: T, key: (x: T) => string | undefined) =>
  (items: T[]): T[] =>
    items.some((x) => key(x) === key(item)) ? items.map((x) => (key(x) === key(item) ? item : x)) : [...items, item];
