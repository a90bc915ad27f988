import { type WorkKind, workAfter } from '../../domain/hub/message-work.ts';
import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import { NOTIFICATION_EVENT_TYPES, type NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';

/**
 * `hub.sweep`: what the recovery sweeps scan (commands/hub/sweeps.ts). `open`: one document per message
 * with automatic work (the same answer as hub.dispatch's due items, domain/hub/message-work.ts workAfter)
 * and its notification's ExpiresAt; `expiries`: the ExpiresAt of each notification that has one. It is a
 * projection of its own, with its own checkpoint and parking, so that what makes hub.dispatch miss an
 * item (a parked event, an item removed by hand) does not hide the work from the sweeps; the sweeps then
 * check each candidate against the dispatch's due items and the stream.
 */
export const SWEEP_PROJECTION = 'hub.sweep';

export type OpenWorkDoc = Doc & {
  id: string;
  stream: string;
  tenant: string;
  kind: WorkKind;
  at: string;
  expiresAt?: string;
};
type ExpiryDoc = Doc & { id: string; expiresAt: string };

export const sweepProjection: Projection = {
  name: SWEEP_PROJECTION,
  version: 1,
  categories: [NOTIFICATION_CATEGORY],
  eventTypes: [...NOTIFICATION_EVENT_TYPES],
  collections: {
    open: {
      indexes: [
        { name: 'by_kind_at', fields: { kind: 1, at: 1 } },
        { name: 'by_expiry', fields: { expiresAt: 1 } },
      ],
    },
    expiries: {},
  },
  async apply(events, store) {
    const open = store.collection<OpenWorkDoc>('open');
    const expiries = store.collection<ExpiryDoc>('expiries');
    // each notification's ExpiresAt as this page knows it (its acceptance, or read once per page)
    const known = new Map<string, string | undefined>();
    const expiresAtOf = async (stream: string) => {
      if (!known.has(stream)) known.set(stream, (await expiries.get(stream))?.expiresAt);
      return known.get(stream);
    };
    for (const recorded of events) {
      const e = recorded as unknown as NotificationEvent;
      if (e.type === 'NotificationAccepted') {
        known.set(recorded.stream, e.data.Notification.ExpiresAt);
        if (e.data.Notification.ExpiresAt !== undefined)
          await expiries.upsert({ id: recorded.stream, expiresAt: e.data.Notification.ExpiresAt });
      }
      // housekeeping removed the (completed) notification from the read side (docs/hub.md#housekeeping)
      if (e.type === 'NotificationHousekept') {
        await expiries.delete(recorded.stream);
        known.set(recorded.stream, undefined);
        await open.deleteMany({ stream: recorded.stream });
      }
      for (const { messageId, work } of workAfter(e)) {
        if (work === null) {
          await open.delete(messageId);
          continue;
        }
        const expiresAt = await expiresAtOf(recorded.stream);
        await open.upsert({
          id: messageId,
          stream: recorded.stream,
          tenant: recorded.metadata.tenant,
          kind: work.kind,
          at: work.at,
          ...(expiresAt !== undefined && { expiresAt }),
        });
      }
    }
  },
};
