import type { InstanceEvent } from '../../domain/workflow/engine/instance.events.ts';
import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import type { InstanceStatus } from '../../domain/workflow/engine/instance.state.ts';
import type { Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';
import { tenantPartition } from './workflow-partitions.ts';

/**
 * The process instances of each tenant (one collection per tenant), called ones included: identity,
 * state and start and end times, for the lists by state, key and business key (the instance page itself
 * reads the stream). Newest first is the read-store order `startedAt` descending, then the id.
 */
export const INSTANCES_PROJECTION = 'workflow.instances';

export type InstanceDoc = {
  id: string;
  rootInstanceId: string;
  parentInstanceId: string | null;
  processDefinitionId: string;
  processKey: string;
  version: number;
  businessKey: string;
  state: InstanceStatus;
  startedAt: string;
  endedAt: string | null;
};

export const instancesProjection: Projection = {
  name: INSTANCES_PROJECTION,
  version: 1,
  categories: [INSTANCE_CATEGORY],
  eventTypes: ['ProcessInstanceStarted', 'ProcessInstanceCompleted', 'ProcessInstanceTerminated'],
  collections: {
    instances: {
      partitioned: true,
      indexes: [
        { name: 'started', fields: { startedAt: -1 } },
        { name: 'state', fields: { state: 1, startedAt: -1 } },
        { name: 'key', fields: { processKey: 1, startedAt: -1 } },
        { name: 'businessKey', fields: { businessKey: 1, startedAt: -1 } },
      ],
    },
  },
  async apply(events, store) {
    for (const e of events) {
      const instances = store.collection<InstanceDoc>('instances', tenantPartition(e.metadata.tenant));
      const ev = e as unknown as InstanceEvent;
      switch (ev.type) {
        case 'ProcessInstanceStarted': {
          const d = ev.data;
          await instances.upsert({
            id: d.instanceId,
            rootInstanceId: d.rootInstanceId,
            parentInstanceId: d.parent?.instanceId ?? null,
            processDefinitionId: d.processDefinitionId,
            processKey: d.processKey,
            version: d.version,
            businessKey: d.businessKey,
            state: 'ACTIVE',
            startedAt: d.startedAt,
            endedAt: null,
          });
          break;
        }
        case 'ProcessInstanceCompleted':
          await instances.patch(ev.data.instanceId, { $set: { state: 'COMPLETED', endedAt: ev.data.at } });
          break;
        case 'ProcessInstanceTerminated':
          await instances.patch(ev.data.instanceId, { $set: { state: 'TERMINATED', endedAt: ev.data.at } });
          break;
        default:
          break;
      }
    }
  },
};

export type InstanceListQuery = {
  state?: InstanceStatus;
  processDefinitionKey?: string;
  businessKey?: string;
  limit: number;
  offset: number;
};

export function createInstanceQueries(readStore: ReadStore) {
  const instances = (tenant: string) =>
    readModel<InstanceDoc>(readStore, INSTANCES_PROJECTION, 'instances', tenantPartition(tenant));
  return {
    /** a page of the tenant's instances, newest first, narrowed by state, process key and business key */
    async list(tenant: string, q: InstanceListQuery): Promise<{ items: InstanceDoc[]; total: number }> {
      const filter: Filter = {
        ...(q.state !== undefined && { state: q.state }),
        ...(q.processDefinitionKey !== undefined && { processKey: q.processDefinitionKey }),
        ...(q.businessKey !== undefined && { businessKey: q.businessKey }),
      };
      const model = instances(tenant);
      const [items, total] = await Promise.all([
        model.find(filter, { sort: { startedAt: -1 }, skip: q.offset, limit: q.limit }),
        model.count(filter),
      ]);
      return { items, total };
    },
    /** the instances of these ids (the timers list names their instances' keys) */
    async byIds(tenant: string, ids: string[]): Promise<InstanceDoc[]> {
      return ids.length === 0 ? [] : instances(tenant).find({ id: { $in: ids } });
    },
  };
}
export type InstanceQueries = ReturnType<typeof createInstanceQueries>;
