import { catalogProjection } from '../../projections/bridge/catalog.projection.ts';
import { configProjection } from '../../projections/bridge/config.projection.ts';
import { deliveriesProjection } from '../../projections/bridge/deliveries.projection.ts';
import { integrationsProjection } from '../../projections/bridge/integrations.projection.ts';
import { rulesProjection } from '../../projections/bridge/rules.projection.ts';
import { schemasProjection } from '../../projections/bridge/schemas.projection.ts';
import { servicesProjection } from '../../projections/bridge/services.projection.ts';
import { traceProjection } from '../../projections/bridge/trace.projection.ts';
import { userMessagesProjection } from '../../projections/bridge/user-messages.projection.ts';
import type { Projection } from '../../projections/core/projection.ts';

/** The event bridge's projections (free of HTTP imports: the CLI loads it too). */
export const bridgeProjections = (): Projection[] => [
  catalogProjection,
  rulesProjection,
  configProjection,
  schemasProjection,
  traceProjection,
  deliveriesProjection,
  integrationsProjection,
  userMessagesProjection,
  servicesProjection,
];
