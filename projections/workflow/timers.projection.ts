import { dueIndex } from '../../domain/core/due-index.ts';
import type { InstanceEvent } from '../../domain/workflow/engine/instance.events.ts';
import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * BPMN timers as due items of the core's work engine (`workflow.timers` `due`, one queue for every
 * tenant: each item carries its tenant). Scheduled when the instance schedules one, removed when it fires
 * or is canceled (its activity ended first). Rebuilt from the log like any read model, so a timer
 * survives a restart and fires when it is due, wherever workers run. The same items are the tenant's
 * pending timers list (`GET /timers`, soonest first).
 */
export const TIMERS_PROJECTION = 'workflow.timers';

export type TimerItem = {
  id: string;
  tenant: string;
  instanceId: string;
  elementId: string;
  /** a boundary event's timer (else an intermediate catch event's) */
  boundary: boolean;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
};

export const timersProjection: Projection = {
  name: TIMERS_PROJECTION,
  version: 2,
  categories: [INSTANCE_CATEGORY],
  eventTypes: ['TimerScheduled', 'TimerFired', 'TimerCanceled'],
  collections: { due: { indexes: [dueIndex('due'), { name: 'tenantDue', fields: { tenant: 1, dueAt: 1 } }] } },
  async apply(events, store) {
    const due = store.collection<TimerItem>('due');
    for (const e of events) {
      const ev = e as unknown as InstanceEvent;
      if (ev.type === 'TimerScheduled') {
        const t = ev.data.timer;
        await due.upsert({
          id: t.id,
          tenant: e.metadata.tenant,
          instanceId: t.instanceId,
          elementId: t.elementId,
          boundary: t.boundary,
          dueAt: t.dueAt,
          leaseUntil: '',
        });
      } else if (ev.type === 'TimerFired' || ev.type === 'TimerCanceled') {
        await due.delete(ev.data.timerId);
      }
    }
  },
};

export function createTimerQueries(readStore: ReadStore) {
  const due = readModel<TimerItem>(readStore, TIMERS_PROJECTION, 'due');
  return {
    /** a page of a tenant's pending timers, soonest first (`dueBefore`: due at or before that instant) */
    async list(
      tenant: string,
      q: { limit: number; offset: number; dueBefore?: string },
    ): Promise<{ items: TimerItem[]; total: number }> {
      const filter = { tenant, ...(q.dueBefore !== undefined && { dueAt: { $lte: q.dueBefore } }) };
      const [items, total] = await Promise.all([
        due.find(filter, { sort: { dueAt: 1 }, skip: q.offset, limit: q.limit }),
        due.count(filter),
      ]);
      return { items, total };
    },
  };
}
export type TimerQueries = ReturnType<typeof createTimerQueries>;
