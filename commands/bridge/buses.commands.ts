import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { type BusEvent, type BusRef, busDecider, busStream } from '../../domain/bridge/bus.decider.ts';
import { eventSourceDecider, eventSourceStream, type SourceEvent } from '../../domain/bridge/event-source.decider.ts';
import { type Bus, type BusKind, type EventSource, PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { createStreamCache } from '../core/stream-cache.ts';

/**
 * Buses: what the publisher and the admin API need. Lookups read the aggregate streams (consistent: a bus
 * created a moment ago takes events at once, a deleted one none), through a stream cache that only reads
 * the events after those it already folded; listings come from the catalog projection.
 */
export type BusLookup = {
  /** the bus if it exists and is not deleted */
  getBus(tenant: string, name: string): Promise<Bus | null>;
  /** the source registered on a bus, or null */
  getSource(busTenant: string, bus: string, source: string): Promise<EventSource | null>;
  /** whether `source` is registered as a platform event source on some platform bus */
  isPlatformSource(source: string): Promise<boolean>;
};

export type BusLookupDeps = {
  eventStore: EventStore;
  /**
   * Platform sources by name, across the platform buses: answered by the catalog projection
   * (projections/bridge/catalog.projection.ts), injected here because commands/ does not read projections.
   */
  platformSourceNamed(source: string): Promise<boolean>;
};

export function createBusLookup({ eventStore, platformSourceNamed }: BusLookupDeps): BusLookup {
  const buses = createStreamCache<BusEvent, ReturnType<typeof busDecider.initialState>>(eventStore, busDecider);
  const sources = createStreamCache<SourceEvent, ReturnType<typeof eventSourceDecider.initialState>>(
    eventStore,
    eventSourceDecider,
  );
  return {
    async getBus(tenant, name) {
      const { state } = await buses.load(busStream(tenant, name));
      return state.status === 'active' ? state.bus : null;
    },
    async getSource(busTenant, bus, source) {
      const { state } = await sources.load(eventSourceStream(busTenant, bus, source));
      return state.status === 'registered' ? state.source : null;
    },
    isPlatformSource: platformSourceNamed,
  };
}

/** A custom bus is the acting tenant's; a platform or baseline bus is the platform's. */
export type CreateBusInput = { name: string; kind: BusKind; description?: string };

export type BusCommands = ReturnType<typeof createBusCommands>;

/**
 * Create and delete buses. `ctx.tenant` is the acting tenant (the token's); the events are the bus owner's,
 * who may be another (the platform's buses, another tenant's for platform administrators).
 */
export function createBusCommands({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, busDecider);
  const now = () => clock.now().toISOString();

  return {
    async createBus(
      input: CreateBusInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ bus: Bus; created: boolean }> {
      const tenant = input.kind === 'custom' ? ctx.tenant : PLATFORM_TENANT;
      const result = await handle({
        stream: busStream(tenant, input.name),
        command: {
          type: 'CreateBus',
          name: input.name,
          kind: input.kind,
          tenant,
          ...(input.description !== undefined && { description: input.description }),
          actorTenant: ctx.tenant,
          now: now(),
        },
        commandId,
        now: now(),
        context: forTenant(ctx, tenant),
      });
      if (result.state.status !== 'active') throw new Error('bus not active after CreateBus');
      return { bus: result.state.bus, created: !result.replayed };
    },

    async deleteBus(bus: BusRef, ctx: CommandContext, commandId: string): Promise<void> {
      await handle({
        stream: busStream(bus.tenant, bus.name),
        command: { type: 'DeleteBus', actorTenant: ctx.tenant, now: now() },
        commandId,
        now: now(),
        context: forTenant(ctx, bus.tenant),
      });
    },
  };
}

/** The bus's state as folded from its stream, for the admin API's 404s (deleted buses are not found). */
export async function requireBus(lookup: Pick<BusLookup, 'getBus'>, tenant: string, name: string): Promise<Bus> {
  const bus = await lookup.getBus(tenant, name);
  if (bus === null) throw bridgeError('BUS.NOT_FOUND', `no bus ${name}`, { bus: name });
  return bus;
}
