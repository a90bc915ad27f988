import type { ReadStore, ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from '../core/checkpoints.ts';
import { partitionedName, physicalName } from '../core/projection.ts';
import { type SearchDoc, searchDocOf, searchIndexes } from './search-doc.ts';
import type { TaskDoc } from './task-doc.ts';
import { type IndexJob, type IndexState, TASKS_PROJECTION } from './tasks.projection.ts';
import { searchPartition, tenantPartition } from './workflow-partitions.ts';

/**
 * One index rebuild (a job of `workflow.tasks`): the index's next generation is filled from the tenant's
 * task documents (themselves the fold of the instance events) in pages, beside the live generation that
 * searches keep reading; then one transaction copies the documents changed meanwhile (their `pos` is past
 * the projection's checkpoint taken before the bulk) and switches the index to the new generation. The
 * transaction is serialized with the projection's own, so no change falls between. The generation before
 * the previous one is dropped (a search that resolved the previous one a moment before still finds it).
 */
export type RebuildOutcome =
  | { kind: 'switched'; generation: number; revision: number; documents: number }
  | { kind: 'obsolete' };

const PAGE = 1000;

export async function rebuildSearchIndex(o: {
  readStore: ReadStore;
  job: IndexJob;
  now: string;
  pageSize?: number;
  afterBulk?: () => Promise<void>;
}): Promise<RebuildOutcome> {
  const { readStore, job, now } = o;
  const pageSize = o.pageSize ?? PAGE;
  const cp = await readCheckpoint(readStore, TASKS_PROJECTION);
  if (cp === null) return { kind: 'obsolete' };
  const g = cp.generation;
  const tp = tenantPartition(job.tenant);
  const coll = <T extends { id: string }>(session: ReadStoreSession, partition: string, name: string) =>
    session.collection<T & Record<string, unknown>>(partitionedName(TASKS_PROJECTION, partition, name, g));
  const indexes = (s: ReadStoreSession) => coll<IndexState>(s, tp, 'indexes');
  const tasks = (s: ReadStoreSession) => coll<TaskDoc>(s, tp, 'tasks');
  const jobs = (s: ReadStoreSession) => s.collection(physicalName(TASKS_PROJECTION, 'jobs', g));

  const state = await indexes(readStore).get(job.index);
  const building = state?.building;
  if (state === null || building === undefined || building.generation !== job.generation) {
    await jobs(readStore).delete(job.id);
    return { kind: 'obsolete' };
  }
  const target = partitionedName(
    TASKS_PROJECTION,
    searchPartition(job.tenant, job.index, building.generation),
    'search',
    g,
  );
  await readStore.dropCollection(target); // leftovers of an interrupted run
  await readStore.ensureCollection(target, { indexes: searchIndexes(building.fields) });
  const mark = cp.position;
  let documents = 0;
  let after = '';
  for (;;) {
    const page = await tasks(readStore).find(
      { index: job.index, id: { $gt: after } },
      { sort: { id: 1 }, limit: pageSize },
    );
    if (page.length === 0) break;
    await readStore.transaction(async (tx) => {
      const out = tx.collection<SearchDoc>(target);
      for (const t of page) await out.upsert(searchDocOf(t as TaskDoc, building.fields, job.tenant, now));
    });
    documents += page.length;
    after = page[page.length - 1]!.id;
    if (page.length < pageSize) break;
  }

  await o.afterBulk?.(); // tests: changes that land between the bulk copy and the switch

  const switched = await readStore.transaction(async (tx) => {
    const live = await readCheckpoint(tx, TASKS_PROJECTION);
    if (live === null || live.generation !== g) return false; // the whole projection was rebuilt meanwhile
    const now2 = await indexes(tx).get(job.index);
    if (now2?.building?.generation !== building.generation) return false;
    const changed = await tasks(tx).find({ index: job.index, pos: { $gt: mark } });
    const out = tx.collection<SearchDoc>(target);
    for (const t of changed) await out.upsert(searchDocOf(t as TaskDoc, building.fields, job.tenant, now));
    const { building: _done, ...rest } = now2;
    await indexes(tx).upsert({
      ...rest,
      fields: building.fields,
      revision: building.revision,
      generation: building.generation,
    });
    await jobs(tx).delete(job.id);
    return true;
  });
  if (!switched) return { kind: 'obsolete' };
  if (building.generation > 2)
    await readStore.dropCollection(
      partitionedName(TASKS_PROJECTION, searchPartition(job.tenant, job.index, building.generation - 2), 'search', g),
    );
  return { kind: 'switched', generation: building.generation, revision: building.revision, documents };
}
