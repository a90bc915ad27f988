import type { EventStore } from '../../infra/core/event-store.port.ts';
import { consumerLag } from '../../infra/core/lag.ts';
import type { ConsumerStatus } from '../../infra/core/log-consumer.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { projectionFilter } from './apply-batch.ts';
import { readCheckpoint } from './checkpoints.ts';
import type { Projection } from './projection.ts';

export type ProjectionState = 'stopped' | 'running' | 'rebuilding' | 'retrying';

export type ProjectionStatus = {
  name: string;
  version: number;
  generation: number;
  position: string;
  head: string;
  /** head position minus checkpoint, 0 when no event for this projection is pending */
  lag: number;
  state: ProjectionState;
  lastError?: string;
  /** events parked because it could not apply them (see parked-events.ts) */
  parked?: number;
};

/** A log consumer's state as a projection's. */
export const projectionState = (s: ConsumerStatus | undefined, rebuilding: boolean): ProjectionState => {
  if (rebuilding) return 'rebuilding';
  const state = s?.state;
  switch (state) {
    case undefined:
    case 'stopped':
    case 'retired':
      return 'stopped';
    case 'retrying':
      return 'retrying';
    case 'catching-up':
    case 'joined':
      return 'running';
    default:
      return state satisfies never;
  }
};

/** Where a projection stands: its checkpoint, the log's head and the lag between them. */
export async function projectionStatus(
  eventStore: EventStore,
  readStore: ReadStore,
  projection: Projection,
  state: ProjectionState,
  lastError?: string,
): Promise<ProjectionStatus> {
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
}
