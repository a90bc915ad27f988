import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { createLogReader, type LogReaderLog } from '../../infra/core/log-reader.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from './projection.ts';
import { createProjectionConsumer } from './projection-consumer.ts';
import { type ProjectionStatus, projectionState, projectionStatus } from './projection-status.ts';
import { type RebuildProgress, rebuildProjection } from './rebuild.ts';

export type { ProjectionState, ProjectionStatus } from './projection-status.ts';

export type RunnerLog = LogReaderLog;

export type ProjectionRunnerOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: Projection;
  clock: Clock;
  log?: RunnerLog;
  /** events per page (catching up and live); default: the log reader's */
  batchSize?: number;
  /** first wait after a failure; doubles up to 30 s */
  retryDelayMs?: number;
  onRebuildProgress?: (p: RebuildProgress) => void;
};

/**
 * One projection kept up to date on a log reader of its own: for tests, the CLI and one-off tools. A
 * platform process does not use this: its projections run as one group on the process's one log reader
 * (projection-group.ts, infra/main.ts).
 */
export function createProjectionRunner(o: ProjectionRunnerOptions) {
  const { eventStore, readStore, projection, clock } = o;
  let rebuilding = false;
  const consumer = createProjectionConsumer({
    eventStore,
    readStore,
    projection,
    clock,
    rebuild: async (p) => {
      await rebuildProjection({
        eventStore,
        readStore,
        projection: p,
        clock,
        ...(o.onRebuildProgress && { onProgress: o.onRebuildProgress }),
      });
    },
    onState: (s) => (rebuilding = s === 'rebuilding'),
  });
  const reader = createLogReader({
    eventStore,
    consumers: [consumer],
    ...(o.batchSize !== undefined && { pageSize: o.batchSize, catchUpPageSize: o.batchSize }),
    ...(o.retryDelayMs !== undefined && { retryDelayMs: o.retryDelayMs }),
    ...(o.log && { log: o.log }),
  });
  let started = false;

  return {
    name: projection.name,
    start() {
      started = true;
      reader.start();
    },
    /** stops after the page in hand is committed */
    async stop() {
      await reader.stop();
      started = false;
    },
    async status(): Promise<ProjectionStatus> {
      const s = started ? reader.status()[0] : undefined;
      return projectionStatus(eventStore, readStore, projection, projectionState(s, rebuilding), s?.lastError);
    },
  };
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;
