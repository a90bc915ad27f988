import type { JsonSchema } from './validate.ts';

/* The paging policy of every list: a page size of 1 to 200 (50 by default) and an offset of at most a million.
 * A list whose spec names its own parameters or bounds builds them with the same helper. */

export const MAX_PAGE_OFFSET = 1_000_000;

/** A page size: 1 to `max`, `default` when absent. */
export const pageSizeSchema = ({
  max = 200,
  default: fallback = 50,
}: {
  max?: number;
  default?: number;
} = {}): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  default: fallback,
});

export const pageOffsetSchema: JsonSchema = { type: 'integer', minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0 };

/** `limit` and `offset`, the query properties of a limit/offset list */
export const pagingProperties = (size?: {
  max?: number;
  default?: number;
}): { limit: JsonSchema; offset: JsonSchema } => ({
  limit: pageSizeSchema(size),
  offset: pageOffsetSchema,
});

/** the answer schema of a limit/offset list */
export const pageOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    items: { type: 'array', items: item },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
  },
});

/** the answer of a limit/offset list: the page's items in their view, the total, and the paging asked for */
export const pageAnswer = <T, V>(
  page: { items: readonly T[]; total: number },
  q: { limit: number; offset: number },
  view: (item: T) => V,
) => ({
  items: page.items.map(view),
  total: page.total,
  limit: q.limit,
  offset: q.offset,
});
