import type { DeliveryErrorClass } from '../../domain/bridge/delivery-error-class.ts';
import type { Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import type {
  DeadLetterDoc,
  DeliveryDoc,
  DeliveryDocStatus,
  DeliveryDueDoc,
  RuleTargetDoc,
} from './deliveries.docs.ts';
import { DELIVERIES_PROJECTION } from './deliveries.projection.ts';

// What the bridge's delivery pages and commands read of `bridge.deliveries` (deliveries.projection.ts).

export type DeliveryStatusCounts = Record<DeliveryDocStatus, number> & { waiting: number };

/** The tenant-wide dead letter list's filters (all optional; `from` inclusive, `to` exclusive, on deadLetteredAt). */
export type DeadLetterFilter = {
  ruleId?: string;
  typeId?: number;
  errorClass?: DeliveryErrorClass;
  from?: string;
  to?: string;
};

const deadLetterWhere = (ruleTenant: string, f: DeadLetterFilter): Filter => {
  const and: Filter[] = [{ ruleTenant }];
  if (f.ruleId !== undefined) and.push({ ruleId: f.ruleId });
  if (f.typeId !== undefined) and.push({ typeId: f.typeId });
  if (f.errorClass !== undefined) and.push({ errorClass: f.errorClass });
  if (f.from !== undefined) and.push({ deadLetteredAt: { $gte: f.from } });
  if (f.to !== undefined) and.push({ deadLetteredAt: { $lt: f.to } });
  return and.length === 1 ? and[0]! : { $and: and };
};

export function createDeliveryQueries(readStore: ReadStore) {
  const deadLetters = readModel<DeadLetterDoc>(readStore, DELIVERIES_PROJECTION, 'deadLetters');
  const deliveries = readModel<DeliveryDoc>(readStore, DELIVERIES_PROJECTION, 'deliveries');
  const due = readModel<DeliveryDueDoc>(readStore, DELIVERIES_PROJECTION, 'due');
  const ruleTargets = readModel<RuleTargetDoc>(readStore, DELIVERIES_PROJECTION, 'ruleTargets');
  return {
    /** the dead letter queue of a rule target, oldest first */
    async deadLetters(
      ruleTarget: string,
      page: { limit: number; offset: number },
    ): Promise<{ items: DeadLetterDoc[]; total: number }> {
      const [items, total] = await Promise.all([
        deadLetters.find({ ruleTarget }, { sort: { deadLetteredAt: 1 }, skip: page.offset, limit: page.limit }),
        deadLetters.count({ ruleTarget }),
      ]);
      return { items, total };
    },
    async deadLetter(ruleTarget: string, deliveryId: string): Promise<DeadLetterDoc | null> {
      const doc = await deadLetters.get(deliveryId);
      return doc !== null && doc.ruleTarget === ruleTarget ? doc : null;
    },
    /** every dead letter of a rule target (for redrive all and purge all) */
    async deadLetterRefs(ruleTarget: string): Promise<Array<{ deliveryId: string; stream: string }>> {
      const docs = await deadLetters.find({ ruleTarget }, { sort: { deadLetteredAt: 1 } });
      return docs.map((d) => ({ deliveryId: d.id, stream: d.stream }));
    },
    /** one tenant's dead letters across its rules and targets, oldest first, filtered */
    async tenantDeadLetters(
      ruleTenant: string,
      filter: DeadLetterFilter,
      page: { limit: number; offset: number },
    ): Promise<{ items: DeadLetterDoc[]; total: number }> {
      const where = deadLetterWhere(ruleTenant, filter);
      const [items, total] = await Promise.all([
        deadLetters.find(where, { sort: { deadLetteredAt: 1 }, skip: page.offset, limit: page.limit }),
        deadLetters.count(where),
      ]);
      return { items, total };
    },
    /** one tenant's dead letters: by id (those of other tenants, or gone, are left out), or by filter, oldest first */
    async tenantDeadLetterRefs(
      ruleTenant: string,
      select: { deliveryIds: string[] } | { filter: DeadLetterFilter; limit: number },
    ): Promise<Array<{ deliveryId: string; stream: string }>> {
      const docs =
        'deliveryIds' in select
          ? await deadLetters.find(
              { $and: [{ ruleTenant }, { id: { $in: select.deliveryIds } }] },
              { sort: { deadLetteredAt: 1 } },
            )
          : await deadLetters.find(deadLetterWhere(ruleTenant, select.filter), {
              sort: { deadLetteredAt: 1 },
              limit: select.limit,
            });
      return docs.map((d) => ({ deliveryId: d.id, stream: d.stream }));
    },
    async delivery(deliveryId: string): Promise<DeliveryDoc | null> {
      return deliveries.get(deliveryId);
    },
    async forEvent(eventKey: string): Promise<DeliveryDoc[]> {
      return deliveries.find({ eventKey }, { sort: { scheduledAt: 1 } });
    },
    /** deliveries of a rule target per status, and how many wait for the target to be resumed */
    async counts(ruleTarget: string): Promise<DeliveryStatusCounts> {
      const counts: DeliveryStatusCounts = {
        scheduled: 0,
        'in-flight': 0,
        retrying: 0,
        failed: 0,
        succeeded: 0,
        'dead-lettered': 0,
        discarded: 0,
        blocked: 0,
        purged: 0,
        waiting: 0,
      };
      for (const g of await deliveries.groupCount('status', { ruleTarget })) {
        if (typeof g.key === 'string' && g.key in counts) counts[g.key as DeliveryDocStatus] = g.count;
      }
      counts.waiting = await due.count({ ruleTarget, held: true });
      return counts;
    },
    async ruleTarget(ruleTarget: string): Promise<RuleTargetDoc | null> {
      return ruleTargets.get(ruleTarget);
    },
  };
}

export type DeliveryQueries = ReturnType<typeof createDeliveryQueries>;
