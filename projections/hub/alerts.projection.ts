import { dueIndex } from '../../domain/core/due-index.ts';
import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Projection } from '../core/projection.ts';
import type { HubDueDoc } from './dispatch.projection.ts';

/**
 * `hub.alerts`: the dead-letter alert outbox (commands/hub/alert.publisher.ts): one due item per
 * `AlertRaised`, keyed by the event's id, written with the projection's checkpoint so an alert recorded in
 * the log is never left without a publication attempt. The publisher deletes the item once the bridge took
 * the event; a rebuild writes the items again and the bridge's duplicate rule absorbs the repeats.
 */
export const ALERTS_PROJECTION = 'hub.alerts';

export const alertsProjection: Projection = {
  name: ALERTS_PROJECTION,
  version: 1,
  categories: [NOTIFICATION_CATEGORY],
  // NotificationHousekept: housekeeping removed the notification from the read side (docs/hub.md#housekeeping)
  eventTypes: ['AlertRaised', 'NotificationHousekept'],
  collections: { outbox: { indexes: [dueIndex()] } },
  async apply(events, store) {
    const outbox = store.collection<HubDueDoc & { messageId: string }>('outbox');
    for (const recorded of events) {
      const e = recorded as unknown as NotificationEvent;
      if (e.type === 'NotificationHousekept') {
        await outbox.deleteMany({ stream: recorded.stream });
        continue;
      }
      if (e.type !== 'AlertRaised') continue;
      await outbox.upsert({
        id: recorded.id,
        stream: recorded.stream,
        tenant: recorded.metadata.tenant,
        kind: 'alert',
        messageId: e.data.MessageId,
        dueAt: e.data.At,
        leaseUntil: '',
      });
    }
  },
};
