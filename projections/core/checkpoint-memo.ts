import { setBounded } from '../../infra/core/bounded.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import type { Projection, ProjectionCheckpoint } from './projection.ts';
import { noteGeneration } from './read-model.ts';

const MAX_ENTRIES = 1000;
/** how long a query waits for its projection to apply a change already in the log, at most */
const CATCH_UP_MS = 2000;
const POLL_MS = 2;

export type CheckpointMemoStores = { readStore: ReadStore; eventStore: EventStore };

/**
 * A query over one projection's read model, asked where a command decides (a bus's rules, at each
 * putEvent), that answers as of every change already in the log, its answers kept while the projection's
 * checkpoint stays where it was.
 *
 * Up to date: the log is asked for the newest event of the projection's categories (an index seek each,
 * EventStore.lastPositionIn); when the checkpoint is not past it, something changed a moment ago and the
 * query waits until the projection has applied it, for CATCH_UP_MS at most. A projection that does not run
 * (stopped, rebuilding, failing) is waited for once: until the checkpoint or the log moves, calls answer
 * from the read model as it is. So, while the projection runs, a rule whose creation was answered applies
 * to the next event put, which a read model alone, a moment behind the log, does not promise. A store
 * without lastPositionIn (EventStoreDB) answers from the read model as it is.
 *
 * Kept: a projection writes its checkpoint in the transaction of everything it applies (a page, a parked
 * event retried), so an unchanged checkpoint means unchanged collections; a rebuild's switch changes the
 * generation, which the query's readers then use (noteGeneration). Answers are shared between callers:
 * they must not be changed.
 */
export function checkpointMemo<R>(
  stores: CheckpointMemoStores,
  projection: Pick<Projection, 'name' | 'categories'>,
  query: (key: string) => Promise<R>,
  options: { catchUpMs?: number } = {},
): (key: string) => Promise<R> {
  const { readStore, eventStore } = stores;
  const categories = projection.categories ?? [];
  const catchUpMs = options.catchUpMs ?? CATCH_UP_MS;
  let stamp: string | undefined;
  const answers = new Map<string, Promise<R>>();

  /** a wait that ran out: not waited for again until the checkpoint or the log moves */
  let gaveUp: string | undefined;

  async function upToDate(): Promise<ProjectionCheckpoint | null> {
    let cp = await readCheckpoint(readStore, projection.name);
    // a store that cannot seek the newest event of some categories (EventStoreDB filters $all on the way)
    // answers from the read model as it is: scanning the log back at every call costs more than the lag
    if (categories.length === 0 || eventStore.lastPositionIn === undefined) return cp;
    const last = await eventStore.lastPositionIn(categories);
    if (last === undefined || (cp !== null && cp.position >= last)) return cp;
    const behind = `${cp?.position ?? ''}<${last}`;
    if (gaveUp === behind) return cp; // the projection does not run: waiting again would only slow every call
    const until = performance.now() + catchUpMs;
    while ((cp === null || cp.position < last) && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      cp = await readCheckpoint(readStore, projection.name);
    }
    if (cp === null || cp.position < last) gaveUp = behind;
    return cp;
  }

  return async (key) => {
    const cp = await upToDate();
    // the checkpoint just read is the truth about the generation: the query's readers use it too
    if (cp !== null) noteGeneration(readStore, projection.name, cp.generation);
    const now = cp === null ? 'none' : `${cp.version}/${cp.generation}/${cp.position}/${cp.updatedAt}`;
    if (now !== stamp) {
      answers.clear();
      stamp = now;
    }
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = query(key);
    setBounded(answers, key, answer, MAX_ENTRIES);
    answer.catch(() => {
      if (answers.get(key) === answer) answers.delete(key); // a failed query is asked again
    });
    return answer;
  };
}
