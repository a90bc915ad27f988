import { setBounded } from '../../infra/core/bounded.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from './checkpoints.ts';
import type { Projection, ProjectionCheckpoint } from './projection.ts';

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
 * query waits until the projection has applied it (at most CATCH_UP_MS: a projection that does not run
 * leaves the read model as it is). So a rule whose creation was answered applies to the next event put,
 * which a read model alone, a moment behind the log, does not promise.
 *
 * Kept: a projection writes its checkpoint in the transaction of every page that had events for it and
 * only then (projection-group.ts), so an unchanged checkpoint means unchanged collections; a rebuild's
 * switch changes the generation, so it too starts afresh. Answers are shared between callers: they must
 * not be changed.
 */
export function checkpointMemo<R>(
  stores: CheckpointMemoStores,
  projection: Pick<Projection, 'name' | 'categories' | 'eventTypes'>,
  query: (key: string) => Promise<R>,
): (key: string) => Promise<R> {
  const { readStore, eventStore } = stores;
  const filter = {
    ...(projection.categories && { categories: projection.categories }),
    ...(projection.eventTypes && { eventTypes: projection.eventTypes }),
  };
  let stamp: string | undefined;
  const answers = new Map<string, Promise<R>>();

  /** position of the newest event of the projection's categories (of its filter, where it has none) */
  async function newest(): Promise<string | undefined> {
    if (projection.categories !== undefined && eventStore.lastPositionIn !== undefined)
      return eventStore.lastPositionIn(projection.categories);
    const [last] = await eventStore.readAll({ direction: 'backwards', filter, limit: 1 });
    return last?.position;
  }

  async function upToDate(): Promise<ProjectionCheckpoint | null> {
    let cp = await readCheckpoint(readStore, projection.name);
    const last = await newest();
    if (last === undefined || (cp !== null && cp.position >= last)) return cp;
    const until = performance.now() + CATCH_UP_MS;
    while ((cp === null || cp.position < last) && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      cp = await readCheckpoint(readStore, projection.name);
    }
    return cp;
  }

  return async (key) => {
    const cp = await upToDate();
    const now = cp === null ? 'none' : `${cp.version}/${cp.generation}/${cp.position}`;
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
