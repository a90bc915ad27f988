import type { Projection } from '../projections/core/projection.ts';
import { streamsProjection } from '../projections/core/streams.projection.ts';
import { auditModule } from './audit/audit.module.ts';
import { bridgeModule } from './bridge/bridge.module.ts';
import { hubModule } from './hub/hub.module.ts';
import { identityModule } from './identity/identity.module.ts';
import { operationsModule } from './operations/operations.module.ts';
import type { DeciderRegistry, ServiceModule } from './platform-service.ts';
import { portalModule } from './portal/portal.module.ts';
import { workflowModule } from './workflow/workflow.module.ts';

/**
 * The platform's services, in build order: the composition root, health, metrics and the CLI loop over
 * this list, so a new service is one entry here. The portal comes first: its router hands `/portal/api/…`
 * on to the routers after it (it needs nothing built before it). Identity comes next: the others verify
 * tokens with it.
 */
export const platformModules = (): ServiceModule[] => [
  portalModule,
  identityModule,
  bridgeModule,
  auditModule,
  workflowModule,
  hubModule,
  operationsModule,
];

/** Every projection the platform runs: the core's stream catalog, then each service's. */
export const platformProjections = (): Projection[] => [
  streamsProjection,
  ...platformModules().flatMap((m) => m.projections()),
];

/** Deciders by stream category, for `platform replay --state`. */
export const platformDeciders = (): DeciderRegistry =>
  Object.assign({}, ...platformModules().map((m) => m.deciders())) as DeciderRegistry;
