import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type ConsumerBatch, ConsumerRetired, type LogConsumer } from '../../infra/core/log-consumer.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { isStoreUnavailable } from '../../infra/core/store-errors.ts';
import { applyBatch, ProjectionVersionChanged, projectionFilter, wants } from './apply-batch.ts';
import { checkpoints, ensureGeneration, initCheckpoint } from './checkpoints.ts';
import { ensureParkedCollection, park } from './parked-events.ts';
import type { Projection } from './projection.ts';
import { ensureOnce } from './projection-store.ts';

export type ProjectionConsumerOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: Projection;
  clock: Clock;
  /** the group it joins on the shared tail (absent: it applies pages alone, always) */
  batch?: ConsumerBatch;
  /** applies a page that failed this many times (back-off in between) event by event and parks the culprit; default 3 */
  maxAttempts?: number;
  /** brings a projection whose stored version is older up to date (the group rebuilds several in one pass) */
  rebuild(projection: Projection): Promise<void>;
  /** told when the projection rebuilds (status) */
  onState?(state: 'rebuilding' | 'ready'): void;
  onParked?(event: RecordedEvent, error: unknown): void;
};

/**
 * One projection as a log consumer. On the shared tail its group applies pages (projection-group.ts);
 * alone (catching up, or after a failure) it applies each page in its own transaction that also moves its
 * checkpoint (applyBatch).
 *
 * No event may stop it: a page that keeps failing for a reason other than a store outage (a bug, data the
 * code cannot handle) is applied again event by event after `maxAttempts` tries; the event that still
 * fails is parked (recorded in `_parked` in the transaction that moves the checkpoint past it) and the
 * projection goes on. A store outage is never parked: it is retried until the store is back.
 */
export function createProjectionConsumer(o: ProjectionConsumerOptions): LogConsumer {
  const { readStore, projection, clock } = o;
  const maxAttempts = o.maxAttempts ?? 3;
  const now = () => clock.now().toISOString();
  const ensured = ensureOnce(readStore);
  const ensure = ensured.ensure;
  let failures = 0;
  let parkedReady = false;

  const transient = (err: unknown) => isStoreUnavailable(err) || err instanceof ProjectionVersionChanged;

  /** the page again, one event per transaction; the ones that still fail are parked */
  async function applyOneByOne(events: RecordedEvent[], position: string): Promise<void> {
    for (const event of events) {
      try {
        await readStore.transaction((tx) =>
          applyBatch(tx, projection, [event], now(), { ensure, expectVersion: projection.version }),
        );
      } catch (err) {
        ensured.forget();
        if (transient(err)) throw err;
        await readStore.transaction(async (tx) => {
          const cp = await checkpoints(tx).get(projection.name);
          if (cp === null || cp.position >= event.position) return; // applied meanwhile elsewhere
          await park(tx, projection.name, event, err, now());
          await checkpoints(tx).upsert({ ...cp, position: event.position, updatedAt: now() });
        });
        o.onParked?.(event, err);
      }
    }
    await readStore.transaction((tx) =>
      applyBatch(tx, projection, [], now(), { ensure, expectVersion: projection.version, position }),
    );
  }

  return {
    name: projection.name,
    filter: projectionFilter(projection),
    ...(o.batch !== undefined && { batch: o.batch }),
    async start() {
      if (!parkedReady) {
        await ensureParkedCollection(readStore);
        parkedReady = true;
      }
      let cp = await initCheckpoint(readStore, projection, now());
      if (cp.version > projection.version) {
        throw new ConsumerRetired(
          `checkpoint is for version ${cp.version}, this code is version ${projection.version}`,
        );
      }
      if (cp.version < projection.version) {
        o.onState?.('rebuilding');
        await o.rebuild(projection);
        cp = (await checkpoints(readStore).get(projection.name)) ?? cp;
        o.onState?.('ready');
      } else {
        // index definitions may have changed with the code (a due index gained the lease): applied to the
        // live generation in place (an unchanged index costs one lookup; a changed one is built again)
        await ensureGeneration(readStore, projection, cp.generation);
      }
      return cp.position;
    },
    async handle(page) {
      try {
        await readStore.transaction((tx) =>
          applyBatch(tx, projection, page.events, now(), {
            ensure,
            expectVersion: projection.version,
            position: page.position,
          }),
        );
        failures = 0;
        return page.position;
      } catch (err) {
        ensured.forget(); // the rollback may have undone a collection's creation
        if (transient(err)) throw err;
        failures += 1;
        if (failures < maxAttempts) throw err; // the reader backs off and this page comes again
        failures = 0;
        await applyOneByOne(
          page.events.filter((e) => wants(projection, e)),
          page.position,
        );
        return page.position;
      }
    },
  };
}
