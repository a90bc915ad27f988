import type { AppendRequest } from './event-store.port.ts';

/**
 * AppendRequest.after, checked as every adapter reads it: the index of the earlier entry that entry
 * `index` depends on, or undefined when it depends on none. An index that does not name an earlier entry
 * of the batch is a programming error.
 */
export function dependencyOf(entry: AppendRequest, index: number): number | undefined {
  const after = entry.after;
  if (after === undefined) return undefined;
  if (!Number.isInteger(after) || after < 0 || after >= index) {
    throw new Error(`appendMany: entry ${index} depends on entry ${after}, which is not before it`);
  }
  return after;
}
