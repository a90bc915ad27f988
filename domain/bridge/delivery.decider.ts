import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { type BridgeErrorCode, bridgeError } from './bridge.errors.ts';
import type { BridgeEvent, Target } from './model.ts';
import { EXPONENTIAL_TOTAL_MS, nextAttemptAt, type RetryStrategy } from './retry-strategy.ts';

/**
 * One delivery: a published event to one target of one matched rule. Stream
 * `delivery-<tenant>.<deliveryId>`, `tenant` being the event's tenant (the publisher's) and `deliveryId`
 * the hex SHA-256 of `<eventKey>\n<ruleTenant>\n<ruleId>\n<targetId>` (computed in commands/: no hashing
 * here). The delivery id is stable for the delivery's whole life: every outbound call carries it
 * (`X-Delivery-Id`), so receivers deduplicate the retries the platform makes.
 *
 * Life: DeliveryScheduled → (DeliveryAttemptStarted → DeliverySucceeded | DeliveryAttemptFailed)* → on the
 * last failure the tolerance rule: DeliveryDeadLettered (ALL, DeadLetterRecord), DeliveryDiscarded (ALL)
 * or DeliveryBlocked (NONE). An operator redrives a dead letter (DeliveryRedriven: a new round of
 * attempts with a fresh retry budget), or purges it (DeliveryPurged); resuming a blocked rule target
 * redrives its blocked deliveries the same way (reason 'resume').
 *
 * A failure may carry the peer's `Retry-After` (`retryAfterMs`, a 429 or 503): the next attempt is then
 * not before it, even when the strategy would retry sooner (the strategy still decides whether there is a
 * next attempt, and EXPONENTIAL_DECAY_RETRY's 24 h window still ends the round).
 *
 * An attempt started without an outcome is "uncertain": the process stopped during the call (or could not
 * record the outcome). The engine records it as DeliveryAttemptFailed (`uncertain: true`, the error
 * UNCERTAIN_ERROR, due again at once) and tries again: at-least-once, same delivery id, new attempt id.
 * An uncertain attempt does not spend the retry budget (the target did nothing wrong).
 *
 * Every event carries the DeliveryRef (delivery id, event key, rule target) so projections (the trace,
 * the dead letter queue) need no lookup.
 */
export const DELIVERY_CATEGORY = 'delivery';
export const deliveryStream = (tenant: string, deliveryId: string): string =>
  streamName(DELIVERY_CATEGORY, tenant, deliveryId);
export const DELIVERY_ID = /^[0-9a-f]{64}$/;

export const UNCERTAIN_ERROR = 'outcome unknown (process stopped during the call)';

export type DeliveryRef = {
  deliveryId: string;
  /** the published event's key (putEvent's eventId, the trace id) */
  eventKey: string;
  ruleTenant: string;
  ruleId: string;
  targetId: number;
};

export type DeliveryScheduledData = DeliveryRef & {
  /** the event's tenant (the publisher's): the stream's tenant */
  tenant: string;
  /** where the raw event is (EventAccepted, first event of the stream) */
  publishedStream: string;
  /** a platform rule (configuration lookups fall back to the platform's) */
  platform: boolean;
  typeId: number;
  /** the rule's target record when the delivery was scheduled; null: the rule or target was deleted before */
  target: Target | null;
  /** the converted payload (EventRouted), unchanged */
  payload: unknown;
  dueAt: string;
  scheduledAt: string;
};
export type DeliveryAttemptStartedData = DeliveryRef & {
  attemptId: string;
  attempt: number;
  round: number;
  at: string;
  /**
   * when an attempt still without outcome counts as lost (the worker's lease after `at`): the deliveries
   * read model makes the delivery due then, for that check. Absent in attempts recorded before it was.
   */
  outcomeBy?: string;
};
export type DeliverySucceededData = DeliveryRef & {
  attemptId: string;
  attempt: number;
  at: string;
  httpStatus?: number;
  detail?: string;
};
export type DeliveryAttemptFailedData = DeliveryRef & {
  attemptId: string;
  attempt: number;
  at: string;
  error: string;
  httpStatus?: number;
  retryable: boolean;
  /** the outcome was never recorded (crash during the call): not counted against the retry budget */
  uncertain?: true;
  /** null: no more retries in this round (the tolerance rule follows) */
  nextAttemptAt: string | null;
};
export type DeliveryDeadLetteredData = DeliveryRef & {
  at: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
  /** the raw event and the payload, unchanged (spec: "stored there with their raw data unchanged") */
  event: BridgeEvent;
  payload: unknown;
};
export type DeliveryDiscardedData = DeliveryRef & {
  at: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
};
export type DeliveryBlockedData = DeliveryRef & {
  at: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
  round: number;
};
export type RedriveReason = 'dead-letter' | 'resume';
export type DeliveryRedrivenData = DeliveryRef & { at: string; reason: RedriveReason; by: string; round: number };
export type DeliveryPurgedData = DeliveryRef & { at: string; by: string };

