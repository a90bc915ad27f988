import {
  type CatalogCommand,
  type CatalogEvent,
  type CatalogState,
  catalogDecider,
  catalogStream,
  type ImportRow,
} from '../../domain/audit/catalog.decider.ts';
import { levelsDecider, levelsStream } from '../../domain/audit/warning-levels.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import type { AuditMetadata } from './metadata.cache.ts';

/** What changed: the metadata after the command, and whether it was a retry of an earlier one. */
export type CatalogResult = { state: CatalogState; events: CatalogEvent[]; replayed: boolean };

type Without<C> = C extends unknown ? Omit<C, 'now'> : never;
export type CatalogInput = Without<CatalogCommand>;

export type CatalogCommands = ReturnType<typeof createCatalogCommands>;

/**
 * Metadata changes (modules, transactions, imports, warning levels): the command handler over the catalog
 * stream of the context's tenant (or the platform's levels), the result handed to the in-memory metadata so
 * the next write sees it. `commandId` is the request's Idempotency-Key or a fresh id.
 */
export function createCatalogCommands(deps: {
  eventStore: EventStore;
  clock: Clock;
  metadata: Pick<AuditMetadata, 'remember'>;
}) {
  const { eventStore, clock, metadata } = deps;
  const catalog = commandHandler(eventStore, catalogDecider);
  const levels = commandHandler(eventStore, levelsDecider);
  const now = () => clock.now().toISOString();

  return {
    async run(input: CatalogInput, ctx: CommandContext, commandId: string): Promise<CatalogResult> {
      const at = now();
      const stream = catalogStream(ctx.tenant);
      const result = await catalog({
        stream,
        command: { ...input, now: at } as CatalogCommand,
        commandId,
        now: at,
        context: ctx,
      });
      metadata.remember(stream, { state: result.state, revision: result.revision });
      return { state: result.state, events: result.events as unknown as CatalogEvent[], replayed: result.replayed };
    },

    import(rows: ImportRow[], ctx: CommandContext, commandId: string) {
      return this.run({ type: 'ImportMetadata', rows }, ctx, commandId);
    },

    async createLevel(name: string, description: string | undefined, ctx: CommandContext, commandId: string) {
      const at = now();
      const stream = levelsStream();
      const result = await levels({
        stream,
        command: { type: 'CreateLevel', name, ...(description !== undefined && { description }), now: at },
        commandId,
        now: at,
        context: ctx,
      });
      metadata.remember(stream, { state: result.state, revision: result.revision });
      return result.state.levels[name]!;
    },
  };
}
