import { matchesFilter } from '../core/event-filter.ts';
import type { AllFilter } from '../core/event-store.port.ts';

/**
 * What this store instance itself committed, by position range, so a filtered page reader at the head can
 * move past its own process's appends without reading them back when none of them is in its filter (an
 * API process appends audit records all day; its log reader only wants identity and metadata events).
 *
 * Only safe when nothing else committed in between: the caller checks that no other connection has
 * committed since its last read (`PRAGMA data_version`) and that its cursor is the head that read saw;
 * `skipTo` then checks the commits after the cursor are contiguous from it.
 */
export type OwnCommits = {
  /**
   * during an append transaction: rows inserted for one stream, up to `revision` (kept only if the
   * transaction commits)
   */
  stage(first: number, last: number, stream: string, types: Iterable<string>, revision: number): void;
  /** the transaction committed: the staged ranges become known; answers them (where each stream now ends, and its last position) */
  commit(): ReadonlyArray<{ stream: string; revision: number; last: number }>;
  /** the transaction rolled back */
  discard(): void;
  /**
   * the position a reader at `cursor` may move to without reading: every commit after it is this
   * instance's, contiguous from it, and outside `filter`; `cursor` itself when there is nothing after it;
   * undefined when the reader must read
   */
  skipTo(cursor: number, filter: AllFilter | undefined): number | undefined;
};

type Commit = { first: number; last: number; stream: string; types: string[]; revision: number };

/** the commits remembered (at least; up to twice as many between trims); a reader further behind reads, as before */
const KEPT = 256;

export function createOwnCommits(): OwnCommits {
  let staged: Commit[] = [];
  let known: Commit[] = [];

  // a commit is wanted when one of its events passes the filter (the log's one filter rule)
  const wanted = (c: Commit, filter: AllFilter): boolean =>
    c.types.some((type) => matchesFilter(filter, { stream: c.stream, type }));

  return {
    stage(first, last, stream, types, revision) {
      staged.push({ first, last, stream, types: [...new Set(types)], revision });
    },
    commit() {
      const committed = staged;
      if (committed.length === 0) return committed;
      known.push(...committed);
      staged = [];
      if (known.length > 2 * KEPT) known = known.slice(known.length - KEPT); // trimmed now and then, not on every commit
      return committed;
    },
    discard() {
      staged = [];
    },
    skipTo(cursor, filter) {
      if (filter === undefined || (!filter.categories?.length && !filter.eventTypes?.length)) return undefined;
      let at = cursor;
      // newest last: walk back to the first commit after the cursor, then forwards along the chain
      let i = known.length;
      while (i > 0 && known[i - 1]!.last > cursor) i--;
      // a gap (commits forgotten, or another's in between) ends the chain: the reader reads
      for (; i < known.length; i++) {
        const c = known[i]!;
        if (c.first !== at + 1 || wanted(c, filter)) return undefined;
        at = c.last;
      }
      return at;
    },
  };
}
