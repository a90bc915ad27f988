import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import type { Outcome } from './classification.ts';
import { DEFAULT_RECEIPT_TIMEOUT_SECONDS } from './config.model.ts';
import { hubError } from './hub.errors.ts';
import {
  afterFinalFailure,
  afterRoleCompleted,
  attemptStarted,
  type Live,
  messageOf,
  roleCandidates,
} from './notification.chain.ts';
import { evolveNotification } from './notification.evolve.ts';
import { decideGateCommand, type GateCommand } from './notification.gate.decide.ts';
import { decideHousekeep, type HousekeepingCommand } from './notification.housekeeping.ts';
import {
  type Acknowledgement,
  type Attempt,
  type AttemptKind,
  type Evidence,
  type Message,
  type NotificationEvent,
  type NotificationRecord,
  type NotificationState,
  type PlannedMessage,
  type ReceiptStatus,
  type Source,
  TERMINAL_STATES,
} from './notification.model.ts';
import { decideOperator, type OperatorCommand } from './notification.operator.decide.ts';
import { nextRetryTime } from './retry-policy.ts';

/**
 * The notification decider: acceptance, then every message's life per the spec's message state table
 * ("Communication hub: message states"; operator actions and the gate's denials in their own files, below).
 * Which rows, and what was decided where the table is silent, is in message-transitions.ts; the fallback
 * turn in roleTurn below.
 *
 * Every command names the attempt it is about, so that an answer or a receipt is fenced to the attempt
 * that is active: a late answer (a receipt overtook it) or a receipt for a superseded attempt changes
 * nothing and is recorded (AttemptObserved, ReceiptIgnored).
 */
export const NOTIFICATION_CATEGORY = 'hubNotification';
export const notificationStream = (tenant: string, notificationId: string) =>
  streamName(NOTIFICATION_CATEGORY, tenant, notificationId);

export type NotificationCommand =
  | {
      type: 'Accept';
      notification: NotificationRecord;
      messages: PlannedMessage[];
      acknowledgement: Acknowledgement;
      now: string;
    }
  | {
      type: 'StartAttempt';
      MessageId: string;
      AttemptId: string;
      ClientRequestId: string;
      CallbackId: string;
      Kind: AttemptKind;
      /** when an attempt still without outcome counts as lost (the worker's lease) */
      OutcomeDueBy: string;
      now: string;
    }
  | { type: 'RecordOutcome'; MessageId: string; AttemptId: string; outcome: Outcome; now: string }
  | {
      type: 'ApplyReceipt';
      CallbackId: string;
      MessageId: string;
      Status: ReceiptStatus;
      ProviderRef?: string;
      Retryable?: boolean;
      now: string;
    }
  | { type: 'RecordLostAttempt'; MessageId: string; AttemptId: string; now: string }
  | { type: 'PassReceiptDeadline'; MessageId: string; now: string }
  | { type: 'Expire'; MessageId: string; now: string }
  /** operator actions: notification.operator.decide.ts */
  | OperatorCommand
  /** housekeeping: notification.housekeeping.ts */
  | HousekeepingCommand
  /** the dispatch gate's denials: notification.gate.decide.ts */
  | GateCommand;

export type { Live } from './notification.chain.ts';
// the role's chain helpers live in notification.chain.ts (the operator and gate decide files use them too)
export { afterFinalFailure, afterRoleCompleted, roleCandidates } from './notification.chain.ts';

const RANK: Record<Evidence, number> = { ACCEPTED: 1, FAILED: 2, DELIVERED: 2 };

/** how much the attempt's own answer and the receipts applied so far already say */
function evidenceRank(a: Attempt): number {
  const fromAnswer = a.Outcome === 'ACCEPTED' ? 1 : a.Outcome === 'REJECTED' || a.Outcome === 'RETRYABLE' ? 2 : 0;
  return Math.max(fromAnswer, a.Evidence === undefined ? 0 : RANK[a.Evidence]);
}

const mustBeLive = (state: NotificationState): Live => {
  if (state.status !== 'accepted') throw hubError('NOTIFICATION.NOT_FOUND', 'no such notification');
  return state;
};

const attemptOf = (m: Message, attemptId: string): Attempt => {
  const a = m.Attempts.find((x) => x.AttemptId === attemptId);
  if (a === undefined)
    throw hubError('MESSAGE.NOT_FOUND', `no attempt ${attemptId} of message ${m.MessageId}`, {
      MessageId: m.MessageId,
      AttemptId: attemptId,
    });
  return a;
};

