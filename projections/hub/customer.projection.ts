import {
  INTERACTION_CATEGORY,
  type InteractionEvent,
  type InteractionStatus,
} from '../../domain/hub/interaction.decider.ts';
import { PREFERENCE_CATEGORY, type PreferenceEvent, preferenceId } from '../../domain/hub/preference.decider.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';
import type { Page } from './snapshots.projection.ts';

/**
 * `hub.customer`: the listings of the customer-policy API (docs/hub.md#customer-policies): a recipient's
 * preferences, and interactions by recipient or handling status. The dispatch gate never reads these (it
 * reads the streams: preferences are checked live); a listing may lag a write by a moment.
 */
export const CUSTOMER_PROJECTION = 'hub.customer';

export type PreferenceDoc = Doc & {
  id: string;
  tenant: string;
  RecipientId: string;
  Channel: string;
  NotificationClass: string;
  Decision: string;
  Source: string;
  InteractionId?: string;
  UpdatedAt: string;
};
export type InteractionDoc = Doc & {
  id: string;
  tenant: string;
  InteractionId: string;
  Type: string;
  RecipientId: string;
  Channel: string;
  NotificationClass?: string;
  MessageId?: string;
  Status: InteractionStatus;
  ReceivedAt: string;
  RecordedAt: string;
  HandledAt?: string;
  HandledBy?: string;
};

export const customerProjection: Projection = {
  name: CUSTOMER_PROJECTION,
  version: 1,
  categories: [PREFERENCE_CATEGORY, INTERACTION_CATEGORY],
  eventTypes: ['PreferenceSet', 'PreferenceRemoved', 'InteractionRecorded', 'InteractionHandled'],
  collections: {
    preferences: { indexes: [{ name: 'by_recipient', fields: { tenant: 1, RecipientId: 1 } }] },
    interactions: {
      indexes: [
        { name: 'by_recipient', fields: { tenant: 1, RecipientId: 1, ReceivedAt: -1 } },
        { name: 'by_status', fields: { tenant: 1, Status: 1, ReceivedAt: -1 } },
      ],
    },
  },
  async apply(events, store) {
    const preferences = store.collection<PreferenceDoc>('preferences');
    const interactions = store.collection<InteractionDoc>('interactions');
    for (const recorded of events) {
      const tenant = recorded.metadata.tenant;
      const e = recorded as unknown as PreferenceEvent | InteractionEvent;
      switch (e.type) {
        case 'PreferenceSet':
          await preferences.upsert({ id: `${tenant}/${preferenceId(e.data)}`, tenant, ...e.data });
          break;
        case 'PreferenceRemoved':
          await preferences.delete(`${tenant}/${preferenceId(e.data)}`);
          break;
        case 'InteractionRecorded': {
          const { At, Text: _text, ...rest } = e.data;
          await interactions.upsert({
            id: `${tenant}/${rest.InteractionId}`,
            tenant,
            ...rest,
            Status: 'RECEIVED',
            RecordedAt: At,
          });
          break;
        }
        case 'InteractionHandled':
          await interactions.patch(`${tenant}/${e.data.InteractionId}`, {
            $set: { Status: e.data.Resolution, HandledAt: e.data.At, HandledBy: e.data.By },
          });
          break;
      }
    }
  },
};

const strip = <T extends { id: string; tenant: string }>({ id: _i, tenant: _t, ...rest }: T) => rest;

export function createCustomerQueries(readStore: ReadStore) {
  const preferences = readModel<PreferenceDoc>(readStore, CUSTOMER_PROJECTION, 'preferences');
  const interactions = readModel<InteractionDoc>(readStore, CUSTOMER_PROJECTION, 'interactions');
  return {
    async preferences(tenant: string, recipientId: string): Promise<Array<Omit<PreferenceDoc, 'id' | 'tenant'>>> {
      const items = await preferences.find(
        { tenant, RecipientId: recipientId },
        { sort: { Channel: 1, NotificationClass: 1 }, limit: 1000 },
      );
      return items.map(strip);
    },
    async interactions(
      tenant: string,
      q: { recipientId?: string; status?: InteractionStatus; pageNo: number; pageSize: number },
    ): Promise<Page<Omit<InteractionDoc, 'id' | 'tenant'>>> {
      const filter = {
        tenant,
        ...(q.recipientId !== undefined && { RecipientId: q.recipientId }),
        ...(q.status !== undefined && { Status: q.status }),
      };
      const [items, total] = await Promise.all([
        interactions.find(filter, { sort: { ReceivedAt: -1 }, skip: (q.pageNo - 1) * q.pageSize, limit: q.pageSize }),
        interactions.count(filter),
      ]);
      return { Items: items.map(strip), Total: total, PageNo: q.pageNo, PageSize: q.pageSize };
    },
  };
}

export type CustomerQueries = ReturnType<typeof createCustomerQueries>;
