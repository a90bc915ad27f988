import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import { SCHEMA_CATEGORY, SCHEMA_EVENT_TYPES, type SchemaEvent } from '../../domain/bridge/schema.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.schemas`: the registry's listing for the admin API (owner, id, name, versions, latest). The
 * documents themselves stay in the schema streams (downloads and validation read those); a listing entry
 * carries version names and times only, so it stays small however large the documents are.
 */
export const SCHEMAS_PROJECTION = 'bridge.schemas';

export type SchemaDoc = Doc & {
  /** `<tenant>/<schemaId>` */
  id: string;
  tenant: string;
  schemaId: string;
  /** owned by the platform tenant: readable by every tenant */
  platform: boolean;
  name: string;
  description?: string;
  bus?: string;
  versions: Array<{ version: string; createdAt: string }>;
  latestVersion: string | null;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
};

const docId = (tenant: string, schemaId: string) => `${tenant}/${schemaId}`;

async function applyOne(store: ProjectionStore, touched: Map<string, SchemaDoc>, event: SchemaEvent): Promise<void> {
  const schemas = store.collection<SchemaDoc>('schemas');
  const id = docId(event.data.tenant, event.data.schemaId);
  const current = async () => touched.get(id) ?? (await schemas.get(id)) ?? undefined;
  switch (event.type) {
    case 'SchemaCreated': {
      const d = event.data;
      touched.set(id, {
        id,
        tenant: d.tenant,
        schemaId: d.schemaId,
        platform: d.tenant === PLATFORM_TENANT,
        name: d.name,
        ...(d.description !== undefined && { description: d.description }),
        ...(d.bus !== undefined && { bus: d.bus }),
        versions: [],
        latestVersion: null,
        deleted: false,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      });
      return;
    }
    case 'SchemaVersionAdded': {
      const doc = await current();
      if (doc === undefined) return;
      const d = event.data;
      touched.set(id, {
        ...doc,
        versions: [...doc.versions, { version: d.version, createdAt: d.createdAt }],
        latestVersion: d.version,
        updatedAt: d.createdAt,
      });
      return;
    }
    case 'SchemaDeleted': {
      const doc = await current();
      if (doc === undefined) return;
      touched.set(id, { ...doc, deleted: true, deletedAt: event.data.deletedAt, updatedAt: event.data.deletedAt });
      return;
    }
    default:
      assertNever(event);
  }
}

export const schemasProjection: Projection = {
  name: SCHEMAS_PROJECTION,
  version: 1,
  eventTypes: [...SCHEMA_EVENT_TYPES],
  categories: [SCHEMA_CATEGORY],
  collections: {
    schemas: {
      indexes: [
        { name: 'by_tenant_created', fields: { tenant: 1, createdAt: 1 } },
        { name: 'by_tenant_schema', fields: { tenant: 1, schemaId: 1 }, unique: true },
      ],
    },
  },
  async apply(events: RecordedEvent[], store) {
    // each touched document is read once and written once per batch
    const touched = new Map<string, SchemaDoc>();
    for (const e of events) await applyOne(store, touched, e as unknown as SchemaEvent);
    const schemas = store.collection<SchemaDoc>('schemas');
    for (const doc of touched.values()) await schemas.upsert(doc);
  },
};

export type SchemaListQuery = {
  tenant: string;
  /** `all` (default): the tenant's own and the platform's; `own`; `platform` */
  owner?: 'all' | 'own' | 'platform';
  bus?: string;
  includeDeleted?: boolean;
  limit: number;
  offset: number;
};

export type SchemaPage = { items: SchemaDoc[]; total: number; limit: number; offset: number };

export function createSchemaQueries(readStore: ReadStore) {
  const schemas = readModel<SchemaDoc>(readStore, SCHEMAS_PROJECTION, 'schemas');
  return {
    /** the schemas a tenant sees, oldest first (own and platform ones interleaved by creation time) */
    async list(q: SchemaListQuery): Promise<SchemaPage> {
      const owner = q.owner ?? 'all';
      const owners =
        owner === 'own'
          ? [q.tenant]
          : owner === 'platform'
            ? [PLATFORM_TENANT]
            : [...new Set([q.tenant, PLATFORM_TENANT])];
      const filter: Filter = {
        tenant: { $in: owners },
        ...(q.includeDeleted !== true && { deleted: false }),
        ...(q.bus !== undefined && { bus: q.bus }),
      };
      const [items, total] = await Promise.all([
        schemas.find(filter, { sort: { createdAt: 1, id: 1 }, skip: q.offset, limit: q.limit }),
        schemas.count(filter),
      ]);
      return { items, total, limit: q.limit, offset: q.offset };
    },
    get: (tenant: string, schemaId: string) => schemas.get(docId(tenant, schemaId)),
  };
}

export type SchemaQueries = ReturnType<typeof createSchemaQueries>;
