import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { matchesFilter } from '../../infra/core/event-filter.ts';
import type { AllFilter, EventStore } from '../../infra/core/event-store.port.ts';
import { consumerLag } from '../../infra/core/lag.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { createLogReader } from '../../infra/core/log-reader.ts';
import { START } from '../../infra/core/position.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';

/**
 * A process manager's engine: a checkpointed log consumer that hands the matching events of each page to
 * `handlePage` (or `handle`, one at a time), in log order. Unlike a projection, its effects are appends to
 * the event store, outside any read-store transaction: delivery is at-least-once and the handler must be
 * idempotent — commands with ids derived from the event's id make it so (a redelivered event finds its
 * command id in the stream and appends nothing). Work that turns events into due items is a projection
 * instead (its items and its checkpoint commit together).
 *
 * In a platform process the reactor's `consumer` runs on the process's one log reader; `start()` runs it
 * on a reader of its own (tests, one-off tools). The checkpoint (`_reactors` collection of the read store)
 * moves after each page that had events for it. A failing handler leaves the shared tail and is retried
 * from its checkpoint with a doubling delay.
 */
export type ReactorLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type ReactorOptions = {
  /** unique: the checkpoint's id */
  name: string;
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  filter: AllFilter;
  /** one event at a time (give this or handlePage) */
  handle?(event: RecordedEvent): Promise<void>;
  /** the page's matching events at once, in log order (batched appends) */
  handlePage?(events: RecordedEvent[]): Promise<void>;
  log?: ReactorLog;
  batchSize?: number;
  retryDelayMs?: number;
};

export type ReactorStatus = {
  name: string;
  position: string;
  head: string;
  /** head position minus checkpoint, 0 when no event for this reactor is pending */
  lag: number;
  state: 'stopped' | 'running' | 'retrying';
  lastError?: string;
};

export type Reactor = {
  readonly name: string;
  /** what the process's log reader runs */
  readonly consumer: LogConsumer;
  /** runs the consumer on a log reader of its own */
  start(): void;
  /** stops after the page in hand (the checkpoint is written first) */
  stop(): Promise<void>;
  status(): Promise<ReactorStatus>;
  /**
   * Handles every pending event up to the log's head, without the live subscription, and answers how many
   * it handled. For tests and one-off runs; do not call it while the reactor runs.
   */
  drain(): Promise<number>;
};

export const REACTOR_CHECKPOINTS = '_reactors';
type Checkpoint = { id: string; position: string; updatedAt: string };

export function createReactor(o: ReactorOptions): Reactor {
  const { eventStore, readStore, clock, filter, name } = o;
  const batchSize = o.batchSize ?? 100;
  let ensured = false;
  let position = START;
  let reader: ReturnType<typeof createLogReader> | undefined;

  const handlePage =
    o.handlePage ??
    (async (events: RecordedEvent[]) => {
      for (const e of events) await o.handle!(e);
    });
  if (o.handle === undefined && o.handlePage === undefined)
    throw new Error(`reactor ${name}: give handle or handlePage`);

  const checkpoints = () => readStore.collection<Checkpoint>(REACTOR_CHECKPOINTS);
  async function readPosition(): Promise<string> {
    if (!ensured) {
      await readStore.ensureCollection(REACTOR_CHECKPOINTS);
      ensured = true;
    }
    return (await checkpoints().get(name))?.position ?? START;
  }
  const savePosition = (at: string) =>
    checkpoints().upsert({ id: name, position: at, updatedAt: clock.now().toISOString() });

  const consumer: LogConsumer = {
    name,
    filter,
    async start() {
      position = await readPosition();
      return position;
    },
    async handle(page) {
      const events = page.events.filter((e) => e.position > position && matchesFilter(filter, e));
      if (events.length > 0) {
        await handlePage(events);
        await savePosition(page.position);
      }
      if (page.position > position) position = page.position;
      return position;
    },
  };

  return {
    name,
    consumer,
    start() {
      if (reader) return;
      reader = createLogReader({
        eventStore,
        consumers: [consumer],
        pageSize: batchSize,
        catchUpPageSize: batchSize,
        ...(o.retryDelayMs !== undefined && { retryDelayMs: o.retryDelayMs }),
        ...(o.log && { log: o.log }),
      });
      reader.start();
    },
    async stop() {
      await reader?.stop();
      reader = undefined;
    },
    async status() {
      const s = reader?.status()[0];
      const at = await readPosition();
      const { head, lag } = await consumerLag(eventStore, at, filter);
      const state =
        s === undefined || s.state === 'stopped' || s.state === 'retired'
          ? 'stopped'
          : s.state === 'retrying'
            ? 'retrying'
            : 'running';
      return { name, position: at, head, lag, state, ...(s?.lastError !== undefined && { lastError: s.lastError }) };
    },
    async drain() {
      let at = await consumer.start();
      let handled = 0;
      while (true) {
        const page = await eventStore.readAll({ after: at, filter, limit: batchSize });
        if (page.length === 0) return handled;
        at = await consumer.handle({ events: page, position: page[page.length - 1]!.position });
        handled += page.length;
      }
    },
  };
}