export type DeliveryScheduled = DomainEvent<'DeliveryScheduled', DeliveryScheduledData>;
export type DeliveryAttemptStarted = DomainEvent<'DeliveryAttemptStarted', DeliveryAttemptStartedData>;
export type DeliverySucceeded = DomainEvent<'DeliverySucceeded', DeliverySucceededData>;
export type DeliveryAttemptFailed = DomainEvent<'DeliveryAttemptFailed', DeliveryAttemptFailedData>;
export type DeliveryDeadLettered = DomainEvent<'DeliveryDeadLettered', DeliveryDeadLetteredData>;
export type DeliveryDiscarded = DomainEvent<'DeliveryDiscarded', DeliveryDiscardedData>;
export type DeliveryBlocked = DomainEvent<'DeliveryBlocked', DeliveryBlockedData>;
export type DeliveryRedriven = DomainEvent<'DeliveryRedriven', DeliveryRedrivenData>;
export type DeliveryPurged = DomainEvent<'DeliveryPurged', DeliveryPurgedData>;
export type DeliveryEvent =
  | DeliveryScheduled
  | DeliveryAttemptStarted
  | DeliverySucceeded
  | DeliveryAttemptFailed
  | DeliveryDeadLettered
  | DeliveryDiscarded
  | DeliveryBlocked
  | DeliveryRedriven
  | DeliveryPurged;

export const DELIVERY_EVENT_TYPES: ReadonlyArray<DeliveryEvent['type']> = [
  'DeliveryScheduled',
  'DeliveryAttemptStarted',
  'DeliverySucceeded',
  'DeliveryAttemptFailed',
  'DeliveryDeadLettered',
  'DeliveryDiscarded',
  'DeliveryBlocked',
  'DeliveryRedriven',
  'DeliveryPurged',
];

export type DeliveryCommand =
  | { type: 'ScheduleDelivery'; data: Omit<DeliveryScheduledData, 'scheduledAt'>; now: string }
  | { type: 'StartAttempt'; attemptId: string; now: string; outcomeBy?: string }
  | { type: 'RecordSuccess'; attemptId: string; httpStatus?: number; detail?: string; now: string }
  | {
      type: 'RecordFailure';
      attemptId: string;
      error: string;
      httpStatus?: number;
      retryable: boolean;
      /** the peer's Retry-After in ms (a 429 or 503): the next attempt is not due before now + this */
      retryAfterMs?: number;
      /** in [0, 1): the backoff's random part */
      random: number;
      /** the raw event, kept in a dead letter */
      event: BridgeEvent;
      now: string;
    }
  /** the attempt in flight never got its outcome recorded: record it as an uncertain failure */
  | { type: 'RecordUncertain'; now: string }
  /** the last failure was recorded but not the tolerance rule's decision (an older append, a crash): apply it */
  | { type: 'ApplyTolerance'; event: BridgeEvent; now: string }
  | { type: 'RedriveDelivery'; reason: RedriveReason; by: string; now: string }
  | { type: 'PurgeDelivery'; by: string; now: string };

