import type { RecordedEvent } from '../../domain/core/event.ts';
import { matchesFilter } from '../../infra/core/event-filter.ts';
import type { AllFilter } from '../../infra/core/event-store.port.ts';
import type { ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { checkpoints } from './checkpoints.ts';
import type { Projection, ProjectionCheckpoint } from './projection.ts';
import { type EnsureCollection, projectionStore } from './projection-store.ts';

export const projectionFilter = (p: Projection): AllFilter => ({
  ...(p.categories && { categories: p.categories }),
  ...(p.eventTypes && { eventTypes: p.eventTypes }),
});

const filters = new WeakMap<Projection, AllFilter>();
export const wants = (p: Projection, e: RecordedEvent) => {
  let filter = filters.get(p);
  if (filter === undefined) filters.set(p, (filter = projectionFilter(p)));
  return matchesFilter(filter, e);
};

export class ProjectionVersionChanged extends Error {
  constructor(
    readonly stored: number,
    readonly code: number,
  ) {
    super(`checkpoint is for version ${stored}, code is version ${code}`);
  }
}

/**
 * Inside one transaction: read the checkpoint, skip what it already covers (so a redelivered event is never
 * applied twice), apply the rest to the checkpoint's generation, move the checkpoint. A crash before the
 * commit loses the whole batch, checkpoint included; the events come again after restart.
 */
export async function applyBatch(
  tx: ReadStoreSession,
  projection: Projection,
  events: RecordedEvent[],
  now: string,
  options: { generation?: number; expectVersion?: number; position?: string; ensure?: EnsureCollection } = {},
): Promise<ProjectionCheckpoint | null> {
  const cps = checkpoints(tx);
  const cp = await cps.get(projection.name);
  if (!cp) throw new Error(`projection ${projection.name} has no checkpoint`);
  if (options.expectVersion !== undefined && cp.version !== options.expectVersion) {
    throw new ProjectionVersionChanged(cp.version, options.expectVersion);
  }
  // the batch covers up to its last event, or further when the reader says so (a filtered page)
  const last = events[events.length - 1]?.position;
  const covered =
    options.position !== undefined && (last === undefined || options.position > last) ? options.position : last;
  if (covered === undefined || covered <= cp.position) return null;
  const relevant = events.filter((e) => e.position > cp.position && wants(projection, e));
  if (relevant.length > 0)
    await projection.apply(
      relevant,
      projectionStore(tx, projection, options.generation ?? cp.generation, options.ensure),
    );
  const next = { ...cp, position: covered, updatedAt: now };
  await cps.upsert(next);
  return next;
}
