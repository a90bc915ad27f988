import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore, LogPage } from '../../infra/core/event-store.port.ts';
import type { ConsumerBatch, LogConsumer } from '../../infra/core/log-consumer.ts';
import {
  PartialRollbackUnavailableError,
  type ReadStore,
  type ReadStoreSession,
} from '../../infra/core/read-store.port.ts';
import { ProjectionVersionChanged, wants } from './apply-batch.ts';
import { checkpoints } from './checkpoints.ts';
import type { Projection, ProjectionCheckpoint } from './projection.ts';
import { createProjectionConsumer } from './projection-consumer.ts';
import { type EnsureCollection, ensureOnce, projectionStore } from './projection-store.ts';
import { type RebuildProgress, rebuildProjections } from './rebuild.ts';

export type ProjectionGroupOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  clock: Clock;
  maxAttempts?: number;
  onRebuildProgress?: (p: RebuildProgress) => void;
  onParked?: (projection: string, position: string, error: unknown) => void;
};

export type ProjectionGroup = {
  /** one log consumer per projection, all sharing the group's batch: register them with the log reader */
  consumers: LogConsumer[];
  /** projections this process is rebuilding now */
  rebuilding(): string[];
};

type Result = { position: string } | { error: unknown };

/**
 * The projections of one read store as a group. A page of the shared tail is applied to
 * every caught-up projection in ONE read-store transaction; each projection runs in its own savepoint
 * together with its checkpoint, so one that throws is rolled back alone and leaves the tail (it catches up
 * on its own loop, where a failure that persists gets the event parked), while the others commit.
 * On MongoDB, which cannot undo part of a transaction, the whole page is abandoned and applied again
 * without the projection that failed.
 *
 * A projection writes its checkpoint when the page had events for it; pages without any leave the
 * checkpoint where it is (a restart reads those events again and skips them), which keeps an idle
 * projection from costing a write per page.
 *
 * Projections whose stored version is older than the code's are rebuilt when they start, all of them in
 * one pass over the log (rebuildProjections), beside their live generation.
 */
