import {
  DELIVERY_CATEGORY,
  DELIVERY_EVENT_TYPES,
  type DeliveryEvent,
  deliveryStream,
} from '../../domain/bridge/delivery.decider.ts';
import { deliveryErrorClass } from '../../domain/bridge/delivery-error-class.ts';
import { type EventRoutedData, PUBLISHED_CATEGORY } from '../../domain/bridge/published-event.decider.ts';
import {
  RULE_TARGET_CATEGORY,
  RULE_TARGET_EVENT_TYPES,
  type RuleTargetEvent,
  ruleTargetKey,
} from '../../domain/bridge/rule-target-state.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import { dueIndex } from '../../domain/core/due-index.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';
import type { DeadLetterDoc, DeliveryDoc, DeliveryDueDoc, RuleTargetDoc } from './deliveries.docs.ts';

/**
 * `bridge.deliveries`: the delivery engine's read models, from the delivery and rule-target streams.
 *
 * - `due`: one due item per delivery that still has work (commands/core/due-work.ts DueItem: `dueAt`,
 *   `leaseUntil`); the worker claims them with a lease. Removed when the delivery ends (succeeded, dead
 *   letter, discarded), moved on every failure to the next attempt's time. Items of a blocked rule target
 *   are held: `held: true` and `dueAt` = HELD_DUE_AT (never due, and out of the claim's index range), the
 *   real due time kept in `nextAt`; a resume puts `dueAt` back to `nextAt`, so waiting deliveries go in
 *   the order they were due. A blocked delivery's `nextAt` is its first schedule time: on resume it goes
 *   first. Every (re)schedule writes `leaseUntil: ''`. Equal due times are claimed in log order (`seq`). `ordered` (ErrorTolerance NONE) asks the worker to
 *   run the rule target's deliveries one at a time, in the order it claims them.
 * - `deliveries`: per delivery its status (scheduled, in-flight, retrying, failed (retries over, the
 *   tolerance rule pending), succeeded, dead-lettered, discarded, blocked, purged), attempts, last error,
 *   HTTP status, next attempt: the rule target's counts.
 * - `deadLetters`: the dead letter queue per rule target (entries leave it when redriven or purged), also
 *   listed per tenant across its rules and targets (the rule's tenant), with the target type and the class
 *   of the last error (domain/bridge/delivery-error-class.ts) to filter on; the raw event and the payload
 *   are read from the delivery's stream when inspected (never copied here).
 * - `ruleTargets`: rule targets that were ever blocked, with the current episode's blocking deliveries.
 */
export const DELIVERIES_PROJECTION = 'bridge.deliveries';
export const HELD_DUE_AT = '9999-12-31T23:59:59.999Z';
/**
 * How long after its routing a delivery whose DeliveryScheduled has not come is taken for lost (a crash
 * between putEvent's append and the scheduling's): its due item, written from EventRouted, comes due then,
 * and the worker schedules it from the EventRouted. The scheduling normally follows within milliseconds
 * and replaces the item.
 */
export const LOST_SCHEDULING_AFTER_MS = 10_000;

export const deliveriesProjection: Projection = {
  name: DELIVERIES_PROJECTION,
  // 2: dead letters per tenant, with target type and error class; 3: due items from EventRouted
  version: 3,
  categories: [PUBLISHED_CATEGORY, DELIVERY_CATEGORY, RULE_TARGET_CATEGORY],
  eventTypes: ['EventRouted', ...DELIVERY_EVENT_TYPES, ...RULE_TARGET_EVENT_TYPES],
  collections: {
    due: {
      indexes: [dueIndex('by_due', { seq: 1 }), { name: 'by_rule_target', fields: { ruleTarget: 1, nextAt: 1 } }],
    },
    deliveries: {
      indexes: [
        { name: 'by_rule_target_status', fields: { ruleTarget: 1, status: 1 } },
        { name: 'by_event', fields: { eventKey: 1 } },
      ],
    },
    deadLetters: {
      indexes: [
        { name: 'by_rule_target', fields: { ruleTarget: 1, deadLetteredAt: 1 } },
        { name: 'by_rule_tenant', fields: { ruleTenant: 1, deadLetteredAt: 1 } },
      ],
    },
    ruleTargets: {},
  },
  async apply(events, store) {
    for (const e of events) await applyOne(store, e);
  },
};

