import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';

export const PORTAL_CLIENTS_REACTOR = 'portal-clients';

/**
 * Every tenant gets its portal client when it is created (and, from position 0, every tenant of a store
 * that had none yet): the client is then listed in the tenant's SSO applications before anyone signs in.
 * The sign-in ensures it too, so a process without workers needs no reactor to run.
 */
export function createPortalClientsReactor(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  ensure(tenant: string): Promise<unknown>;
  log?: ReactorLog;
}): Reactor {
  return createReactor({
    name: PORTAL_CLIENTS_REACTOR,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: ['tenant'], eventTypes: ['TenantCreated'] },
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(event) {
      const code = (event.data as { code?: unknown }).code;
      if (typeof code === 'string') await deps.ensure(code);
    },
  });
}