export type DeliveryStatus =
  | 'pending'
  | 'in-flight'
  | 'exhausted'
  | 'succeeded'
  | 'dead-lettered'
  | 'discarded'
  | 'blocked'
  | 'purged';

export type DeliveryState =
  | { status: 'none' }
  | {
      status: DeliveryStatus;
      scheduled: DeliveryScheduledData;
      /** pending: when the next attempt is due */
      dueAt: string;
      /** attempts started over the delivery's life (attempt numbers keep counting across rounds) */
      attempts: number;
      /** 1, then +1 per redrive */
      round: number;
      /** failures in this round that count against the retry budget */
      roundFailures: number;
      /** the round's first attempt */
      roundStartedAt?: string;
      inFlight?: { attemptId: string; attempt: number; at: string };
      lastError?: string;
      lastHttpStatus?: number;
      /** when it reached its current status */
      since: string;
    };

export type LiveDelivery = Exclude<DeliveryState, { status: 'none' }>;

export const refOf = (d: DeliveryRef): DeliveryRef => ({
  deliveryId: d.deliveryId,
  eventKey: d.eventKey,
  ruleTenant: d.ruleTenant,
  ruleId: d.ruleId,
  targetId: d.targetId,
});

const TERMINAL: ReadonlySet<DeliveryStatus> = new Set(['succeeded', 'dead-lettered', 'discarded', 'purged']);
export const isTerminal = (s: DeliveryState): boolean => s.status !== 'none' && TERMINAL.has(s.status);

const notFound = () => bridgeError('DELIVERY.NOT_FOUND', 'no such delivery');
const wrongState = (code: BridgeErrorCode, message: string, s: LiveDelivery) =>
  bridgeError(code, message, { deliveryId: s.scheduled.deliveryId, status: s.status });

function live(state: DeliveryState): LiveDelivery {
  if (state.status === 'none') throw notFound();
  return state;
}

function inFlight(
  state: DeliveryState,
  attemptId: string,
): LiveDelivery & { inFlight: NonNullable<LiveDelivery['inFlight']> } {
  const s = live(state);
  if (s.status !== 'in-flight' || s.inFlight === undefined || s.inFlight.attemptId !== attemptId) {
    throw wrongState('DELIVERY.NO_SUCH_ATTEMPT', `attempt ${attemptId} is not the one in flight`, s);
  }
  return s as LiveDelivery & { inFlight: NonNullable<LiveDelivery['inFlight']> };
}

/**
 * The next attempt's time after the strategy's (`next`), pushed back to honour the peer's Retry-After; null
 * when that passes EXPONENTIAL_DECAY_RETRY's 24 h window (the round is over, as for a slow failure).
 */
function notBeforeRetryAfter(
  next: string | null,
  strategy: RetryStrategy,
  roundStartedAt: string,
  now: string,
  retryAfterMs: number | undefined,
): string | null {
  if (next === null || retryAfterMs === undefined || !Number.isFinite(retryAfterMs) || retryAfterMs <= 0) return next;
  const after = Date.parse(now) + retryAfterMs;
  if (after <= Date.parse(next)) return next;
  if (strategy === 'EXPONENTIAL_DECAY_RETRY' && after > Date.parse(roundStartedAt) + EXPONENTIAL_TOTAL_MS) return null;
  return new Date(after).toISOString();
}

/** What the tolerance rule does with a delivery whose retries are over (or that cannot be retried). */
function tolerance(
  s: LiveDelivery,
  lastError: string,
  httpStatus: number | undefined,
  event: BridgeEvent,
  now: string,
): DeliveryEvent[] {
  const ref = refOf(s.scheduled);
  const attempts = s.attempts;
  const status = httpStatus !== undefined ? { httpStatus } : {};
  const target = s.scheduled.target;
  if (target?.errorTolerance === 'NONE') {
    return [{ type: 'DeliveryBlocked', data: { ...ref, at: now, lastError, ...status, attempts, round: s.round } }];
  }
  if (target?.deadLetterRecord === true) {
    return [
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: now, lastError, ...status, attempts, event, payload: s.scheduled.payload },
      },
    ];
  }
  return [{ type: 'DeliveryDiscarded', data: { ...ref, at: now, lastError, ...status, attempts } }];
}

