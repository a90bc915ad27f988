import {
  API_DESTINATION_CATEGORY,
  API_DESTINATION_EVENT_TYPES,
  type ApiDestinationEvent,
  type HttpMethodName,
} from '../../domain/bridge/api-destination.decider.ts';
import {
  CONNECTION_CATEGORY,
  CONNECTION_EVENT_TYPES,
  type ConnectionAuth,
  type ConnectionEvent,
  maskConnectionAuth,
  type SECRET_MASK,
} from '../../domain/bridge/connection.decider.ts';
import type { UrlTemplate } from '../../domain/bridge/destination-url.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.integrations`: the listings of connections and API destinations for the admin API (single
 * reads go to the streams). Connection secrets never reach it, not even sealed: the auth is stored
 * masked.
 */
export const INTEGRATIONS_PROJECTION = 'bridge.integrations';

export type ConnectionDoc = Doc & {
  /** `<tenant>/<name>` */
  id: string;
  tenant: string;
  name: string;
  description?: string;
  kind: ConnectionAuth['kind'];
  auth: ConnectionAuth<typeof SECRET_MASK>;
  createdAt: string;
  updatedAt: string;
};

export type DestinationDoc = Doc & {
  id: string;
  tenant: string;
  name: string;
  description?: string;
  urlTemplate: UrlTemplate;
  method: HttpMethodName;
  connection?: string;
  timeoutMs?: number;
  createdAt: string;
  updatedAt: string;
};

export const integrationsProjection: Projection = {
  name: INTEGRATIONS_PROJECTION,
  version: 1,
  categories: [CONNECTION_CATEGORY, API_DESTINATION_CATEGORY],
  eventTypes: [...CONNECTION_EVENT_TYPES, ...API_DESTINATION_EVENT_TYPES],
  collections: {
    connections: { indexes: [{ name: 'by_tenant_name', fields: { tenant: 1, name: 1 } }] },
    destinations: {
      indexes: [
        { name: 'by_tenant_name', fields: { tenant: 1, name: 1 } },
        { name: 'by_tenant_connection', fields: { tenant: 1, connection: 1 } },
      ],
    },
  },
  async apply(events: RecordedEvent[], store) {
    const connections = store.collection<ConnectionDoc>('connections');
    const destinations = store.collection<DestinationDoc>('destinations');
    for (const recorded of events) {
      const event = recorded as unknown as ConnectionEvent | ApiDestinationEvent;
      switch (event.type) {
        case 'ConnectionCreated':
        case 'ConnectionUpdated': {
          const c = event.data.connection;
          const id = `${c.tenant}/${c.name}`;
          const at = event.type === 'ConnectionCreated' ? event.data.createdAt : event.data.updatedAt;
          const createdAt = event.type === 'ConnectionCreated' ? at : ((await connections.get(id))?.createdAt ?? at);
          await connections.upsert({
            id,
            tenant: c.tenant,
            name: c.name,
            ...(c.description !== undefined && { description: c.description }),
            kind: c.auth.kind,
            auth: maskConnectionAuth(c.auth),
            createdAt,
            updatedAt: at,
          });
          break;
        }
        case 'ConnectionDeleted':
          await connections.delete(`${event.data.tenant}/${event.data.name}`);
          break;
        case 'ApiDestinationCreated':
        case 'ApiDestinationUpdated': {
          const d = event.data.destination;
          const id = `${d.tenant}/${d.name}`;
          const at = event.type === 'ApiDestinationCreated' ? event.data.createdAt : event.data.updatedAt;
          const createdAt =
            event.type === 'ApiDestinationCreated' ? at : ((await destinations.get(id))?.createdAt ?? at);
          await destinations.upsert({ id, ...d, createdAt, updatedAt: at });
          break;
        }
        case 'ApiDestinationDeleted':
          await destinations.delete(`${event.data.tenant}/${event.data.name}`);
          break;
        case 'ApiDestinationSigningSecretRotated':
          break; // the listing shows no secret
        default:
          assertNever(event);
      }
    }
  },
};

export function createIntegrationQueries(readStore: ReadStore) {
  const connections = readModel<ConnectionDoc>(readStore, INTEGRATIONS_PROJECTION, 'connections');
  const destinations = readModel<DestinationDoc>(readStore, INTEGRATIONS_PROJECTION, 'destinations');
  return {
    async listConnections(tenant: string, o: { limit: number; offset: number }) {
      const filter = { tenant };
      const [items, total] = await Promise.all([
        connections.find(filter, { sort: { name: 1 }, skip: o.offset, limit: o.limit }),
        connections.count(filter),
      ]);
      return { items, total };
    },
    async listDestinations(tenant: string, o: { limit: number; offset: number; connection?: string }) {
      const filter = { tenant, ...(o.connection !== undefined && { connection: o.connection }) };
      const [items, total] = await Promise.all([
        destinations.find(filter, { sort: { name: 1 }, skip: o.offset, limit: o.limit }),
        destinations.count(filter),
      ]);
      return { items, total };
    },
    /** names of the destinations that use a connection (at most `limit`) */
    async destinationsUsing(tenant: string, connection: string, limit = 10): Promise<string[]> {
      return (await destinations.find({ tenant, connection }, { sort: { name: 1 }, limit })).map((d) => d.name);
    },
  };
}

export type IntegrationQueries = ReturnType<typeof createIntegrationQueries>;