const stateConflict = (m: Message, what: string) =>
  hubError(
    'MESSAGE.STATE_CONFLICT',
    `message ${m.MessageId} is ${m.State}${m.DeliveryUncertain ? ' (uncertain)' : ''}: ${what}`,
    { MessageId: m.MessageId, State: m.State },
  );

function accepted(
  state: Live,
  m: Message,
  attemptId: string,
  source: Source,
  now: string,
  httpStatus?: number,
): NotificationEvent[] {
  const acceptanceOnly = m.ReceiptMode === 'ACCEPTANCE_ONLY';
  const deadline = acceptanceOnly
    ? undefined
    : new Date(Date.parse(now) + (m.ReceiptTimeoutSeconds ?? DEFAULT_RECEIPT_TIMEOUT_SECONDS) * 1000).toISOString();
  const events: NotificationEvent[] = [
    {
      type: 'MessageAccepted',
      data: {
        MessageId: m.MessageId,
        AttemptId: attemptId,
        Source: source,
        ...(httpStatus !== undefined && { HttpStatus: httpStatus }),
        ...(deadline !== undefined && { ReceiptDeadline: deadline }),
        TrackingCompleted: acceptanceOnly,
        At: now,
      },
    },
  ];
  if (acceptanceOnly) events.push(...afterRoleCompleted(state, m, now));
  return events;
}

function delivered(
  state: Live,
  m: Message,
  attemptId: string,
  source: Source,
  providerRef: string | undefined,
  now: string,
): NotificationEvent[] {
  return [
    {
      type: 'MessageDelivered',
      data: {
        MessageId: m.MessageId,
        AttemptId: attemptId,
        Source: source,
        ...(providerRef !== undefined && { ProviderRef: providerRef }),
        At: now,
      },
    },
    ...afterRoleCompleted(state, m, now),
  ];
}

function failed(
  state: Live,
  m: Message,
  attemptId: string,
  o: {
    source: Source;
    definite: 'PERMANENT' | 'RETRYABLE';
    error: string;
    httpStatus?: number;
    retryAfterMs?: number;
    now: string;
  },
): NotificationEvent[] {
  const attempt = attemptOf(m, attemptId);
  const retry =
    o.definite === 'RETRYABLE' && attempt.Kind === 'AUTO'
      ? nextRetryTime({
          policy: m.RetryPolicy,
          failedAttempt: m.AutoAttempts,
          failedAt: o.now,
          ...(state.notification.ExpiresAt !== undefined && { expiresAt: state.notification.ExpiresAt }),
          ...(o.retryAfterMs !== undefined && { retryAfterMs: o.retryAfterMs }),
        })
      : null;
  const final = retry === null;
  const events: NotificationEvent[] = [
    {
      type: 'MessageFailed',
      data: {
        MessageId: m.MessageId,
        AttemptId: attemptId,
        Source: o.source,
        Definite: o.definite,
        Error: o.error,
        ...(o.httpStatus !== undefined && { HttpStatus: o.httpStatus }),
        ...(retry !== null && { NextRetryTime: retry }),
        Final: final,
        At: o.now,
      },
    },
  ];
  if (final) events.push(...afterFinalFailure(state, m, o.error, attemptId, o.now));
  return events;
}

function uncertain(
  m: Message,
  attemptId: string,
  cause: Extract<NotificationEvent, { type: 'MessageUncertain' }>['data']['Cause'],
  error: string,
  now: string,
  httpStatus?: number,
): NotificationEvent[] {
  return [
    {
      type: 'MessageUncertain',
      data: {
        MessageId: m.MessageId,
        AttemptId: attemptId,
        Cause: cause,
        Error: error,
        ...(httpStatus !== undefined && { HttpStatus: httpStatus }),
        At: now,
      },
    },
    {
      type: 'AlertRaised',
      data: { MessageId: m.MessageId, AttemptId: attemptId, Classification: 'UNCERTAIN', Reason: error, At: now },
    },
  ];
}

/** may a new automatic attempt start now? (spec "Dispatch gate": state, turn, due time and expiry; policies: dispatch-gate.ts) */
export function mayStartAutomatic(state: Live, m: Message, now: string): boolean {
  const expires = state.notification.ExpiresAt;
  if (expires !== undefined && now >= expires) return false;
  if (m.State === 'PLANNED' || m.State === 'SCHEDULED') return m.DueAt <= now;
  if (m.State === 'FAILED')
    return !m.DeliveryUncertain && !m.FinalFailure && m.NextRetryTime !== undefined && m.NextRetryTime <= now;
  return false;
}

