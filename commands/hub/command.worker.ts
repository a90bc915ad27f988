import type { Clock } from '../../infra/core/clock.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';
import { type HubSettings, SETTING } from './hub.contracts.ts';
import { holdDueItem, hubEnabledValue } from './hub-switch.ts';
import type { TccCommands } from './tcc.commands.ts';

/**
 * The command worker (spec "Recovery properties": `comm-hub.command-worker.enabled` true,
 * `interval-ms` 5000, `stale-interval-ms` 60000) on the core's work engine: it claims READY TCC commands
 * (the `hub.tcc` due items) with a lease of `stale-interval-ms` and materializes them. A worker that dies
 * holding a claim loses it when the lease runs out, and the next claim (a higher lease number: the fence)
 * recovers the command; the dead worker's late completion is refused by the fence. An idle worker looks
 * every `interval-ms`; a confirmation wakes it at once (the log reader wakes the engines after each page).
 * `enabled` is read per command from the tenant's configuration (then the platform's, then the process
 * default): disabled, the command stays READY and is looked at again after the lease.
 */
export type CommandDueItem = DueItem & { stream: string; tenant: string };

export const COMMAND_WORKER_NAME = 'hub.command-worker';

export function createCommandWorker(deps: {
  items: () => Promise<Collection<CommandDueItem>>;
  clock: Clock;
  tcc: Pick<TccCommands, 'materialize'>;
  settings: HubSettings;
  intervalMs: number;
  staleIntervalMs: number;
  owner?: string;
  log?: WorkEngineLog;
}): WorkEngine {
  return createWorkEngine<CommandDueItem>({
    name: COMMAND_WORKER_NAME,
    items: deps.items,
    clock: deps.clock,
    leaseMs: deps.staleIntervalMs,
    pollMs: deps.intervalMs,
    concurrency: 4,
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(item) {
      if (!hubEnabledValue(await deps.settings.get(item.tenant, SETTING.commandWorkerEnabled))) return;
      // `comm-hub.enabled` off for the tenant: the command stays READY and is looked at again shortly
      if (!hubEnabledValue(await deps.settings.get(item.tenant, SETTING.enabled)))
        return holdDueItem(await deps.items(), item, deps.clock);
      await deps.tcc.materialize(item.stream, item.leases ?? 1, item.leaseOwner ?? COMMAND_WORKER_NAME);
    },
  });
}
