import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  DELIVERY_ID,
  type DeliveryAttemptFailedData,
  type DeliveryDeadLetteredData,
  type DeliveryEvent,
  deliveryDecider,
} from '../../domain/bridge/delivery.decider.ts';
import { type DeliveryErrorClass, deliveryErrorClass } from '../../domain/bridge/delivery-error-class.ts';
import type { BridgeEvent } from '../../domain/bridge/model.ts';
import { type RuleTargetRef, ruleTargetKey } from '../../domain/bridge/rule-target-state.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';

/**
 * The dead letter queue per rule target (spec Limits: "the dead message queue is scoped by task"): list,
 * inspect, redrive one or all (DeliveryRedriven: a new round of attempts with a fresh retry budget), purge
 * one or all (DeliveryPurged). And one list per tenant across its rules and targets,
 * filtered by rule, target type, error class and time, with redrive of a selection (ids, or a filter). The queue's index is the bridge.deliveries read model (`index`, wired by the
 * composition root); what an entry holds — the raw event, the payload and the last error, unchanged — is
 * read from the delivery's stream.
 */
export type DeadLetterEntry = {
  deliveryId: string;
  stream: string;
  tenant: string;
  ruleId: string;
  targetId: number;
  /** the target type (TypeId) */
  typeId: number;
  /** the last error's class (domain/bridge/delivery-error-class.ts) */
  errorClass: DeliveryErrorClass;
  eventKey: string;
  source: string;
  type: string;
  sourceEventId: string;
  deadLetteredAt: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
};

/** The tenant-wide list's filters (projections/bridge/deliveries.queries.ts DeadLetterFilter). */
export type DeadLetterFilter = {
  ruleId?: string;
  typeId?: number;
  errorClass?: DeliveryErrorClass;
  from?: string;
  to?: string;
};

/** What a tenant-wide redrive takes: delivery ids, or a filter (at most MAX_REDRIVE_SELECTION either way). */
export type DeadLetterSelection = { deliveryIds: string[] } | { filter: DeadLetterFilter };
export const MAX_REDRIVE_SELECTION = 1000;

/** The read side the commands need (projections/bridge/deliveries.queries.ts createDeliveryQueries). */
export type DeadLetterIndex = {
  deadLetters(
    ruleTarget: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: Array<DeadLetterDocLike>; total: number }>;
  deadLetter(ruleTarget: string, deliveryId: string): Promise<DeadLetterDocLike | null>;
  deadLetterRefs(ruleTarget: string): Promise<Array<{ deliveryId: string; stream: string }>>;
  tenantDeadLetters(
    ruleTenant: string,
    filter: DeadLetterFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Array<DeadLetterDocLike>; total: number }>;
  tenantDeadLetterRefs(
    ruleTenant: string,
    select: { deliveryIds: string[] } | { filter: DeadLetterFilter; limit: number },
  ): Promise<Array<{ deliveryId: string; stream: string }>>;
};
type DeadLetterDocLike = Omit<DeadLetterEntry, 'deliveryId' | 'typeId' | 'errorClass'> & {
  id: string;
  typeId?: number;
  errorClass?: DeliveryErrorClass;
};

export type DeadLetterDetail = DeadLetterEntry &
  RuleTargetRef & {
    /** the raw event, unchanged */
    event: BridgeEvent;
    /** the converted payload, unchanged */
    payload: unknown;
    /** every attempt of the delivery's life, oldest first */
    history: Array<{
      attemptId: string;
      attempt: number;
      at: string;
      status: 'succeeded' | 'failed';
      error?: string;
      httpStatus?: number;
    }>;
  };

const notFound = (deliveryId: string) =>
  bridgeError('DEAD_LETTER.NOT_FOUND', 'no such dead letter for this rule target', { deliveryId });

