import { fold } from '../../../domain/core/decider.ts';
import type { DomainEvent } from '../../../domain/core/event.ts';
import {
  type GrantCommand,
  type GrantEvent,
  type GrantState,
  grantDecider,
  grantStream,
} from '../../../domain/identity/grant.decider.ts';
import type { Clock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { type CommandResult, commandHandler } from '../../core/command-handler.ts';
import { newCommandId } from '../../core/event-id.ts';

/**
 * Commands on grant streams (`grant-platform.<grantId>`) and their reading, shared by the grants that keep
 * one (authorization_code, password, refresh_token) and by revocation. Every event a command appends is
 * shown to `onEvents` (the revocation list of this process learns a revocation at once).
 */
export type GrantHandler = {
  load(grantId: string): Promise<GrantState>;
  run(
    grantId: string,
    command: GrantCommand,
    commandId: string,
    tenant: string,
    actor?: string,
  ): Promise<CommandResult<DomainEvent, GrantState>>;
  revokeGrant(
    grantId: string,
    reason: string,
    tenant: string,
    evenIfNotStarted?: boolean,
  ): Promise<CommandResult<DomainEvent, GrantState>>;
};

export function createGrantHandler(deps: {
  eventStore: EventStore;
  clock: Clock;
  onEvents(events: DomainEvent[]): void;
}): GrantHandler {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, grantDecider);

  const load = async (grantId: string): Promise<GrantState> =>
    fold(grantDecider, (await eventStore.readStream(grantStream(grantId))) as unknown as GrantEvent[]);

  async function run(grantId: string, command: GrantCommand, commandId: string, tenant: string, actor?: string) {
    const result = await handle({
      stream: grantStream(grantId),
      command,
      commandId,
      now: clock.now().toISOString(),
      context: { tenant, ...(actor !== undefined && { actor }) },
    });
    deps.onEvents(result.events);
    return result;
  }

  return {
    load,
    run,
    revokeGrant: (grantId, reason, tenant, evenIfNotStarted = false) =>
      run(
        grantId,
        { type: 'RevokeGrant', data: { grantId, reason, now: clock.now().toISOString(), evenIfNotStarted } },
        newCommandId(),
        tenant,
      ),
  };
}
