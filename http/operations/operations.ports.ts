/**
 * What the operations router asks of the platform (infra/operations/operations.service.ts answers it):
 * the projections' figures, their parked events, the rebuilds and readiness, in the API's shapes.
 */
export type ProjectionView = {
  name: string;
  version: number;
  generation: number;
  position: string;
  head: string;
  lag: number;
  parked: number;
  state: 'stopped' | 'running' | 'rebuilding' | 'retrying';
  lastError: string | null;
  /** the latest rebuild started through this API, if any */
  rebuild: { id: string; state: 'running' | 'switched' | 'failed' } | null;
};

export type ParkedView = {
  id: string;
  position: string;
  eventId: string;
  stream: string;
  revision: number;
  type: string;
  error: string;
  parkedAt: string;
  retries: number;
};

export type RebuildView = {
  id: string;
  projection: string;
  state: 'running' | 'switched' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  generation: number | null;
  error: string | null;
  progress: { done: number; total: number; percent: number; events: number; rate: number; etaSeconds: number | null };
};

export type EngineView = {
  name: string;
  state: 'stopped' | 'running' | 'retrying';
  /** items due now and not leased */
  due: number;
  /** items leased (being run), by any process; null where the engine does not count them */
  leased: number | null;
  /** items this process runs now */
  inFlight: number;
  lastError: string | null;
};

export type ReadinessView = {
  ok: boolean;
  /** whether this process runs the workers (projections, reactors, engines) */
  workers: boolean;
  checks: Array<{
    name: string;
    ok: boolean;
    detail: string | null;
    lag: number | null;
    parked: number | null;
    backlog: number | null;
  }>;
  engines: EngineView[];
};

export type OperationsBackend = {
  /** the platform's projection names */
  names(): string[];
  projections(): Promise<ProjectionView[]>;
  parked(name: string, page: { offset: number; limit: number }): Promise<{ items: ParkedView[]; total: number }>;
  retry(name: string): Promise<{ applied: number; failed: number }>;
  startRebuild(name: string): Promise<RebuildView>;
  rebuild(id: string): Promise<RebuildView>;
  readiness(): Promise<ReadinessView>;
};