export function createProjectionGroup(o: ProjectionGroupOptions): ProjectionGroup {
  const { eventStore, readStore, clock } = o;
  const byName = new Map(o.projections.map((p) => [p.name, p]));
  const rebuildingNow = new Set<string>();
  const ensured = ensureOnce(readStore);

  // every projection found outdated while the group starts is rebuilt in the same pass
  let pendingRebuild: { names: Set<string>; done: Promise<void> } | undefined;
  function rebuild(projection: Projection): Promise<void> {
    if (pendingRebuild === undefined) {
      const names = new Set<string>([projection.name]);
      const done = (async () => {
        await new Promise((r) => setTimeout(r, 50)); // let the other projections starting now join this pass
        pendingRebuild = undefined;
        const list = [...names].map((n) => byName.get(n)!);
        for (const n of names) rebuildingNow.add(n);
        try {
          await rebuildProjections({
            eventStore,
            readStore,
            projections: list,
            clock,
            ...(o.onRebuildProgress && { onProgress: o.onRebuildProgress }),
          });
        } finally {
          for (const n of names) rebuildingNow.delete(n);
        }
      })();
      pendingRebuild = { names, done };
      return done;
    }
    pendingRebuild.names.add(projection.name);
    return pendingRebuild.done;
  }

  async function applyMember(
    session: ReadStoreSession,
    projection: Projection,
    cp: ProjectionCheckpoint | undefined,
    page: LogPage,
    now: string,
    ensure: EnsureCollection,
  ) {
    if (cp === undefined) throw new Error(`projection ${projection.name} has no checkpoint`);
    if (cp.version !== projection.version) throw new ProjectionVersionChanged(cp.version, projection.version);
    const relevant = page.events.filter((e) => e.position > cp.position && wants(projection, e));
    if (relevant.length === 0) return;
    await projection.apply(relevant, projectionStore(session, projection, cp.generation, ensure));
    await checkpoints(session).upsert({
      ...cp,
      position: page.position > cp.position ? page.position : cp.position,
      updatedAt: now,
    });
  }

  /** for each member the page has events for, the position of the last of them */
  const lastWantedIn = (page: LogPage, members: Projection[]): Map<Projection, string> => {
    const last = new Map<Projection, string>();
    for (const p of members) {
      const e = page.events.findLast((x) => wants(p, x));
      if (e !== undefined) last.set(p, e.position);
    }
    return last;
  };

  /**
   * Every member the page has events for is at or past the last of them already, at its current version:
   * another process of the same group applied them (worker processes all tail the log, each cutting its own
   * pages; the first to take the write lock applies). applyMember would skip each of those events, so the
   * page is answered without the write lock: the others neither wait for it nor commit an empty
   * transaction. Checkpoints only move forward, so a stale answer is only ever "not yet".
   */
  async function appliedElsewhere(concerned: Map<Projection, string>): Promise<boolean> {
    if (concerned.size === 0) return true; // nothing to write: no transaction either
    const cps = new Map(
      (await checkpoints(readStore).find({ id: { $in: [...concerned.keys()].map((p) => p.name) } })).map((cp) => [
        cp.id,
        cp,
      ]),
    );
    return [...concerned].every(([p, last]) => {
      const cp = cps.get(p.name);
      return cp !== undefined && cp.version === p.version && cp.position >= last;
    });
  }

  const batch: ConsumerBatch = {
    name: 'projections',
    async handle(page, consumers) {
      const errors = new Map<string, unknown>();
      let members = consumers.map((c) => byName.get(c.name)!).filter((p) => p !== undefined);
      const concerned = lastWantedIn(page, members);
      if (await appliedElsewhere(concerned)) return consumers.map((): Result => ({ position: page.position }));
      for (;;) {
        const failed = new Map<string, unknown>();
        let abandoned: string | undefined;
        try {
          // reached through tx only (partitioned collections are created through it too): nothing tracks
          // the page's async context, which on Node 20 would slow every promise of the process meanwhile
          await readStore.transaction(
            async (tx) => {
              const now = clock.now().toISOString();
              const ensure = ensured.within(tx);
              const cps = new Map(
                (await checkpoints(tx).find({ id: { $in: members.map((p) => p.name) } })).map((cp) => [cp.id, cp]),
              );
              for (const projection of members) {
                // nothing in the page for it: no savepoint (applyMember would change nothing)
                if (!concerned.has(projection)) continue;
                try {
                  await tx.savepoint((sp) => applyMember(sp, projection, cps.get(projection.name), page, now, ensure));
                } catch (err) {
                  if (err instanceof PartialRollbackUnavailableError) {
                    abandoned = projection.name;
                    throw err;
                  }
                  failed.set(projection.name, err);
                  ensured.forget(); // the rollback may have undone a collection's creation
                }
              }
            },
            { ambient: false },
          );
          for (const [name, err] of failed) errors.set(name, err);
          break;
        } catch (err) {
          ensured.forget();
          if (abandoned === undefined) {
            for (const p of members) errors.set(p.name, err); // the store: every member retries alone
            break;
          }
          errors.set(abandoned, err instanceof PartialRollbackUnavailableError ? err.original : err);
          const out = abandoned;
          members = members.filter((p) => p.name !== out);
          if (members.length === 0) break;
        }
      }
      return consumers.map(
        (c): Result => (errors.has(c.name) ? { error: errors.get(c.name) } : { position: page.position }),
      );
    },
  };

  const consumers = o.projections.map((projection) =>
    createProjectionConsumer({
      eventStore,
      readStore,
      projection,
      clock,
      batch,
      rebuild,
      ...(o.maxAttempts !== undefined && { maxAttempts: o.maxAttempts }),
      ...(o.onParked && { onParked: (event, error) => o.onParked!(projection.name, event.position, error) }),
    }),
  );

  return { consumers, rebuilding: () => [...rebuildingNow] };
}
