import { dueIndex } from '../../domain/core/due-index.ts';
import { workAfter } from '../../domain/hub/message-work.ts';
import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import { NOTIFICATION_EVENT_TYPES, type NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';

/**
 * `hub.dispatch`: the hub's due work (commands/core/work-engine.ts DueItem), written in the projection
 * group's transaction together with the checkpoint, so an accepted notification's items can neither be
 * lost nor doubled by a crash.
 *
 * `due`: one item per message that has automatic work (domain/hub/message-work.ts: dispatch at DueAt,
 * retry at NextRetryTime, lost-attempt check at the attempt's OutcomeDueBy, receipt deadline), read off
 * each event (workAfter, which the state-table property test holds equal to nextWork of the folded state);
 * no work, no item. Every (re)schedule writes `leaseUntil: ''`; an event that leaves the work as it was
 * keeps the item and its lease. The dispatch worker claims them and acts on the stream's truth.
 */
export const DISPATCH_PROJECTION = 'hub.dispatch';

export type HubDueDoc = Doc & {
  id: string;
  stream: string;
  tenant: string;
  kind: string;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
};

export const dispatchProjection: Projection = {
  name: DISPATCH_PROJECTION,
  version: 2,
  categories: [NOTIFICATION_CATEGORY],
  eventTypes: [...NOTIFICATION_EVENT_TYPES],
  collections: {
    due: { indexes: [dueIndex()] },
  },
  async apply(events, store) {
    const due = store.collection<HubDueDoc>('due');
    for (const recorded of events) {
      // housekeeping removed the (completed) notification from the read side (docs/hub.md#housekeeping):
      // nothing of it stays, whatever earlier events left (a rebuild removes it again)
      if (recorded.type === 'NotificationHousekept') await due.deleteMany({ stream: recorded.stream });
      for (const { messageId, work } of workAfter(recorded as unknown as NotificationEvent)) {
        if (work === null) {
          await due.delete(messageId);
          continue;
        }
        // the acceptance plans the messages: none of them has an item yet (pages apply once, in log order,
        // with the checkpoint), unless it is a parked acceptance applied late (store.late)
        const current = recorded.type === 'NotificationAccepted' && !store.late ? null : await due.get(messageId);
        if (current !== null && current.kind === work.kind && current.dueAt === work.at) continue;
        await due.upsert({
          id: messageId,
          stream: recorded.stream,
          tenant: recorded.metadata.tenant,
          kind: work.kind,
          dueAt: work.at,
          leaseUntil: '',
        });
      }
    }
  },
};
