import { PROCESS_CATEGORY, type ProcessDefinitionDeployed } from '../../domain/workflow/process-definition.decider.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';
import { tenantPartition } from './workflow-partitions.ts';

/** The process definitions of each tenant (one collection per tenant): key, name, versions with their deployment time. */
export const DEFINITIONS_PROJECTION = 'workflow.definitions';

export type DefinitionVersion = {
  id: string;
  version: number;
  deploymentId: string;
  resourceName: string;
  deployedAt: string;
  versionTag?: string;
};
export type DefinitionDoc = {
  id: string;
  key: string;
  name: string | null;
  latestVersion: number;
  versions: DefinitionVersion[];
};

export const definitionsProjection: Projection = {
  name: DEFINITIONS_PROJECTION,
  version: 1,
  categories: [PROCESS_CATEGORY],
  eventTypes: ['ProcessDefinitionDeployed'],
  collections: { definitions: { partitioned: true } },
  async apply(events, store) {
    for (const e of events) {
      const d = (e as unknown as ProcessDefinitionDeployed).data;
      const coll = store.collection<DefinitionDoc>('definitions', tenantPartition(e.metadata.tenant));
      const doc = (await coll.get(d.key)) ?? { id: d.key, key: d.key, name: null, latestVersion: 0, versions: [] };
      if (doc.versions.some((v) => v.id === d.id)) continue;
      const version: DefinitionVersion = {
        id: d.id,
        version: d.version,
        deploymentId: d.deploymentId,
        resourceName: d.resourceName,
        deployedAt: d.deployedAt,
        ...(d.versionTag !== undefined && { versionTag: d.versionTag }),
      };
      await coll.upsert({
        ...doc,
        name: d.name ?? doc.name,
        latestVersion: Math.max(doc.latestVersion, d.version),
        versions: [...doc.versions, version],
      });
    }
  },
};

export function createDefinitionQueries(readStore: ReadStore) {
  return {
    list: (tenant: string) =>
      readModel<DefinitionDoc>(readStore, DEFINITIONS_PROJECTION, 'definitions', tenantPartition(tenant)).find(
        {},
        { sort: { key: 1 } },
      ),
  };
}
export type DefinitionQueries = ReturnType<typeof createDefinitionQueries>;