async function applyOne(store: ProjectionStore, recorded: RecordedEvent): Promise<void> {
  const due = store.collection<DeliveryDueDoc>('due');
  const deliveries = store.collection<DeliveryDoc>('deliveries');
  const deadLetters = store.collection<DeadLetterDoc>('deadLetters');
  const ruleTargets = store.collection<RuleTargetDoc>('ruleTargets');
  const isBlocked = async (key: string) => (await ruleTargets.get(key))?.blocked === true;

  /** the delivery's next step is due at `nextAt` (held while its rule target is blocked) */
  const reschedule = async (deliveryId: string, nextAt: string) => {
    const item = await due.get(deliveryId);
    if (item === null) return;
    const held = await isBlocked(item.ruleTarget);
    await due.patch(deliveryId, { $set: { nextAt, held, dueAt: held ? HELD_DUE_AT : nextAt, leaseUntil: '' } });
  };
  const status = (deliveryId: string, set: Partial<DeliveryDoc>, unset: string[] = []) =>
    deliveries.patch(deliveryId, { $set: set, ...(unset.length > 0 && { $unset: unset }) });

  if (recorded.type === 'EventRouted') {
    // a due item per delivery routed (those routed before deliveryId was recorded had theirs scheduled); none
    // can be there yet: a delivery is scheduled after its routing, in log order
    const r = recorded.data as EventRoutedData;
    const tenant = parseStreamName(recorded.stream)?.tenant ?? recorded.metadata.tenant;
    const lostAfter = new Date(Date.parse(r.routedAt) + LOST_SCHEDULING_AFTER_MS).toISOString();
    for (const m of r.matched) {
      for (const t of m.targets) {
        if (t.deliveryId === undefined) continue;
        await due.upsert({
          id: t.deliveryId,
          stream: deliveryStream(tenant, t.deliveryId),
          tenant,
          ruleTarget: ruleTargetKey({ ruleTenant: m.ruleTenant, ruleId: m.ruleId, targetId: t.targetId }),
          dueAt: lostAfter,
          leaseUntil: '',
          held: false,
          nextAt: lostAfter,
          scheduledAt: r.routedAt,
          ordered: false,
          seq: recorded.position,
          publishedStream: recorded.stream,
        });
      }
    }
    return;
  }
  const event = recorded as unknown as DeliveryEvent | RuleTargetEvent;
  switch (event.type) {
    case 'DeliveryScheduled': {
      const d = event.data;
      const key = ruleTargetKey(d);
      await deliveries.upsert({
        id: d.deliveryId,
        stream: recorded.stream,
        tenant: d.tenant,
        eventKey: d.eventKey,
        ruleTenant: d.ruleTenant,
        ruleId: d.ruleId,
        targetId: d.targetId,
        typeId: d.typeId,
        ruleTarget: key,
        ordered: d.target?.errorTolerance === 'NONE',
        status: 'scheduled',
        attempts: 0,
        nextAttemptAt: d.dueAt,
        scheduledAt: d.scheduledAt,
        updatedAt: d.scheduledAt,
      });
      const held = await isBlocked(key);
      await due.upsert({
        id: d.deliveryId,
        stream: recorded.stream,
        tenant: d.tenant,
        ruleTarget: key,
        dueAt: held ? HELD_DUE_AT : d.dueAt,
        leaseUntil: '',
        held,
        nextAt: d.dueAt,
        scheduledAt: d.scheduledAt,
        ordered: d.target?.errorTolerance === 'NONE',
        seq: recorded.position,
      });
      return;
    }
    case 'DeliveryAttemptStarted':
      await status(
        event.data.deliveryId,
        { status: 'in-flight', attempts: event.data.attempt, updatedAt: event.data.at },
        ['nextAttemptAt'],
      );
      // due when the attempt, still without outcome, counts as lost: an attempt started without a claim has
      // no lease to keep it from claims meanwhile (attempts recorded before outcomeBy kept the claim's lease)
      if (event.data.outcomeBy !== undefined) await reschedule(event.data.deliveryId, event.data.outcomeBy);
      return;
    case 'DeliverySucceeded': {
      const d = event.data;
      await status(
        d.deliveryId,
        { status: 'succeeded', updatedAt: d.at, ...(d.httpStatus !== undefined && { httpStatus: d.httpStatus }) },
        ['lastError'],
      );
      await due.delete(d.deliveryId);
      return;
    }
    case 'DeliveryAttemptFailed': {
      const d = event.data;
      await status(
        d.deliveryId,
        {
          status: d.nextAttemptAt === null ? 'failed' : 'retrying',
          lastError: d.error,
          updatedAt: d.at,
          ...(d.nextAttemptAt !== null && { nextAttemptAt: d.nextAttemptAt }),
          ...(d.httpStatus !== undefined && { httpStatus: d.httpStatus }),
        },
        [...(d.nextAttemptAt === null ? ['nextAttemptAt'] : []), ...(d.httpStatus === undefined ? ['httpStatus'] : [])],
      );
      // retries over: the tolerance rule is due now (normally in the same append, which removes the item)
      await reschedule(d.deliveryId, d.nextAttemptAt ?? d.at);
      return;
    }
    case 'DeliveryDeadLettered': {
      const d = event.data;
      const doc = await deliveries.get(d.deliveryId);
      await status(d.deliveryId, { status: 'dead-lettered', lastError: d.lastError, updatedAt: d.at });
      await due.delete(d.deliveryId);
      await deadLetters.upsert({
        id: d.deliveryId,
        stream: recorded.stream,
        tenant: doc?.tenant ?? recorded.metadata.tenant,
        eventKey: d.eventKey,
        ruleTenant: d.ruleTenant,
        ruleId: d.ruleId,
        targetId: d.targetId,
        ruleTarget: ruleTargetKey(d),
        typeId: doc?.typeId ?? 0,
        errorClass: deliveryErrorClass(d.lastError, d.httpStatus),
        source: d.event.source,
        type: d.event.type,
        sourceEventId: d.event.id,
        deadLetteredAt: d.at,
        lastError: d.lastError,
        ...(d.httpStatus !== undefined && { httpStatus: d.httpStatus }),
        attempts: d.attempts,
      });
      return;
    }
    case 'DeliveryDiscarded':
      await status(
        event.data.deliveryId,
        { status: 'discarded', lastError: event.data.lastError, updatedAt: event.data.at },
        ['nextAttemptAt'],
      );
      await due.delete(event.data.deliveryId);
      return;
    case 'DeliveryBlocked': {
      const d = event.data;
      await status(d.deliveryId, { status: 'blocked', lastError: d.lastError, updatedAt: d.at }, ['nextAttemptAt']);
      // due at its first schedule time: claimable at once (the engine records the block on the rule target
      // if a crash came first), held with the others once the rule target is blocked, first on resume
      const item = await due.get(d.deliveryId);
      if (item !== null) await reschedule(d.deliveryId, item.scheduledAt);
      return;
    }
    case 'DeliveryRedriven': {
      const d = event.data;
      await status(d.deliveryId, { status: 'scheduled', updatedAt: d.at, nextAttemptAt: d.at });
      await deadLetters.delete(d.deliveryId);
      const doc = await deliveries.get(d.deliveryId);
      if (doc === null) return;
      const held = await isBlocked(doc.ruleTarget);
      await due.upsert({
        id: d.deliveryId,
        stream: recorded.stream,
        tenant: doc.tenant,
        ruleTarget: doc.ruleTarget,
        dueAt: held ? HELD_DUE_AT : d.at,
        leaseUntil: '',
        held,
        nextAt: d.at,
        scheduledAt: doc.scheduledAt,
        ordered: doc.ordered === true,
        seq: recorded.position,
      });
      return;
    }
    case 'DeliveryPurged':
      await status(event.data.deliveryId, { status: 'purged', updatedAt: event.data.at });
      await deadLetters.delete(event.data.deliveryId);
      return;
    case 'RuleTargetBlocked': {
      const d = event.data;
      const key = ruleTargetKey(d);
      const before = await ruleTargets.get(key);
      const { deliveryId, round, error, at } = d;
      await ruleTargets.upsert({
        id: key,
        ruleTenant: d.ruleTenant,
        ruleId: d.ruleId,
        targetId: d.targetId,
        blocked: true,
        blockedAt: before?.blocked === true ? (before.blockedAt ?? at) : at,
        blockedBy: [...(before?.blocked === true ? before.blockedBy : []), { deliveryId, round, error, at }],
        ...(before?.resumedAt !== undefined && { resumedAt: before.resumedAt }),
        ...(before?.resumedBy !== undefined && { resumedBy: before.resumedBy }),
      });
      for (const item of await due.find({ ruleTarget: key, held: false })) {
        await due.patch(item.id, { $set: { held: true, dueAt: HELD_DUE_AT } });
      }
      return;
    }
    case 'RuleTargetResumed': {
      const d = event.data;
      const key = ruleTargetKey(d);
      await ruleTargets.upsert({
        id: key,
        ruleTenant: d.ruleTenant,
        ruleId: d.ruleId,
        targetId: d.targetId,
        blocked: false,
        blockedBy: [],
        resumedAt: d.at,
        resumedBy: d.by,
      });
      for (const item of await due.find({ ruleTarget: key, held: true })) {
        await due.patch(item.id, { $set: { held: false, dueAt: item.nextAt, leaseUntil: '' } });
      }
      return;
    }
    default:
      return assertNever(event);
  }
}