export const deliveryDecider: Decider<DeliveryCommand, DeliveryEvent, DeliveryState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'DeliveryScheduled') {
      const d = event.data;
      return {
        status: 'pending',
        scheduled: d,
        dueAt: d.dueAt,
        attempts: 0,
        round: 1,
        roundFailures: 0,
        since: d.scheduledAt,
      };
    }
    if (state.status === 'none') return state; // cannot happen: DeliveryScheduled opens the stream
    const s = state;
    switch (event.type) {
      case 'DeliveryAttemptStarted': {
        const d = event.data;
        return {
          ...s,
          status: 'in-flight',
          attempts: d.attempt,
          inFlight: { attemptId: d.attemptId, attempt: d.attempt, at: d.at },
          roundStartedAt: s.roundStartedAt ?? d.at,
          since: d.at,
        };
      }
      case 'DeliverySucceeded': {
        const { inFlight: _done, ...rest } = s;
        const status = event.data.httpStatus !== undefined ? { lastHttpStatus: event.data.httpStatus } : {};
        return { ...rest, ...status, status: 'succeeded', since: event.data.at };
      }
      case 'DeliveryAttemptFailed': {
        const d = event.data;
        const { inFlight: _done, lastHttpStatus: _previous, ...rest } = s;
        const counted = d.uncertain === true ? 0 : 1;
        const next = d.nextAttemptAt;
        return {
          ...rest,
          status: next === null ? 'exhausted' : 'pending',
          dueAt: next ?? d.at,
          roundFailures: s.roundFailures + counted,
          lastError: d.error,
          ...(d.httpStatus !== undefined && { lastHttpStatus: d.httpStatus }),
          since: d.at,
        };
      }
      case 'DeliveryDeadLettered':
        return { ...s, status: 'dead-lettered', lastError: event.data.lastError, since: event.data.at };
      case 'DeliveryDiscarded':
        return { ...s, status: 'discarded', lastError: event.data.lastError, since: event.data.at };
      case 'DeliveryBlocked':
        return { ...s, status: 'blocked', lastError: event.data.lastError, since: event.data.at };
      case 'DeliveryRedriven': {
        const { roundStartedAt: _old, inFlight: _none, ...rest } = s;
        return {
          ...rest,
          status: 'pending',
          dueAt: event.data.at,
          round: event.data.round,
          roundFailures: 0,
          since: event.data.at,
        };
      }
      case 'DeliveryPurged':
        return { ...s, status: 'purged', since: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleDelivery': {
        // scheduled once: a redelivered EventRouted schedules nothing again
        if (state.status !== 'none') return [];
        const scheduled: DeliveryScheduled = {
          type: 'DeliveryScheduled',
          data: { ...command.data, scheduledAt: command.now },
        };
        if (command.data.target !== null) return [scheduled];
        // the rule or its target was deleted between routing and scheduling: nothing to call
        const ref = refOf(command.data);
        return [
          scheduled,
          {
            type: 'DeliveryDiscarded',
            data: { ...ref, at: command.now, lastError: 'the rule target no longer exists', attempts: 0 },
          },
        ];
      }
      case 'StartAttempt': {
        const s = live(state);
        if (s.status === 'in-flight') throw wrongState('DELIVERY.IN_FLIGHT', 'an attempt is in flight', s);
        if (s.status !== 'pending') throw wrongState('DELIVERY.NOT_PENDING', `the delivery is ${s.status}`, s);
        if (s.dueAt > command.now) throw wrongState('DELIVERY.NOT_DUE', `the next attempt is due at ${s.dueAt}`, s);
        return [
          {
            type: 'DeliveryAttemptStarted',
            data: {
              ...refOf(s.scheduled),
              attemptId: command.attemptId,
              attempt: s.attempts + 1,
              round: s.round,
              at: command.now,
              ...(command.outcomeBy !== undefined && { outcomeBy: command.outcomeBy }),
            },
          },
        ];
      }
      case 'RecordSuccess': {
        const s = inFlight(state, command.attemptId);
        return [
          {
            type: 'DeliverySucceeded',
            data: {
              ...refOf(s.scheduled),
              attemptId: command.attemptId,
              attempt: s.inFlight.attempt,
              at: command.now,
              ...(command.httpStatus !== undefined && { httpStatus: command.httpStatus }),
              ...(command.detail !== undefined && { detail: command.detail }),
            },
          },
        ];
      }
      case 'RecordFailure': {
        const s = inFlight(state, command.attemptId);
        const target = s.scheduled.target;
        const failures = s.roundFailures + 1;
        const roundStart = s.roundStartedAt ?? s.inFlight.at;
        const next =
          command.retryable && target !== null
            ? notBeforeRetryAfter(
                nextAttemptAt(target.pushRetryStrategy, failures, roundStart, command.now, command.random),
                target.pushRetryStrategy,
                roundStart,
                command.now,
                command.retryAfterMs,
              )
            : null;
        const failed: DeliveryAttemptFailed = {
          type: 'DeliveryAttemptFailed',
          data: {
            ...refOf(s.scheduled),
            attemptId: command.attemptId,
            attempt: s.inFlight.attempt,
            at: command.now,
            error: command.error,
            ...(command.httpStatus !== undefined && { httpStatus: command.httpStatus }),
            retryable: command.retryable,
            nextAttemptAt: next,
          },
        };
        if (next !== null) return [failed];
        // retries are over (or cannot help): the tolerance rule, in the same append
        const after = { ...s, attempts: s.inFlight.attempt };
        return [failed, ...tolerance(after, command.error, command.httpStatus, command.event, command.now)];
      }
      case 'RecordUncertain': {
        const s = live(state);
        if (s.status !== 'in-flight' || s.inFlight === undefined)
          throw wrongState('DELIVERY.NOT_IN_FLIGHT', 'no attempt is in flight', s);
        return [
          {
            type: 'DeliveryAttemptFailed',
            data: {
              ...refOf(s.scheduled),
              attemptId: s.inFlight.attemptId,
              attempt: s.inFlight.attempt,
              at: command.now,
              error: UNCERTAIN_ERROR,
              retryable: true,
              uncertain: true,
              nextAttemptAt: command.now,
            },
          },
        ];
      }
      case 'ApplyTolerance': {
        const s = live(state);
        if (s.status !== 'exhausted')
          throw wrongState('DELIVERY.NOT_EXHAUSTED', 'the delivery still has attempts to make', s);
        return tolerance(s, s.lastError ?? 'failed', s.lastHttpStatus, command.event, command.now);
      }
      case 'RedriveDelivery': {
        const s = live(state);
        if (command.reason === 'dead-letter' && s.status !== 'dead-lettered') {
          throw wrongState('DELIVERY.NOT_DEAD_LETTERED', 'only a dead letter can be redriven', s);
        }
        if (command.reason === 'resume' && s.status !== 'blocked')
          throw wrongState('DELIVERY.NOT_BLOCKED', 'the delivery is not blocked', s);
        return [
          {
            type: 'DeliveryRedriven',
            data: {
              ...refOf(s.scheduled),
              at: command.now,
              reason: command.reason,
              by: command.by,
              round: s.round + 1,
            },
          },
        ];
      }
      case 'PurgeDelivery': {
        const s = live(state);
        if (s.status !== 'dead-lettered')
          throw wrongState('DELIVERY.NOT_DEAD_LETTERED', 'only a dead letter can be purged', s);
        return [{ type: 'DeliveryPurged', data: { ...refOf(s.scheduled), at: command.now, by: command.by } }];
      }
      default:
        return assertNever(command);
    }
  },
};
