import type { RecordedEvent } from '../../domain/core/event.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore, ReadStoreSession } from '../../infra/core/read-store.port.ts';
import { checkpoints } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { projectionStore } from './projection-store.ts';

/**
 * Events a projection could not apply after its retries. Parking records the event (where it is in the
 * log, the projection, the error) and lets the projection move past it, so one pathological event never
 * stops a shared read model. Reported by /health/ready, /metrics and `platform projections`;
 * `platform projections retry <name>` applies them again after a fix (retryParked).
 */
export const PARKED = '_parked';

export type ParkedEvent = {
  id: string;
  projection: string;
  position: string;
  eventId: string;
  stream: string;
  revision: number;
  type: string;
  error: string;
  parkedAt: string;
  /** how many operator retries failed since it was parked */
  retries: number;
};

const MAX_ERROR = 2000;
const clip = (s: string) => (s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR)}…` : s);
export const errorText = (err: unknown) => clip(err instanceof Error ? err.message : String(err));

export const parkedEvents = (session: ReadStoreSession) => session.collection<ParkedEvent>(PARKED);

/** Records the event as parked, inside the caller's transaction (which also moves the checkpoint past it). */
export async function park(
  session: ReadStoreSession,
  projection: string,
  event: RecordedEvent,
  error: unknown,
  now: string,
): Promise<void> {
  await parkedEvents(session).upsert({
    id: `${projection}@${event.position}`,
    projection,
    position: event.position,
    eventId: event.id,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    error: errorText(error),
    parkedAt: now,
    retries: 0,
  });
}

export async function ensureParkedCollection(store: ReadStore): Promise<void> {
  await store.ensureCollection(PARKED, {
    indexes: [{ name: 'by_projection', fields: { projection: 1, position: 1 } }],
  });
}

export async function listParked(store: ReadStore, projection?: string): Promise<ParkedEvent[]> {
  await ensureParkedCollection(store);
  return parkedEvents(store).find(projection === undefined ? {} : { projection }, {
    sort: { projection: 1, position: 1 },
  });
}

/** Parked events per projection (for health and metrics). */
export async function parkedCounts(store: ReadStore): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const g of await parkedEvents(store).groupCount('projection')) {
    if (typeof g.key === 'string') counts.set(g.key, g.count);
  }
  return counts;
}

/**
 * Applies a projection's parked events again, in log order, each in its own transaction against the live
 * generation: those that apply now leave the list, the others stay with their new error. An event that
 * applies late may leave a read model different from a rebuild's (later events were applied before it);
 * a rebuild is the way to be sure.
 */
export async function retryParked(o: {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: Projection;
  now: () => string;
}): Promise<{ applied: number; failed: number }> {
  const { eventStore, readStore, projection } = o;
  let applied = 0;
  let failed = 0;
  for (const parked of await listParked(readStore, projection.name)) {
    const [event] = await eventStore.readStream(parked.stream, { fromRevision: parked.revision, limit: 1 });
    try {
      const done = await readStore.transaction(async (tx) => {
        // another retry (a second process, a second click) may have applied it since the list was read
        if ((await parkedEvents(tx).get(parked.id)) === null) return false;
        const cp = await checkpoints(tx).get(projection.name);
        if (event === undefined || event.id !== parked.eventId)
          throw new Error(`event ${parked.eventId} is no longer in ${parked.stream}`);
        const store = projectionStore(tx, projection, cp?.generation ?? 1, (name, spec) =>
          readStore.ensureCollection(name, spec),
        );
        await projection.apply([event], { collection: store.collection, late: true });
        await parkedEvents(tx).delete(parked.id);
        // the checkpoint is written with what it applied, as a page's is (its position stays): readers that
        // keep answers while it stands (checkpoint-memo.ts) see the change
        if (cp !== null) await checkpoints(tx).upsert({ ...cp, updatedAt: o.now() });
        return true;
      });
      if (done) applied += 1;
    } catch (err) {
      failed += 1;
      await parkedEvents(readStore).patch(parked.id, {
        $set: { error: errorText(err), lastRetryAt: o.now() },
        $inc: { retries: 1 },
      });
    }
  }
  return { applied, failed };
}
