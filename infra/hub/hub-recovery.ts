import { createBusLookup } from '../../commands/bridge/buses.commands.ts';
import { createPublisher } from '../../commands/bridge/publish.commands.ts';
import { createSchemaValidator } from '../../commands/bridge/schemas.commands.ts';
import type { WorkEngine } from '../../commands/core/work-engine.ts';
import {
  ALERT_PUBLICATIONS,
  type AlertBus,
  type AlertDueItem,
  type AlertPublication,
  createAlertPublisher,
} from '../../commands/hub/alert.publisher.ts';
import { type CommandDueItem, createCommandWorker } from '../../commands/hub/command.worker.ts';
import type { DispatchProcess } from '../../commands/hub/dispatch.process.ts';
import type { HubSettings } from '../../commands/hub/hub.contracts.ts';
import type { Sender } from '../../commands/hub/send.commands.ts';
import {
  createSweeps,
  type RepairItem,
  SWEEP_REPAIRS,
  SWEEP_RUNS,
  type SweepRunDoc,
} from '../../commands/hub/sweeps.ts';
import { createTccCommands } from '../../commands/hub/tcc.commands.ts';
import { dueIndex } from '../../domain/core/due-index.ts';
import { createCatalogQueries } from '../../projections/bridge/catalog.projection.ts';
import { liveCollection } from '../../projections/core/writable-model.ts';
import { ALERTS_PROJECTION } from '../../projections/hub/alerts.projection.ts';
import { DISPATCH_PROJECTION } from '../../projections/hub/dispatch.projection.ts';
import { SWEEP_PROJECTION } from '../../projections/hub/sweep.projection.ts';
import { TCC_PROJECTION } from '../../projections/hub/tcc.projection.ts';
import type { Collection, Doc, ReadStore } from '../core/read-store.port.ts';
import type { ServiceDeps } from '../platform-service.ts';
import type { HubConfig } from './hub.config.ts';

/**
 * The hub's recovery machinery, composed (docs/hub.md#tcc, docs/hub.md#sweeps-and-the-command-worker,
 * docs/hub.md#dead-letter-alerts): TCC commands and the command worker, the dead-letter alert outbox
 * publishing into the event bridge in process (the bridge's own putEvent over the shared log: wherever the
 * bridge's router runs, it routes the event), and the sweeps. Every engine here runs where workers run.
 */
export function createHubRecovery(o: {
  deps: ServiceDeps;
  hub: HubConfig;
  settings: HubSettings;
  sender: Sender;
  dispatch: DispatchProcess;
  log: ServiceDeps['log'];
  /** tests: where alerts go (default: the bridge's putEvent) */
  alertBus?: AlertBus;
}) {
  const { eventStore, readStore, clock } = o.deps;
  const tcc = createTccCommands({ eventStore, clock, sender: o.sender });
  const commandWorker = createCommandWorker({
    items: liveCollection<CommandDueItem>(readStore, TCC_PROJECTION, 'due'),
    clock,
    tcc,
    settings: o.settings,
    intervalMs: o.hub.commandWorkerIntervalMs,
    staleIntervalMs: o.hub.commandWorkerStaleIntervalMs,
    log: o.log.child({ worker: 'hub.command-worker' }),
  });

  const publications = hubCollection<AlertPublication>(readStore, ALERT_PUBLICATIONS);
  const alertOutbox = liveCollection<AlertDueItem>(readStore, ALERTS_PROJECTION, 'outbox');
  const alerts = createAlertPublisher({
    eventStore,
    clock,
    bus: o.alertBus ?? bridgeAlertBus(o.deps),
    items: alertOutbox,
    publications,
    pollMs: o.hub.dispatchPollMs,
    log: o.log.child({ worker: 'hub.alert-publisher' }),
  });

  const sweeps = createSweeps({
    eventStore,
    clock,
    settings: o.settings,
    open: liveCollection(readStore, SWEEP_PROJECTION, 'open'),
    dispatchDue: liveCollection(readStore, DISPATCH_PROJECTION, 'due'),
    alertOutbox,
    publications,
    wakeAlerts: () => alerts.wake(),
    runs: hubCollection<SweepRunDoc>(readStore, SWEEP_RUNS),
    repairs: hubCollection<RepairItem>(readStore, SWEEP_REPAIRS),
    advance: (stream, messageId) => o.dispatch.advance(stream, messageId),
    enabledByDefault: o.hub.sweepEnabled,
    pollMs: Math.max(o.hub.dispatchPollMs, 200),
    log: o.log.child({ worker: 'hub.sweeps' }),
  });
  const engines: WorkEngine[] = [commandWorker, alerts, sweeps.engine];
  return { tcc, engines, alerts, sweeps, commandWorker };
}

/** a collection of the hub's own (not a projection's), created with its due-time index on first use */
export function hubCollection<T extends Doc>(readStore: ReadStore, name: string): () => Promise<Collection<T>> {
  let ready: Promise<void> | undefined;
  return async () => {
    ready ??= readStore.ensureCollection(name, { indexes: [dueIndex()] }).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    await ready;
    return readStore.collection<T>(name);
  };
}

/** putEvent of the event bridge, in process: the platform event source `commhub:alert` on behalf of the tenant */
function bridgeAlertBus(deps: ServiceDeps): AlertBus {
  const { eventStore, readStore, clock } = deps;
  const catalog = createCatalogQueries(readStore, eventStore);
  const publisher = createPublisher({
    eventStore,
    clock,
    buses: createBusLookup({ eventStore, platformSourceNamed: (s) => catalog.isPlatformSource(s) }),
    schemaValidator: createSchemaValidator({ eventStore }),
  });
  return {
    async publish(tenant, event, commandId, trace) {
      const r = await publisher.publish(
        event,
        { tenant, subject: 'system:comm-hub', clientId: 'comm-hub' },
        trace,
        commandId,
      );
      return { eventId: r.eventId, duplicate: r.duplicate };
    },
  };
}
