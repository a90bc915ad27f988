import { CHANNEL_CATEGORY, CONTEXT_CATEGORY, TEMPLATE_CATEGORY, channelDecider, contextDecider, templateDecider } from '../../domain/hub/config.deciders.ts';
import { DEFINITION_CATEGORY, definitionDecider } from '../../domain/hub/definition.decider.ts';
import { DELIVERY_SERVICE_CATEGORY, deliveryServiceDecider } from '../../domain/hub/delivery-service.decider.ts';
import { NOTIFICATION_CATEGORY, notificationDecider } from '../../domain/hub/notification.decider.ts';
import { SNAPSHOT_CATEGORY, snapshotDecider } from '../../domain/hub/snapshot.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { configProjection } from '../../projections/hub/config.projection.ts';
import { dispatchProjection } from '../../projections/hub/dispatch.projection.ts';
import { snapshotsProjection } from '../../projections/hub/snapshots.projection.ts';
import { deciderEntry as entry, type DeciderRegistry, type ServiceModule } from '../platform-service.ts';

/** The hub's projections (free of HTTP imports: the CLI loads them). */
export const hubProjections = (): Projection[] => [configProjection, dispatchProjection, snapshotsProjection];

/** The hub's deciders by stream category (`platform replay --state`). */
export const hubDeciders = (): DeciderRegistry => ({
  [NOTIFICATION_CATEGORY]: entry(notificationDecider),
  [SNAPSHOT_CATEGORY]: entry(snapshotDecider),
  [CHANNEL_CATEGORY]: entry(channelDecider),
  [TEMPLATE_CATEGORY]: entry(templateDecider),
  [CONTEXT_CATEGORY]: entry(contextDecider),
  [DELIVERY_SERVICE_CATEGORY]: entry(deliveryServiceDecider),
  [DEFINITION_CATEGORY]: entry(definitionDecider),
});

/** The notification hub as one entry of the platform's service list. */
export const hubModule: ServiceModule = {
  name: 'hub',
  projections: hubProjections,
  deciders: hubDeciders,
  async create(deps) {
    const { createHubService } = await import('./hub.service.ts');
    return createHubService(deps);
  },
};
