import type { RecordedEvent } from '../../domain/core/event.ts';
import type { TenantCreated } from '../../domain/identity/tenant.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';
import { isPermanentRegistrationError, type TenantMachineClient } from './tenant-machine-client.ts';

/**
 * Every tenant gets the machine client (tenant-machine-client.ts) once it exists: the seeded ones at first
 * start, each one created later through the admin API, and on a store that predates the client every
 * tenant already there (a new reactor starts at the log's beginning). Registration is idempotent, so a
 * redelivered TenantCreated changes nothing. A refusal retrying cannot cure (the machine user's username
 * taken) is logged and skipped: that tenant's service then has no token until one is configured.
 */
export function createTenantMachineClientReactor(deps: {
  name: string;
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  machineClient: TenantMachineClient;
  log?: ReactorLog;
}): Reactor {
  return createReactor({
    name: deps.name,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: ['tenant'], eventTypes: ['TenantCreated'] },
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(event: RecordedEvent) {
      const tenant = (event as unknown as TenantCreated).data.code;
      try {
        await deps.machineClient.ensure(tenant);
      } catch (err) {
        if (!isPermanentRegistrationError(err)) throw err;
        deps.log?.warn(
          {
            tenant,
            clientId: deps.machineClient.clientId(tenant),
            err: err instanceof Error ? err.message : String(err),
          },
          'machine client not registered',
        );
      }
    },
  });
}