const entryOf = (d: DeadLetterDocLike): DeadLetterEntry => ({
  deliveryId: d.id,
  stream: d.stream,
  tenant: d.tenant,
  ruleId: d.ruleId,
  targetId: d.targetId,
  typeId: d.typeId ?? 0,
  errorClass: d.errorClass ?? deliveryErrorClass(d.lastError, d.httpStatus),
  eventKey: d.eventKey,
  source: d.source,
  type: d.type,
  sourceEventId: d.sourceEventId,
  deadLetteredAt: d.deadLetteredAt,
  lastError: d.lastError,
  ...(d.httpStatus !== undefined && { httpStatus: d.httpStatus }),
  attempts: d.attempts,
});

export function createDeadLetterCommands({
  eventStore,
  clock,
  index,
  onRedriven,
}: {
  eventStore: EventStore;
  clock: Clock;
  index: DeadLetterIndex;
  onRedriven?(stream: string): void;
}) {
  const handle = commandHandler(eventStore, deliveryDecider);

  async function entry(ref: RuleTargetRef, deliveryId: string): Promise<DeadLetterDocLike> {
    if (!DELIVERY_ID.test(deliveryId)) throw notFound(deliveryId);
    const doc = await index.deadLetter(ruleTargetKey(ref), deliveryId);
    if (doc === null) throw notFound(deliveryId);
    return doc;
  }

  async function run(
    stream: string,
    type: 'RedriveDelivery' | 'PurgeDelivery',
    ctx: CommandContext,
    commandId: string,
  ): Promise<boolean> {
    const now = clock.now().toISOString();
    const by = ctx.actor ?? 'unknown';
    const r = await handle({
      stream,
      command: type === 'RedriveDelivery' ? { type, reason: 'dead-letter', by, now } : { type, by, now },
      commandId,
      now,
      // the delivery belongs to the event's tenant (the stream's); the actor is the operator
      context: forTenant(ctx, parseStreamName(stream)?.tenant ?? ctx.tenant),
    });
    return r.events.length > 0;
  }

  return {
    async list(
      ref: RuleTargetRef,
      page: { limit: number; offset: number },
    ): Promise<{ items: DeadLetterEntry[]; total: number }> {
      const r = await index.deadLetters(ruleTargetKey(ref), page);
      return { items: r.items.map(entryOf), total: r.total };
    },

    /** the entry as its stream holds it: the raw event, the payload and the last error, unchanged */
    async inspect(ref: RuleTargetRef, deliveryId: string): Promise<DeadLetterDetail> {
      const doc = await entry(ref, deliveryId);
      const events = (await eventStore.readStream(doc.stream)) as unknown as Array<RecordedEvent & DeliveryEvent>;
      const state = fold(deliveryDecider, events);
      const dead = [...events].reverse().find((e) => e.type === 'DeliveryDeadLettered')?.data as
        | DeliveryDeadLetteredData
        | undefined;
      if (state.status !== 'dead-lettered' || dead === undefined) throw notFound(deliveryId);
      const history: DeadLetterDetail['history'] = [];
      for (const e of events) {
        if (e.type === 'DeliverySucceeded')
          history.push({
            attemptId: e.data.attemptId,
            attempt: e.data.attempt,
            at: e.data.at,
            status: 'succeeded',
            ...(e.data.httpStatus !== undefined && { httpStatus: e.data.httpStatus }),
          });
        if (e.type === 'DeliveryAttemptFailed') {
          const f = e.data as DeliveryAttemptFailedData;
          history.push({
            attemptId: f.attemptId,
            attempt: f.attempt,
            at: f.at,
            status: 'failed',
            error: f.error,
            ...(f.httpStatus !== undefined && { httpStatus: f.httpStatus }),
          });
        }
      }
      return {
        ...entryOf(doc),
        ...ref,
        lastError: dead.lastError,
        ...(dead.httpStatus !== undefined && { httpStatus: dead.httpStatus }),
        attempts: dead.attempts,
        deadLetteredAt: dead.at,
        event: dead.event,
        payload: dead.payload,
        history,
      };
    },

    /** one tenant's dead letters across its rules and targets (the rules' tenant), oldest first */
    async listTenant(
      ruleTenant: string,
      filter: DeadLetterFilter,
      page: { limit: number; offset: number },
    ): Promise<{ items: DeadLetterEntry[]; total: number }> {
      const r = await index.tenantDeadLetters(ruleTenant, filter, page);
      return { items: r.items.map(entryOf), total: r.total };
    },

    /**
     * Redrives a selection of the dead letters of the context's tenant (the rules' tenant): the ids given
     * (ids of other tenants, or no longer dead letters, are answered as `skipped`), or the first
     * MAX_REDRIVE_SELECTION that match a filter.
     * Each is its own command (`<commandId>/<deliveryId>`): a retried request redrives nothing twice.
     */
    async redriveSelection(
      selection: DeadLetterSelection,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ redriven: string[]; skipped: string[] }> {
      const refs = await index.tenantDeadLetterRefs(
        ctx.tenant,
        'deliveryIds' in selection
          ? { deliveryIds: selection.deliveryIds.slice(0, MAX_REDRIVE_SELECTION) }
          : { filter: selection.filter, limit: MAX_REDRIVE_SELECTION },
      );
      const redriven: string[] = [];
      for (const d of refs) {
        try {
          if (await run(d.stream, 'RedriveDelivery', ctx, `${commandId}/${d.deliveryId}`)) {
            redriven.push(d.deliveryId);
            onRedriven?.(d.stream);
          }
        } catch (err) {
          if (!(isDomainError(err) && err.code === 'DELIVERY.NOT_DEAD_LETTERED')) throw err;
        }
      }
      const asked = 'deliveryIds' in selection ? selection.deliveryIds : refs.map((r) => r.deliveryId);
      return { redriven, skipped: asked.filter((id) => !redriven.includes(id)) };
    },

    async redrive(ref: RuleTargetRef, deliveryId: string, ctx: CommandContext, commandId: string): Promise<void> {
      const doc = await entry(ref, deliveryId);
      await run(doc.stream, 'RedriveDelivery', ctx, commandId);
      onRedriven?.(doc.stream);
    },

    /** every dead letter of the rule target; answers the delivery ids redriven */
    async redriveAll(ref: RuleTargetRef, ctx: CommandContext, commandId: string): Promise<string[]> {
      const done: string[] = [];
      for (const d of await index.deadLetterRefs(ruleTargetKey(ref))) {
        try {
          if (await run(d.stream, 'RedriveDelivery', ctx, commandId)) {
            done.push(d.deliveryId);
            onRedriven?.(d.stream);
          }
        } catch (err) {
          // redriven or purged meanwhile (the read model lags the log): not a dead letter any more
          if (!(isDomainError(err) && err.code === 'DELIVERY.NOT_DEAD_LETTERED')) throw err;
        }
      }
      return done;
    },

    async purge(ref: RuleTargetRef, deliveryId: string, ctx: CommandContext, commandId: string): Promise<void> {
      const doc = await entry(ref, deliveryId);
      await run(doc.stream, 'PurgeDelivery', ctx, commandId);
    },

    /** answers the delivery ids purged */
    async purgeAll(ref: RuleTargetRef, ctx: CommandContext, commandId: string): Promise<string[]> {
      const done: string[] = [];
      for (const d of await index.deadLetterRefs(ruleTargetKey(ref))) {
        try {
          if (await run(d.stream, 'PurgeDelivery', ctx, commandId)) done.push(d.deliveryId);
        } catch (err) {
          if (!(isDomainError(err) && err.code === 'DELIVERY.NOT_DEAD_LETTERED')) throw err;
        }
      }
      return done;
    },
  };
}

export type DeadLetterCommands = ReturnType<typeof createDeadLetterCommands>;
