import { CACHE_BUCKET_CATEGORY, cacheBucketDecider } from '../../domain/hub/cache-bucket.decider.ts';
import {
  CHANNEL_CATEGORY,
  CONTEXT_CATEGORY,
  channelDecider,
  contextDecider,
  TEMPLATE_CATEGORY,
  templateDecider,
} from '../../domain/hub/config.deciders.ts';
import { DEFINITION_CATEGORY, definitionDecider } from '../../domain/hub/definition.decider.ts';
import { DELIVERY_SERVICE_CATEGORY, deliveryServiceDecider } from '../../domain/hub/delivery-service.decider.ts';
import { FREQUENCY_CAPS_CATEGORY, frequencyCapDecider } from '../../domain/hub/frequency-cap.decider.ts';
import { QUOTA_CATEGORY, quotaDecider } from '../../domain/hub/frequency-quota.decider.ts';
import { IMPORT_LOCK_CATEGORY, importLockDecider } from '../../domain/hub/import-lock.decider.ts';
import { INTERACTION_CATEGORY, interactionDecider } from '../../domain/hub/interaction.decider.ts';
import { NOTIFICATION_CATEGORY, notificationDecider } from '../../domain/hub/notification.decider.ts';
import { PREFERENCE_CATEGORY, preferenceDecider } from '../../domain/hub/preference.decider.ts';
import { QUIET_HOURS_CATEGORY, quietHoursDecider } from '../../domain/hub/quiet-hours.ts';
import { SNAPSHOT_CATEGORY, snapshotDecider } from '../../domain/hub/snapshot.ts';
import { TCC_CATEGORY, tccDecider } from '../../domain/hub/tcc.decider.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { alertsProjection } from '../../projections/hub/alerts.projection.ts';
import { configProjection } from '../../projections/hub/config.projection.ts';
import { customerProjection } from '../../projections/hub/customer.projection.ts';
import { dispatchProjection } from '../../projections/hub/dispatch.projection.ts';
import { snapshotsProjection } from '../../projections/hub/snapshots.projection.ts';
import { sweepProjection } from '../../projections/hub/sweep.projection.ts';
import { tccProjection } from '../../projections/hub/tcc.projection.ts';
import { type DeciderRegistry, deciderEntry as entry, type ServiceModule } from '../platform-service.ts';

/** The hub's projections (free of HTTP imports: the CLI loads them). */
export const hubProjections = (): Projection[] => [
  configProjection,
  dispatchProjection,
  snapshotsProjection,
  tccProjection,
  alertsProjection,
  sweepProjection,
  customerProjection,
];

/** The hub's deciders by stream category (`platform replay --state`). */
export const hubDeciders = (): DeciderRegistry => ({
  [NOTIFICATION_CATEGORY]: entry(notificationDecider),
  [SNAPSHOT_CATEGORY]: entry(snapshotDecider),
  [TCC_CATEGORY]: entry(tccDecider),
  [CHANNEL_CATEGORY]: entry(channelDecider),
  [TEMPLATE_CATEGORY]: entry(templateDecider),
  [CONTEXT_CATEGORY]: entry(contextDecider),
  [DELIVERY_SERVICE_CATEGORY]: entry(deliveryServiceDecider),
  [DEFINITION_CATEGORY]: entry(definitionDecider),
  [PREFERENCE_CATEGORY]: entry(preferenceDecider),
  [INTERACTION_CATEGORY]: entry(interactionDecider),
  [FREQUENCY_CAPS_CATEGORY]: entry(frequencyCapDecider),
  [QUOTA_CATEGORY]: entry(quotaDecider),
  [QUIET_HOURS_CATEGORY]: entry(quietHoursDecider),
  [CACHE_BUCKET_CATEGORY]: entry(cacheBucketDecider),
  [IMPORT_LOCK_CATEGORY]: entry(importLockDecider),
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