/** is the message's pending work past the notification's ExpiresAt? (initial work, or a pending retry) */
export function expiredAt(state: Live, m: Message, now: string): boolean {
  const expires = state.notification.ExpiresAt;
  if (expires === undefined || now < expires) return false;
  return (
    m.State === 'PLANNED' ||
    m.State === 'SCHEDULED' ||
    (m.State === 'FAILED' && m.NextRetryTime !== undefined && !m.DeliveryUncertain)
  );
}

function decideStart(state: Live, c: Extract<NotificationCommand, { type: 'StartAttempt' }>): NotificationEvent[] {
  const m = messageOf(state, c.MessageId);
  if (m.Attempts.some((a) => a.AttemptId === c.AttemptId)) return [];
  if (c.Kind !== 'AUTO') throw stateConflict(m, 'a manual attempt is an operator action (StartManualAttempt)');
  if (!mayStartAutomatic(state, m, c.now)) throw stateConflict(m, 'no automatic attempt is due');
  if (m.ServiceId === undefined) throw stateConflict(m, 'it has no delivery service');
  return [attemptStarted(m, { ...c, ServiceId: m.ServiceId }, 'AUTO')];
}

function decideOutcome(state: Live, c: Extract<NotificationCommand, { type: 'RecordOutcome' }>): NotificationEvent[] {
  const m = messageOf(state, c.MessageId);
  const a = attemptOf(m, c.AttemptId);
  const o = c.outcome;
  const observed = (): NotificationEvent[] => [
    {
      type: 'AttemptObserved',
      data: {
        MessageId: m.MessageId,
        AttemptId: a.AttemptId,
        Outcome: o.kind,
        ...(o.httpStatus !== undefined && { HttpStatus: o.httpStatus }),
        ...(o.kind !== 'ACCEPTED' && { Error: o.reason }),
        At: c.now,
      },
    },
  ];
  // the answer matters only while the attempt is the active one and nothing settled it yet (a lost attempt
  // is unsettled: its late answer is evidence, as a late receipt would be)
  const settled = (a.Outcome !== undefined && a.Outcome !== 'LOST') || a.Evidence !== undefined;
  if (m.ActiveAttemptId !== a.AttemptId || m.State !== 'SUBMITTED' || settled) return observed();
  switch (o.kind) {
    case 'ACCEPTED':
      return accepted(state, m, a.AttemptId, 'RESPONSE', c.now, o.httpStatus);
    case 'REJECTED':
      return failed(state, m, a.AttemptId, {
        source: 'RESPONSE',
        definite: 'PERMANENT',
        error: o.reason,
        ...(o.httpStatus !== undefined && { httpStatus: o.httpStatus }),
        now: c.now,
      });
    case 'RETRYABLE':
      return failed(state, m, a.AttemptId, {
        source: 'RESPONSE',
        definite: 'RETRYABLE',
        error: o.reason,
        ...(o.httpStatus !== undefined && { httpStatus: o.httpStatus }),
        ...(o.retryAfterMs !== undefined && { retryAfterMs: o.retryAfterMs }),
        now: c.now,
      });
    case 'UNCERTAIN':
      if (m.DeliveryUncertain) return observed();
      return uncertain(m, a.AttemptId, o.cause, o.reason, c.now, o.httpStatus);
  }
}

