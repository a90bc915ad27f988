import type { AllFilter, LogPage } from './event-store.port.ts';

/**
 * What the process's one log reader (infra/core/log-reader.ts) feeds: projections (as one group),
 * reactors, in-memory caches. A consumer says what it needs (`filter`: the reader's server-side filter is
 * the union of its consumers'), where it resumes, and handles pages in log order, one at a time.
 *
 * Positions: `handle` gets pages whose events may include some at or before the consumer's own position
 * (a consumer joins the shared tail wherever the tail is): it skips those. Events outside its filter may
 * be in the page too (the union): it skips those as well.
 */
export type LogConsumer = {
  /** unique in the process: logs, health and metrics name it */
  readonly name: string;
  readonly filter: AllFilter;
  /**
   * Called once before the first page (and again after a failure): loads what the consumer needs and
   * answers its position (a checkpoint, or START for an in-memory consumer that rebuilds from the log).
   */
  start(): Promise<string>;
  /**
   * Applies one page and answers the consumer's position after it (usually `page.position`). A throw
   * takes the consumer off the shared tail: it is started again after a back-off and catches up alone.
   */
  handle(page: LogPage): Promise<string>;
  /**
   * Consumers sharing one batch are handed a page together while they are on the shared tail (the
   * projection group: one read-store transaction, a savepoint each). `handle` alone is used while the
   * consumer catches up.
   */
  readonly batch?: ConsumerBatch;
};

/** Applies one page to several consumers at once; answers per consumer its new position or its error. */
export type ConsumerBatch = {
  readonly name: string;
  handle(page: LogPage, consumers: LogConsumer[]): Promise<Array<{ position: string } | { error: unknown }>>;
};

/** Thrown by a consumer's start() when it must not run in this process any more (a newer version owns it). */
export class ConsumerRetired extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsumerRetired';
  }
}

/** How a consumer is doing, for /health/ready, /metrics and `platform projections`. */
export type ConsumerStatus = {
  name: string;
  /** joined: on the shared tail; catching-up: reading its own pages; retrying: after a failure */
  state: 'stopped' | 'catching-up' | 'joined' | 'retrying' | 'retired';
  position: string;
  lastError?: string;
};
