/*
 * The read store's query language, shared by both adapters: MongoDB's filter subset (validated in
 * filter.validate.ts, evaluated in memory in filter.match.ts with MongoDB's array semantics), BSON sort
 * order (sort.compare.ts) and the update subset (update.validate.ts, update.apply.ts). The SQLite adapter
 * evaluates filters and applies updates with it; the MongoDB adapter validates with it so both adapters
 * accept and reject the same queries.
 */
export { compareStrings, isPlainObject, sortRank, valuesEqual } from './bson-order.ts';
export { parsePath } from './field-path.ts';
export { compileFilter, type Matcher, matchesFilter } from './filter.match.ts';
export { normalizeFilter } from './filter.normalize.ts';
export { validateFilter } from './filter.validate.ts';
export { compareForSort } from './sort.compare.ts';
export { applyUpdate } from './update.apply.ts';
export { validateUpdate, validateUpdateLimit } from './update.validate.ts';
