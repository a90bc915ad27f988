import {
  type RetentionEvent,
  type RetentionState,
  retentionCutoff,
  retentionDecider,
  retentionStream,
} from '../../domain/audit/retention.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';

/** the due item of a tenant's daily retention run (projections/audit/retention.projection.ts) */
export type RetentionDueItem = DueItem & { tenant: string; days: number };

export type RetentionCommands = ReturnType<typeof createRetentionCommands>;

/** A tenant's retention setting (GET/PUT `retention`). */
export function createRetentionCommands(deps: { eventStore: EventStore; clock: Clock }) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, retentionDecider);
  return {
    async get(tenant: string): Promise<RetentionState> {
      return fold(
        retentionDecider,
        (await eventStore.readStream(retentionStream(tenant))) as unknown as RetentionEvent[],
      );
    },
    async set(days: number | null, ctx: CommandContext, commandId: string): Promise<RetentionState> {
      const now = clock.now().toISOString();
      const result = await handle({
        stream: retentionStream(ctx.tenant),
        command: { type: 'SetRetention', days, now },
        commandId,
        now,
        context: ctx,
      });
      return result.state;
    },
  };
}

/**
 * The daily retention job on the work engine: for a tenant's due item, the records older than `days` are
 * found in the query store (they are a prefix of the chain: time never goes back along it) and a
 * `RetentionApplied` with the last of them is appended; the records projection then removes them, and the
 * retention projection moves the item to the next day. The command id is the item's due time, so a run
 * repeated after a crash appends nothing twice.
 */
export function createRetentionWorker(deps: {
  eventStore: EventStore;
  clock: Clock;
  items: () => Promise<Collection<RetentionDueItem>>;
  /** the last sequence of the tenant's records (in the query store) whose time is before `cutoff`; 0: none */
  lastSequenceBefore(tenant: string, cutoff: string): Promise<number>;
  pollMs?: number;
  log?: WorkEngineLog;
}): WorkEngine {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, retentionDecider);
  return createWorkEngine<RetentionDueItem>({
    name: 'audit.retention',
    items: deps.items,
    clock,
    concurrency: 1,
    pollMs: deps.pollMs ?? 60_000,
    leaseMs: 10 * 60_000,
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(item) {
      // the setting as it is now (the item may predate a change)
      const days = fold(
        retentionDecider,
        (await eventStore.readStream(retentionStream(item.tenant))) as unknown as RetentionEvent[],
      ).days;
      if (days === null) return; // cleared: the projection removes the item
      const now = clock.now();
      const cutoff = retentionCutoff(now, days);
      const through = await deps.lastSequenceBefore(item.tenant, cutoff);
      const at = now.toISOString();
      const context: CommandContext = { tenant: item.tenant, actor: 'audit.retention' };
      await handle({
        stream: retentionStream(item.tenant),
        command: { type: 'ApplyRetention', cutoff, through_sequence: through, now: at },
        commandId: `audit.retention/${item.tenant}/${item.dueAt}`,
        now: at,
        context,
      });
    },
  });
}
