import { fold } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import {
  apiDestinationDecider,
  apiDestinationStream,
  DESTINATION_NAME,
  type ApiDestination,
  type ApiDestinationCommand,
  type ApiDestinationEvent,
  type ApiDestinationState,
  type DestinationDefinition,
  type HttpMethodName,
} from '../../domain/bridge/api-destination.decider.ts';
import { CONNECTION_NAME, connectionDecider, connectionStream, type ConnectionEvent } from '../../domain/bridge/connection.decider.ts';
import type { UrlTemplate } from '../../domain/bridge/destination-url.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler, type CommandContext } from '../core/command-handler.ts';

/**
 * API destinations: create, update, delete, read (from the stream: strongly consistent). A destination
 * that names a connection is only recorded when that connection exists (a 400 naming `connection`
 * otherwise); deleting the connection later is refused by the admin API while destinations use it.
 */
export type ApiDestinationView = ApiDestination & { createdAt: string; updatedAt: string; revision: number };

export type ApiDestinationReader = {
  /** null when absent or deleted */
  get(tenant: string, name: string): Promise<ApiDestinationView | null>;
};

export type CreateApiDestinationInput = { tenant: string; name: string } & DestinationDefinition;
export type ApiDestinationChanges = {
  description?: string | null;
  urlTemplate?: UrlTemplate;
  method?: HttpMethodName;
  connection?: string | null;
  timeoutMs?: number | null;
};

const notFound = () => new DomainError('API_DESTINATION.NOT_FOUND', 404, 'no such API destination');

const view = (state: ApiDestinationState, revision: number): ApiDestinationView | null =>
  state.status === 'exists' ? { ...state.destination, createdAt: state.createdAt, updatedAt: state.updatedAt, revision } : null;

async function load(eventStore: EventStore, tenant: string, name: string): Promise<ApiDestinationView | null> {
  if (!DESTINATION_NAME.test(name)) return null;
  const events = await eventStore.readStream(apiDestinationStream(tenant, name));
  return view(fold(apiDestinationDecider, events as unknown as ApiDestinationEvent[]), events.length - 1);
}

export function createApiDestinationReader({ eventStore }: { eventStore: EventStore }): ApiDestinationReader {
  return { get: (tenant, name) => load(eventStore, tenant, name) };
}

export function createApiDestinationCommands({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, apiDestinationDecider);
  const now = () => clock.now().toISOString();

  const requireConnection = async (tenant: string, name: string | null | undefined) => {
    if (name === undefined || name === null || !CONNECTION_NAME.test(name)) return; // absent, or the decider names the bad value
    const events = await eventStore.readStream(connectionStream(tenant, name));
    if (fold(connectionDecider, events as unknown as ConnectionEvent[]).status !== 'exists') {
      throw new DomainError('API_DESTINATION.INVALID', 400, `invalid API destination: connection ${name} does not exist`, [
        { field: 'connection', message: `no connection named ${name}` },
      ]);
    }
  };

  const run = async (tenant: string, name: string, command: ApiDestinationCommand, ctx: CommandContext, commandId: string) => {
    if (!DESTINATION_NAME.test(name)) throw notFound();
    const r = await handle({ stream: apiDestinationStream(tenant, name), command, commandId, now: command.now, context: { ...ctx, tenant } });
    return { destination: view(r.state, r.revision), replayed: r.replayed };
  };

  return {
    async create(input: CreateApiDestinationInput, ctx: CommandContext, commandId: string): Promise<{ destination: ApiDestinationView; created: boolean }> {
      if (!DESTINATION_NAME.test(input.name)) {
        throw new DomainError('API_DESTINATION.INVALID', 400, 'invalid API destination: name must be 1-64 letters, digits, _ or -', [
          { field: 'name', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' },
        ]);
      }
      await requireConnection(input.tenant, input.connection);
      const { destination, replayed } = await run(input.tenant, input.name, { type: 'CreateApiDestination', ...input, now: now() }, ctx, commandId);
      if (destination === null) throw notFound();
      return { destination, created: !replayed };
    },

    async update(tenant: string, name: string, changes: ApiDestinationChanges, ctx: CommandContext, commandId: string): Promise<ApiDestinationView> {
      await requireConnection(tenant, changes.connection);
      const { destination } = await run(tenant, name, { type: 'UpdateApiDestination', changes, now: now() }, ctx, commandId);
      if (destination === null) throw notFound();
      return destination;
    },

    async delete(tenant: string, name: string, ctx: CommandContext, commandId: string): Promise<void> {
      await run(tenant, name, { type: 'DeleteApiDestination', now: now() }, ctx, commandId);
    },

    get: (tenant: string, name: string): Promise<ApiDestinationView | null> => load(eventStore, tenant, name),
  };
}

export type ApiDestinationCommands = ReturnType<typeof createApiDestinationCommands>;
