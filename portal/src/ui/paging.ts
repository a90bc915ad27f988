/** The paging arithmetic of <PagedTable>, apart from React (portal/spec/paging.spec.ts). */
export type SortState = { key: string; direction: 'asc' | 'desc' };

/** what the table asks for: `limit` 0 when the API does not page (the whole list) */
export type PageRequest = { offset: number; limit: number; sort?: SortState };

/** what the API answered: the page's items, and its total, or whether there is more (APIs that count nothing) */
export type PageResult<T> = { items: T[]; total?: number; hasMore?: boolean };

/** "21–40 of 57", and whether a next page exists */
export function pageSummary(request: PageRequest, result: PageResult<unknown>): { text: string; hasNext: boolean } {
  const count = result.items.length;
  if (count === 0)
    return { text: request.offset === 0 ? 'No items' : `No items from ${request.offset + 1}`, hasNext: false };
  const first = request.offset + 1;
  const last = request.offset + count;
  if (result.total !== undefined)
    return { text: `${first}–${last} of ${result.total}`, hasNext: request.limit > 0 && last < result.total };
  const hasNext = request.limit > 0 && (result.hasMore ?? count >= request.limit);
  return { text: `${first}–${last}${hasNext ? ' (more on the next page)' : ''}`, hasNext };
}
