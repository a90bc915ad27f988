import { CONFIG_ENTRY_EVENT_TYPES, type ConfigEntryEvent } from '../../domain/bridge/config-entry.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.config`: the configuration center's key listing for the admin API. A secret entry's value never
 * reaches this read model (only that it is secret); lookups that deliveries depend on read the entry
 * streams instead (commands/bridge/config-center.commands.ts).
 */
export const CONFIG_PROJECTION = 'bridge.config';

export type ConfigEntryDoc = Doc & {
  /** `<tenant>/<key>` */
  id: string;
  tenant: string;
  key: string;
  secret: boolean;
  /** absent for secrets */
  value?: string;
  updatedAt: string;
};

export const configProjection: Projection = {
  name: CONFIG_PROJECTION,
  version: 1,
  categories: ['configEntry'],
  eventTypes: [...CONFIG_ENTRY_EVENT_TYPES],
  collections: { entries: { indexes: [{ name: 'by_tenant_key', fields: { tenant: 1, key: 1 } }] } },
  async apply(events: RecordedEvent[], store) {
    const entries = store.collection<ConfigEntryDoc>('entries');
    for (const recorded of events) {
      const event = recorded as unknown as ConfigEntryEvent;
      switch (event.type) {
        case 'ConfigValueSet': {
          const { tenant, key, value, secret, at } = event.data;
          await entries.upsert({
            id: `${tenant}/${key}`,
            tenant,
            key,
            secret: secret === true,
            ...(secret !== true && { value }),
            updatedAt: at,
          });
          break;
        }
        case 'ConfigValueRemoved':
          await entries.delete(`${event.data.tenant}/${event.data.key}`);
          break;
        default:
          assertNever(event);
      }
    }
  },
};

/** The admin listing: a tenant's keys in key order, optionally under a prefix (`alert.`). */
export function createConfigQueries(readStore: ReadStore) {
  const entries = readModel<ConfigEntryDoc>(readStore, CONFIG_PROJECTION, 'entries');
  return {
    async list(tenant: string, o: { prefix?: string; limit: number; offset: number }) {
      const filter = {
        tenant,
        ...(o.prefix !== undefined && { key: { $regex: `^${o.prefix.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}` } }),
      };
      const [items, total] = await Promise.all([
        entries.find(filter, { sort: { key: 1 }, skip: o.offset, limit: o.limit }),
        entries.count(filter),
      ]);
      return { items, total };
    },
  };
}
