import { batches } from '../../domain/core/async-batches.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { consumerLag } from '../../infra/core/lag.ts';
import { superviseLoop } from '../../infra/core/supervised-loop.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { applyBatch, projectionFilter, ProjectionVersionChanged } from './apply-batch.ts';
import { initCheckpoint, readCheckpoint } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { rebuildProjection, type RebuildProgress } from './rebuild.ts';

export type RunnerLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type ProjectionRunnerOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: Projection;
  clock: Clock;
  log?: RunnerLog;
  batchSize?: number;
  /** first wait after a failure; doubles up to 30 s */
  retryDelayMs?: number;
  onRebuildProgress?: (p: RebuildProgress) => void;
};

export type ProjectionStatus = {
  name: string;
  version: number;
  generation: number;
  position: string;
  head: string;
  /** head position minus checkpoint, 0 when no event for this projection is pending */
  lag: number;
  state: 'stopped' | 'running' | 'rebuilding' | 'retrying';
  lastError?: string;
};

const silent: RunnerLog = { info() {}, warn() {}, error() {} };

/**
 * Keeps one projection up to date: subscribes to the log after its checkpoint and applies batches, each in
 * the read store transaction that also moves the checkpoint. A version bump rebuilds beside the live
 * collections first. Failures (store down, a bug in apply) are logged and retried from the checkpoint.
 */
export function createProjectionRunner(o: ProjectionRunnerOptions) {
  const { eventStore, readStore, projection, clock } = o;
  const log = o.log ?? silent;
  const batchSize = o.batchSize ?? 500;
  let state: ProjectionStatus['state'] = 'stopped';
  let lastError: string | undefined;
  let abort: AbortController | undefined;
  let loop: Promise<void> | undefined;

  async function runOnce(signal: AbortSignal): Promise<void> {
    let cp = await initCheckpoint(readStore, projection, clock.now().toISOString());
    if (cp.version !== projection.version) {
      state = 'rebuilding';
      log.info({ projection: projection.name, from: cp.version, to: projection.version }, 'projection version changed: rebuilding');
      await rebuildProjection({ eventStore, readStore, projection, clock, ...(o.onRebuildProgress && { onProgress: o.onRebuildProgress }) });
      cp = (await readCheckpoint(readStore, projection.name))!;
    }
    state = 'running';
    lastError = undefined;
    const events = eventStore.subscribeAll({ after: cp.position, filter: projectionFilter(projection), signal });
    for await (const batch of batches(events, batchSize)) {
      await readStore.transaction((tx) =>
        applyBatch(tx, projection, batch, clock.now().toISOString(), { expectVersion: projection.version }),
      );
      if (signal.aborted) return;
    }
  }

  async function run(signal: AbortSignal): Promise<void> {
    const ended = await superviseLoop({
      signal,
      runOnce,
      ...(o.retryDelayMs !== undefined && { initialDelayMs: o.retryDelayMs }),
      // a newer version of the code owns this projection now: this process stops projecting it
      isFatal: (err) => err instanceof ProjectionVersionChanged && err.stored > projection.version,
      onFailure(err, retryInMs) {
        state = 'retrying';
        lastError = err instanceof Error ? err.message : String(err);
        log.error({ projection: projection.name, err: lastError, retryInMs }, 'projection failed; retrying from checkpoint');
      },
    });
    if (ended === 'fatal') log.warn({ projection: projection.name }, 'a newer projection version took over');
  }

  return {
    name: projection.name,
    start() {
      if (loop) return;
      abort = new AbortController();
      state = 'running';
      loop = run(abort.signal).finally(() => {
        state = 'stopped';
      });
    },
    /** stops after the batch in hand is committed */
    async stop() {
      abort?.abort();
      await loop;
      loop = undefined;
    },
    async status(): Promise<ProjectionStatus> {
      const cp = await readCheckpoint(readStore, projection.name);
      const position = cp?.position ?? '0';
      const { head, lag } = await consumerLag(eventStore, position, projectionFilter(projection));
      return {
        name: projection.name,
        version: cp?.version ?? projection.version,
        generation: cp?.generation ?? 0,
        position,
        head,
        lag,
        state,
        ...(lastError !== undefined && { lastError }),
      };
    },
  };
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;
