import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../domain/hub/notification.model.ts';
import { SNAPSHOT_CATEGORY, type SnapshotEvent } from '../../domain/hub/snapshot.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `hub.snapshots`: the listings of `/configuration-snapshots/list` (a definition's snapshots, newest
 * first) and `/configuration-snapshots/notifications` (the notifications accepted with a snapshot). The
 * snapshot itself is read from its own immutable stream (`getById`).
 *
 * `uses` holds one document per accepted notification, so it also answers `/notifications/search`
 * (operators finding a notification by code, RequestId, NotificationId, recipient or acceptance time):
 * everything it filters on is fixed at acceptance, so the acceptance alone writes it. A notification's
 * live state is not kept here (it changes with every attempt): the notification's own views read it.
 */
export const SNAPSHOTS_PROJECTION = 'hub.snapshots';

export type SnapshotDoc = Doc & {
  id: string;
  tenant: string;
  SnapshotId: string;
  DefinitionId: string;
  NotificationCode: string;
  Version: number;
  CapturedAt: string;
};
export type SnapshotUseDoc = Doc & {
  id: string;
  tenant: string;
  SnapshotId: string;
  NotificationId: string;
  RequestId: string;
  NotificationCode: string;
  AcceptedAt: string;
  /** the planned messages' recipients' ids (distinct; absent recipients and ids left out) */
  RecipientIds: string[];
};

export type NotificationSearch = {
  NotificationCode?: string;
  RequestId?: string;
  NotificationId?: string;
  RecipientId?: string;
  /** instants (ISO, UTC): AcceptedAt ≥ from, AcceptedAt ≤ to */
  AcceptedFrom?: string;
  AcceptedTo?: string;
};

export const snapshotsProjection: Projection = {
  name: SNAPSHOTS_PROJECTION,
  version: 2,
  categories: [SNAPSHOT_CATEGORY, NOTIFICATION_CATEGORY],
  // NotificationHousekept: housekeeping removed the notification from the read side (docs/hub.md#housekeeping)
  eventTypes: ['SnapshotCaptured', 'NotificationAccepted', 'NotificationHousekept'],
  collections: {
    snapshots: { indexes: [{ name: 'by_definition', fields: { tenant: 1, DefinitionId: 1, CapturedAt: -1 } }] },
    uses: {
      indexes: [
        { name: 'by_snapshot', fields: { tenant: 1, SnapshotId: 1, AcceptedAt: -1 } },
        // the notification search: newest first, narrowed by what it filters on
        { name: 'by_accepted', fields: { tenant: 1, AcceptedAt: -1 } },
        { name: 'by_code', fields: { tenant: 1, NotificationCode: 1, AcceptedAt: -1 } },
        { name: 'by_request', fields: { tenant: 1, RequestId: 1 } },
        { name: 'by_notification', fields: { tenant: 1, NotificationId: 1 } },
        { name: 'by_recipient', fields: { tenant: 1, RecipientIds: 1, AcceptedAt: -1 }, multi: true },
      ],
    },
  },
  async apply(events, store) {
    for (const recorded of events) {
      const tenant = recorded.metadata.tenant;
      const e = recorded as unknown as
        | SnapshotEvent
        | Extract<NotificationEvent, { type: 'NotificationAccepted' | 'NotificationHousekept' }>;
      if (e.type === 'NotificationHousekept') {
        await store.collection<SnapshotUseDoc>('uses').delete(`${tenant}/${e.data.NotificationId}`);
        continue;
      }
      if (e.type === 'SnapshotCaptured') {
        const s = e.data;
        await store.collection<SnapshotDoc>('snapshots').upsert({
          id: `${tenant}/${s.SnapshotId}`,
          tenant,
          SnapshotId: s.SnapshotId,
          DefinitionId: s.DefinitionId,
          NotificationCode: s.NotificationCode,
          Version: s.Version,
          CapturedAt: s.CapturedAt,
        });
      } else {
        const n = e.data.Notification;
        const recipients = e.data.Messages.map((m) => m.Recipient?.RecipientId).filter((r) => r !== undefined);
        await store.collection<SnapshotUseDoc>('uses').upsert({
          id: `${tenant}/${n.NotificationId}`,
          tenant,
          SnapshotId: n.SnapshotId,
          NotificationId: n.NotificationId,
          RequestId: n.RequestId,
          NotificationCode: n.NotificationCode,
          AcceptedAt: n.AcceptedAt,
          RecipientIds: [...new Set(recipients)],
        });
      }
    }
  },
};

export type Page<T> = { Items: T[]; Total: number; PageNo: number; PageSize: number };

export function createSnapshotQueries(readStore: ReadStore) {
  const snapshots = readModel<SnapshotDoc>(readStore, SNAPSHOTS_PROJECTION, 'snapshots');
  const uses = readModel<SnapshotUseDoc>(readStore, SNAPSHOTS_PROJECTION, 'uses');
  const strip = <T extends { id: string; tenant: string }>({ id: _i, tenant: _t, ...rest }: T) => rest;
  return {
    async list(
      tenant: string,
      definitionId: string,
      pageNo: number,
      pageSize: number,
    ): Promise<Page<Omit<SnapshotDoc, 'id' | 'tenant'>>> {
      const filter = { tenant, DefinitionId: definitionId };
      const [items, total] = await Promise.all([
        snapshots.find(filter, { sort: { CapturedAt: -1 }, skip: (pageNo - 1) * pageSize, limit: pageSize }),
        snapshots.count(filter),
      ]);
      return { Items: items.map(strip), Total: total, PageNo: pageNo, PageSize: pageSize };
    },
    async notifications(
      tenant: string,
      snapshotId: string,
      pageNo: number,
      pageSize: number,
    ): Promise<Page<Omit<SnapshotUseDoc, 'id' | 'tenant'>>> {
      const filter = { tenant, SnapshotId: snapshotId };
      const [items, total] = await Promise.all([
        uses.find(filter, { sort: { AcceptedAt: -1 }, skip: (pageNo - 1) * pageSize, limit: pageSize }),
        uses.count(filter),
      ]);
      return { Items: items.map(strip), Total: total, PageNo: pageNo, PageSize: pageSize };
    },
    /** the tenant's notifications matching every given filter, newest first */
    async search(
      tenant: string,
      by: NotificationSearch,
      pageNo: number,
      pageSize: number,
    ): Promise<Page<Omit<SnapshotUseDoc, 'id' | 'tenant'>>> {
      const accepted = {
        ...(by.AcceptedFrom !== undefined && { $gte: by.AcceptedFrom }),
        ...(by.AcceptedTo !== undefined && { $lte: by.AcceptedTo }),
      };
      const filter = {
        tenant,
        ...(by.NotificationCode !== undefined && { NotificationCode: by.NotificationCode }),
        ...(by.RequestId !== undefined && { RequestId: by.RequestId }),
        ...(by.NotificationId !== undefined && { NotificationId: by.NotificationId }),
        ...(by.RecipientId !== undefined && { RecipientIds: by.RecipientId }),
        ...(Object.keys(accepted).length > 0 && { AcceptedAt: accepted }),
      };
      const [items, total] = await Promise.all([
        uses.find(filter, { sort: { AcceptedAt: -1 }, skip: (pageNo - 1) * pageSize, limit: pageSize }),
        uses.count(filter),
      ]);
      return { Items: items.map(strip), Total: total, PageNo: pageNo, PageSize: pageSize };
    },
  };
}

export type SnapshotQueries = ReturnType<typeof createSnapshotQueries>;
