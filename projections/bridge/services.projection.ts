import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import {
  SERVICE_ENTRY_CATEGORY,
  SERVICE_ENTRY_EVENT_TYPES,
  type ServiceEntryEvent,
} from '../../domain/bridge/service-entry.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.services`: the service registry's listing for the admin API. Deliveries never
 * read it: they resolve names from the entry streams (commands/bridge/service-registry.commands.ts).
 */
export const SERVICES_PROJECTION = 'bridge.services';

export type ServiceEntryDoc = Doc & {
  /** `<tenant>/<name>` */
  id: string;
  tenant: string;
  name: string;
  baseUrl: string;
  receivePath: string;
  updatedAt: string;
};

export const servicesProjection: Projection = {
  name: SERVICES_PROJECTION,
  version: 1,
  categories: [SERVICE_ENTRY_CATEGORY],
  eventTypes: [...SERVICE_ENTRY_EVENT_TYPES],
  collections: { entries: { indexes: [{ name: 'by_tenant_name', fields: { tenant: 1, name: 1 } }] } },
  async apply(events: RecordedEvent[], store) {
    const entries = store.collection<ServiceEntryDoc>('entries');
    for (const recorded of events) {
      const event = recorded as unknown as ServiceEntryEvent;
      switch (event.type) {
        case 'ServiceEntrySet': {
          const { at, ...entry } = event.data;
          await entries.upsert({ id: `${entry.tenant}/${entry.name}`, ...entry, updatedAt: at });
          break;
        }
        case 'ServiceEntryRemoved':
          await entries.delete(`${event.data.tenant}/${event.data.name}`);
          break;
        default:
          assertNever(event);
      }
    }
  },
};

/** What a tenant sees: its own entries and the platform's, by name (its own first where both exist). */
export function createServiceQueries(readStore: ReadStore) {
  const entries = readModel<ServiceEntryDoc>(readStore, SERVICES_PROJECTION, 'entries');
  return {
    async list(
      tenant: string,
    ): Promise<Array<ServiceEntryDoc & { scope: 'tenant' | 'platform'; overridden: boolean }>> {
      const tenants = tenant === PLATFORM_TENANT ? [PLATFORM_TENANT] : [tenant, PLATFORM_TENANT];
      const docs = await entries.find({ tenant: { $in: tenants } }, { sort: { name: 1, tenant: 1 } });
      const own = new Set(docs.filter((d) => d.tenant === tenant && tenant !== PLATFORM_TENANT).map((d) => d.name));
      return docs.map((d) => ({
        ...d,
        scope: d.tenant === PLATFORM_TENANT ? ('platform' as const) : ('tenant' as const),
        overridden: d.tenant === PLATFORM_TENANT && own.has(d.name),
      }));
    },
  };
}

export type ServiceQueries = ReturnType<typeof createServiceQueries>;
