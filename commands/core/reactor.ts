import { batches } from '../../domain/core/async-batches.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { AllFilter, EventStore } from '../../infra/core/event-store.port.ts';
import { START } from '../../infra/core/position.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { consumerLag } from '../../infra/core/lag.ts';
import { superviseLoop } from '../../infra/core/supervised-loop.ts';

/**
 * A process manager's engine: a checkpointed subscription that hands each matching event to `handle`,
 * one at a time, in log order (a projection's runner, minus the read model). Unlike a projection, `handle`
 * writes to the event store, outside any read-store transaction; so delivery is at-least-once and the
 * handler must be idempotent — commands with ids derived from the event's id make it so (a redelivered
 * event finds its command id in the stream and appends nothing).
 *
 * The checkpoint (`_reactors` collection of the read store) moves after each batch of events that were
 * already available, not after every event: a crash re-handles at most that batch. A failing handler
 * (store down, a bug) is logged and retried from the checkpoint with a doubling delay (up to 30 s).
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
  handle(event: RecordedEvent): Promise<void>;
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
  start(): void;
  /** stops after the event in hand (the checkpoint is written first) */
  stop(): Promise<void>;
  status(): Promise<ReactorStatus>;
  /**
   * Handles every pending event up to the log's head, without the live subscription, and answers how many
   * it handled. For tests and one-off runs; do not call it while the reactor is started.
   */
  drain(): Promise<number>;
};

export const REACTOR_CHECKPOINTS = '_reactors';
type Checkpoint = { id: string; position: string; updatedAt: string };

const silent: ReactorLog = { info() {}, warn() {}, error() {} };

export function createReactor(o: ReactorOptions): Reactor {
  const { eventStore, readStore, clock, filter, handle, name } = o;
  const log = o.log ?? silent;
  const batchSize = o.batchSize ?? 100;
  let state: ReactorStatus['state'] = 'stopped';
  let lastError: string | undefined;
  let abort: AbortController | undefined;
  let loop: Promise<void> | undefined;
  let ensured = false;

  const checkpoints = () => readStore.collection<Checkpoint>(REACTOR_CHECKPOINTS);
  async function readPosition(): Promise<string> {
    if (!ensured) {
      await readStore.ensureCollection(REACTOR_CHECKPOINTS);
      ensured = true;
    }
    return (await checkpoints().get(name))?.position ?? START;
  }
  const savePosition = (position: string) => checkpoints().upsert({ id: name, position, updatedAt: clock.now().toISOString() });

  async function runOnce(signal: AbortSignal): Promise<void> {
    const after = await readPosition();
    state = 'running';
    lastError = undefined;
    for await (const batch of batches(eventStore.subscribeAll({ after, filter, signal }), batchSize)) {
      for (const event of batch) await handle(event);
      await savePosition(batch[batch.length - 1]!.position);
      if (signal.aborted) return;
    }
  }

  async function run(signal: AbortSignal): Promise<void> {
    await superviseLoop({
      signal,
      runOnce,
      ...(o.retryDelayMs !== undefined && { initialDelayMs: o.retryDelayMs }),
      onFailure(err, retryInMs) {
        state = 'retrying';
        lastError = err instanceof Error ? err.message : String(err);
        log.error({ reactor: name, err: lastError, retryInMs }, 'reactor failed; retrying from checkpoint');
      },
    });
  }

  return {
    name,
    start() {
      if (loop) return;
      abort = new AbortController();
      state = 'running';
      loop = run(abort.signal).finally(() => {
        state = 'stopped';
      });
    },
    async stop() {
      abort?.abort();
      await loop;
      loop = undefined;
    },
    async status() {
      const position = await readPosition();
      const { head, lag } = await consumerLag(eventStore, position, filter);
      return { name, position, head, lag, state, ...(lastError !== undefined && { lastError }) };
    },
    async drain() {
      let position = await readPosition();
      let handled = 0;
      while (true) {
        const page = await eventStore.readAll({ after: position, filter, limit: batchSize });
        if (page.length === 0) return handled;
        for (const event of page) await handle(event);
        handled += page.length;
        position = page[page.length - 1]!.position;
        await savePosition(position);
      }
    },
  };
}