function decideReceipt(state: Live, c: Extract<NotificationCommand, { type: 'ApplyReceipt' }>): NotificationEvent[] {
  const m = state.messages[c.MessageId];
  const a = m?.Attempts.find((x) => x.CallbackId === c.CallbackId);
  if (m === undefined || a === undefined)
    throw hubError('RECEIPT.UNKNOWN_CALLBACK', 'X-Comm-Callback-Id names no attempt');
  const ignored = (
    reason: Extract<NotificationEvent, { type: 'ReceiptIgnored' }>['data']['Reason'],
  ): NotificationEvent[] => [
    {
      type: 'ReceiptIgnored',
      data: {
        MessageId: m.MessageId,
        AttemptId: a.AttemptId,
        CallbackId: c.CallbackId,
        Status: c.Status,
        ...(c.ProviderRef !== undefined && { ProviderRef: c.ProviderRef }),
        Reason: reason,
        At: c.now,
      },
    },
  ];
  if (m.ActiveAttemptId !== a.AttemptId) return ignored('SUPERSEDED');
  if (TERMINAL_STATES.has(m.State)) return ignored('ALREADY_FINAL');
  // ACCEPTANCE_ONLY: tracking completed at the hand-off; later evidence is kept, not acted on
  if (m.TrackingCompleted) return ignored('TRACKING_COMPLETED');
  const have = evidenceRank(a);
  if (RANK[c.Status] <= have)
    return ignored(
      RANK[c.Status] === have && (a.Evidence === c.Status || (c.Status === 'ACCEPTED' && a.Outcome === 'ACCEPTED'))
        ? 'DUPLICATE'
        : 'OUTRANKED',
    );
  switch (c.Status) {
    case 'ACCEPTED':
      if (m.State !== 'SUBMITTED') return ignored('NOT_APPLICABLE');
      return accepted(state, m, a.AttemptId, 'RECEIPT', c.now);
    case 'DELIVERED':
      if (m.State === 'SUBMITTED' && m.ReceiptMode === 'ACCEPTANCE_ONLY') {
        // the receiver took the work: the hand-off completes tracking, whatever it says after
        return accepted(state, m, a.AttemptId, 'RECEIPT', c.now);
      }
      if (m.State === 'SUBMITTED' && !m.DeliveryUncertain) {
        // the receipt overtook the submission's own answer: accepted, then delivered
        const first = accepted(state, m, a.AttemptId, 'RECEIPT', c.now);
        return [...first.slice(0, 1), ...delivered(state, m, a.AttemptId, 'RECEIPT', c.ProviderRef, c.now)];
      }
      if (m.State === 'SUBMITTED' || m.State === 'ACCEPTED')
        return delivered(state, m, a.AttemptId, 'RECEIPT', c.ProviderRef, c.now);
      return ignored('NOT_APPLICABLE');
    case 'FAILED':
      if (m.State !== 'SUBMITTED' && m.State !== 'ACCEPTED') return ignored('NOT_APPLICABLE');
      return failed(state, m, a.AttemptId, {
        source: 'RECEIPT',
        definite: c.Retryable === true ? 'RETRYABLE' : 'PERMANENT',
        error: `the receiver reported FAILED${c.ProviderRef !== undefined ? ` (${c.ProviderRef})` : ''}`,
        now: c.now,
      });
  }
}

export const notificationDecider: Decider<NotificationCommand, NotificationEvent, NotificationState> = {
  initialState: () => ({ status: 'none' }),

  evolve: evolveNotification,

  decide(command, state) {
    if (command.type === 'Accept') {
      if (state.status !== 'none') return [];
      return [
        {
          type: 'NotificationAccepted',
          data: {
            Notification: command.notification,
            Messages: command.messages,
            Acknowledgement: command.acknowledgement,
          },
        },
      ];
    }
    const live = mustBeLive(state);
    switch (command.type) {
      case 'StartAttempt':
        return decideStart(live, command);
      case 'RecordOutcome':
        return decideOutcome(live, command);
      case 'ApplyReceipt':
        return decideReceipt(live, command);
      case 'RecordLostAttempt': {
        const m = messageOf(live, command.MessageId);
        const a = attemptOf(m, command.AttemptId);
        if (
          m.State !== 'SUBMITTED' ||
          m.ActiveAttemptId !== a.AttemptId ||
          a.Outcome !== undefined ||
          a.Evidence !== undefined
        )
          return [];
        return uncertain(
          m,
          a.AttemptId,
          'LOST',
          'the attempt has no outcome: the process stopped during the call (the receiver may have the work)',
          command.now,
        );
      }
      case 'PassReceiptDeadline': {
        const m = messageOf(live, command.MessageId);
        if (
          m.State !== 'ACCEPTED' ||
          m.DeliveryUncertain ||
          m.TrackingCompleted ||
          m.ReceiptDeadline === undefined ||
          m.ReceiptDeadline > command.now
        )
          return [];
        return uncertain(
          m,
          m.ActiveAttemptId!,
          'RECEIPT_DEADLINE',
          `no final receipt by the receipt deadline ${m.ReceiptDeadline}`,
          command.now,
        );
      }
      case 'Expire': {
        const m = messageOf(live, command.MessageId);
        if (!expiredAt(live, m, command.now)) return [];
        // ExpiresAt is the notification's: the role's waiting candidates expire with the one holding the turn
        const waiting = roleCandidates(live, m).filter((c) => c.State === 'WAITING');
        return [m, ...waiting].map(
          (x) => ({ type: 'MessageExpired', data: { MessageId: x.MessageId, At: command.now } }) as NotificationEvent,
        );
      }
      case 'StartManualAttempt':
      case 'CancelUnsent':
      case 'RecordManualReceipt':
      case 'CompleteRole':
        return decideOperator(live, command);
      case 'Housekeep':
        return decideHousekeep(live, command);
      case 'SuppressByPolicy':
      case 'DeferForQuietHours':
        return decideGateCommand(live, command);
    }
  },
};
