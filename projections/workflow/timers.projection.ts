import { dueIndex } from '../../domain/core/due-index.ts';
import type { InstanceEvent } from '../../domain/workflow/engine/instance.events.ts';
import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import type { Projection } from '../core/projection.ts';

/**
 * BPMN timers as due items of the core's work engine (`workflow.timers` `due`, one queue for every
 * tenant: each item carries its tenant). Scheduled when the instance schedules one, removed when it fires
 * or is canceled (its activity ended first). Rebuilt from the log like any read model, so a timer
 * survives a restart and fires when it is due, wherever workers run.
 */
export const TIMERS_PROJECTION = 'workflow.timers';

export type TimerItem = {
  id: string;
  tenant: string;
  instanceId: string;
  elementId: string;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
};

export const timersProjection: Projection = {
  name: TIMERS_PROJECTION,
  version: 1,
  categories: [INSTANCE_CATEGORY],
  eventTypes: ['TimerScheduled', 'TimerFired', 'TimerCanceled'],
  collections: { due: { indexes: [dueIndex('due')] } },
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
          dueAt: t.dueAt,
          leaseUntil: '',
        });
      } else if (ev.type === 'TimerFired' || ev.type === 'TimerCanceled') {
        await due.delete(ev.data.timerId);
      }
    }
  },
};
