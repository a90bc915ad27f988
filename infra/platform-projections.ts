import { bridgeProjections } from './bridge/bridge-projections.ts';
import type { Projection } from '../projections/core/projection.ts';
import { streamsProjection } from '../projections/core/streams.projection.ts';
import { identityDirectoryProjections } from '../projections/identity/directory.projection.ts';
import { revocationsProjection } from '../projections/identity/revocations.projection.ts';

/** Every projection the platform runs. Services add theirs here as they arrive. */
export const platformProjections = (): Projection[] => [
  streamsProjection,
  ...identityDirectoryProjections(),
  revocationsProjection,
  ...bridgeProjections(),
];
