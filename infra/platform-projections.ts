import { catalogProjection } from '../projections/bridge/catalog.projection.ts';
import { configProjection } from '../projections/bridge/config.projection.ts';
import { rulesProjection } from '../projections/bridge/rules.projection.ts';
import { schemasProjection } from '../projections/bridge/schemas.projection.ts';
import { traceProjection } from '../projections/bridge/trace.projection.ts';
import type { Projection } from '../projections/core/projection.ts';
import { streamsProjection } from '../projections/core/streams.projection.ts';
import { identityDirectoryProjections } from '../projections/identity/directory.projection.ts';
import { revocationsProjection } from '../projections/identity/revocations.projection.ts';

/** Every projection the platform runs. Services add theirs here as they arrive. */
export const platformProjections = (): Projection[] => [
  streamsProjection,
  ...identityDirectoryProjections(),
  revocationsProjection,
  // event bridge (the same list as infra/bridge/bridge.service.ts bridgeProjections, kept free of HTTP imports for the CLI)
  catalogProjection,
  rulesProjection,
  configProjection,
  schemasProjection,
  traceProjection,
];
