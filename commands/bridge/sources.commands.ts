import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { eventSourceDecider, eventSourceStream } from '../../domain/bridge/event-source.decider.ts';
import type { EventSource, SourceKind } from '../../domain/bridge/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { type BusLookup, requireBus } from './buses.commands.ts';

export type RegisterSourceInput = {
  /** the bus's owner and name, already resolved */
  busTenant: string;
  bus: string;
  name: string;
  kind: SourceKind;
  eventTypes: string[];
  schemaId?: string;
};

export type SourceCommandsDeps = {
  eventStore: EventStore;
  clock: Clock;
  buses: Pick<BusLookup, 'getBus'>;
  /**
   * Whether a schema id names a schema the bus owner can see (its own or the platform's). Absent: not
   * checked (the seed registers the platform sources together with their schemas).
   */
  schemaExists?: (tenant: string, schemaId: string) => Promise<boolean>;
};

export type SourceCommands = ReturnType<typeof createSourceCommands>;

/** Registering event sources on buses. `ctx.tenant` is the acting tenant (the token's); the events are the bus owner's. */
export function createSourceCommands({ eventStore, clock, buses, schemaExists }: SourceCommandsDeps) {
  const handle = commandHandler(eventStore, eventSourceDecider);
  return {
    async registerSource(
      input: RegisterSourceInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ source: EventSource; changed: boolean }> {
      const bus = await requireBus(buses, input.busTenant, input.bus);
      if (
        input.schemaId !== undefined &&
        schemaExists !== undefined &&
        !(await schemaExists(bus.tenant, input.schemaId))
      ) {
        throw bridgeError('SCHEMA.UNKNOWN', `no schema ${input.schemaId} in the registry`, [
          { field: 'schemaId', message: 'names no schema in the registry' },
        ]);
      }
      const now = clock.now().toISOString();
      const result = await handle({
        stream: eventSourceStream(bus.tenant, bus.name, input.name),
        command: {
          type: 'RegisterSource',
          bus,
          name: input.name,
          kind: input.kind,
          eventTypes: input.eventTypes,
          ...(input.schemaId !== undefined && { schemaId: input.schemaId }),
          actorTenant: ctx.tenant,
          now,
        },
        commandId,
        now,
        context: forTenant(ctx, bus.tenant),
      });
      if (result.state.status !== 'registered') throw new Error('source not registered after RegisterSource');
      return { source: result.state.source, changed: result.events.length > 0 && !result.replayed };
    },
  };
}
