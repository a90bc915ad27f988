import { DAY_MS, RETENTION_CATEGORY, type RetentionEvent } from '../../domain/audit/retention.decider.ts';
import { dueIndex } from '../../domain/core/due-index.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';

/**
 * `audit.retention`: the due items of the daily retention job (commands/audit/retention.commands.ts), one per
 * tenant with a retention. Setting a retention makes a run due at once, a run makes the next one due a day
 * later; clearing the retention (days null) removes the item.
 */
export const RETENTION_PROJECTION = 'audit.retention';

export type RetentionDueDoc = Doc & {
  tenant: string;
  days: number;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
};

export const retentionProjection: Projection = {
  name: RETENTION_PROJECTION,
  version: 1,
  categories: [RETENTION_CATEGORY],
  eventTypes: ['RetentionSet', 'RetentionApplied'],
  collections: { due: { indexes: [dueIndex()] } },
  async apply(events: RecordedEvent[], store) {
    const due = store.collection<RetentionDueDoc>('due');
    for (const recorded of events) {
      const event = recorded as unknown as RetentionEvent;
      const tenant = recorded.metadata.tenant;
      switch (event.type) {
        case 'RetentionSet':
          if (event.data.days === null) await due.delete(tenant);
          else await due.upsert({ id: tenant, tenant, days: event.data.days, dueAt: event.data.at, leaseUntil: '' });
          break;
        case 'RetentionApplied': {
          const next = new Date(Date.parse(event.data.at) + DAY_MS).toISOString();
          await due.patch(tenant, { $set: { dueAt: next, leaseUntil: '' } });
          break;
        }
        default:
          event satisfies never;
      }
    }
  },
};
