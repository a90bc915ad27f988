import { BUS_CATEGORY, BUS_EVENT_TYPES, type BusEvent } from '../../domain/bridge/bus.decider.ts';
import {
  EVENT_SOURCE_CATEGORY,
  SOURCE_EVENT_TYPES,
  type SourceEvent,
} from '../../domain/bridge/event-source.decider.ts';
import { type BusKind, PLATFORM_TENANT, type SourceKind } from '../../domain/bridge/model.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { checkpointMemo } from '../core/checkpoint-memo.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.catalog`: the admin API's listings of buses and event sources, and the publisher's question
 * "is this source a platform event source?" (platform sources can only send to the platform bus).
 * Deleted buses stay as documents with `deleted: true` (their sources are hidden with them).
 */
export const CATALOG_PROJECTION = 'bridge.catalog';

export type BusDoc = Doc & {
  /** `<tenant>/<name>` */
  id: string;
  name: string;
  tenant: string;
  kind: BusKind;
  description?: string;
  createdAt: string;
  deleted: boolean;
  deletedAt?: string;
};

export type SourceDoc = Doc & {
  /** `<bus tenant>/<bus>~<name>` */
  id: string;
  bus: string;
  busTenant: string;
  name: string;
  kind: SourceKind;
  eventTypes: string[];
  schemaId?: string;
  registeredAt: string;
};

export const busDocId = (tenant: string, name: string) => `${tenant}/${name}`;
export const sourceDocId = (busTenant: string, bus: string, name: string) => `${busTenant}/${bus}~${name}`;

export const catalogProjection: Projection = {
  name: CATALOG_PROJECTION,
  version: 1,
  categories: [BUS_CATEGORY, EVENT_SOURCE_CATEGORY],
  eventTypes: [...BUS_EVENT_TYPES, ...SOURCE_EVENT_TYPES],
  collections: {
    buses: { indexes: [{ name: 'by_tenant_name', fields: { tenant: 1, name: 1 } }] },
    sources: {
      indexes: [
        { name: 'by_bus', fields: { busTenant: 1, bus: 1, name: 1 } },
        { name: 'by_name_kind', fields: { name: 1, kind: 1 } },
      ],
    },
  },
  async apply(events, store) {
    const buses = store.collection<BusDoc>('buses');
    const sources = store.collection<SourceDoc>('sources');
    for (const recorded of events) {
      const e = recorded as unknown as BusEvent | SourceEvent;
      switch (e.type) {
        case 'BusCreated': {
          const { name, tenant, kind, description, createdAt } = e.data;
          await buses.upsert({
            id: busDocId(tenant, name),
            name,
            tenant,
            kind,
            ...(description !== undefined && { description }),
            createdAt,
            deleted: false,
          });
          break;
        }
        case 'BusDeleted':
          await buses.patch(busDocId(e.data.tenant, e.data.name), {
            $set: { deleted: true, deletedAt: e.data.deletedAt },
          });
          break;
        case 'SourceRegistered': {
          const { bus, tenant, name, kind, eventTypes, schemaId, registeredAt } = e.data;
          await sources.upsert({
            id: sourceDocId(tenant, bus, name),
            bus,
            busTenant: tenant,
            name,
            kind,
            eventTypes,
            ...(schemaId !== undefined && { schemaId }),
            registeredAt,
          });
          break;
        }
      }
    }
  },
};

export function createCatalogQueries(readStore: ReadStore, eventStore: EventStore) {
  const buses = readModel<BusDoc>(readStore, CATALOG_PROJECTION, 'buses');
  const sources = readModel<SourceDoc>(readStore, CATALOG_PROJECTION, 'sources');
  // asked at every putEvent to a custom bus, as of every bus or source change in the log
  const platformSource = checkpointMemo({ readStore, eventStore }, catalogProjection, async (name) => {
    const found = await sources.find({ name, kind: 'platform' });
    for (const s of found) {
      const bus = await buses.get(busDocId(s.busTenant, s.bus));
      if (bus !== null && !bus.deleted) return true;
    }
    return false;
  });
  return {
    /** the tenant's custom buses and the platform's buses (every tenant sees those) */
    listBuses(tenant: string): Promise<BusDoc[]> {
      return buses.find(
        { tenant: { $in: [...new Set([tenant, PLATFORM_TENANT])] }, deleted: false },
        { sort: { kind: 1, name: 1 } },
      );
    },
    getBus(tenant: string, name: string): Promise<BusDoc | null> {
      return buses.get(busDocId(tenant, name));
    },
    listSources(busTenant: string, bus: string): Promise<SourceDoc[]> {
      return sources.find({ busTenant, bus }, { sort: { name: 1 } });
    },
    /** a platform source of that name on a live platform bus */
    isPlatformSource: platformSource,
  };
}

export type CatalogQueries = ReturnType<typeof createCatalogQueries>;
