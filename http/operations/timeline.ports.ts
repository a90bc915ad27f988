/**
 * What the incident view's routes ask of the platform (infra/operations/timeline.backend.ts answers it):
 * the events `platform replay` selects, redacted as it prints them, and an aggregate's folded state.
 */
export type TimelineSelection =
  | { kind: 'stream'; stream: string }
  | { kind: 'correlation'; correlationId: string }
  | { kind: 'window'; from: string; to: string; category?: string };

export type TimelineEventView = {
  position: string;
  eventId: string;
  occurredAt: string;
  /** the service whose decider owns the stream's category (`platform` for the core's own streams) */
  service: string;
  category: string;
  stream: string;
  revision: number;
  type: string;
  tenant: string;
  actor: string | null;
  correlationId: string | null;
  causationId: string | null;
  /** the event's data, secrets sealed as in `platform replay` */
  data: unknown;
  /** whether a decider folds this stream (the state after the event can be asked for) */
  hasState: boolean;
};

export type StreamStateView = {
  stream: string;
  service: string;
  revision: number;
  type: string;
  /** the aggregate state after `revision`, secrets sealed as in `platform replay --state` */
  state: unknown;
};

export type TimelineBackend = {
  timeline(
    q: TimelineSelection,
    page: { offset: number; limit: number },
  ): Promise<{ items: TimelineEventView[]; total: number }>;
  /** undefined when the stream has no event at `revision` */
  stateAfter(stream: string, revision: number): Promise<StreamStateView | undefined>;
  /** whether a decider folds the category */
  folds(category: string): boolean;
};
