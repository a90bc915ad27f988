import { hubError } from './hub.errors.ts';
import {
  afterFinalFailure,
  afterRoleCompleted,
  attemptStarted,
  type Live,
  messageOf,
  roleCandidates,
  roleComplete,
} from './notification.chain.ts';
import { type Message, type NotificationEvent, TERMINAL_STATES } from './notification.model.ts';

/**
 * Operator actions on a message (spec state table rows "FAILED | manual retry",
 * "unsent work | operator or chain control | → CANCELLED", "any non-terminal | condition or policy outcome |
 * → SUPPRESSED (includes remaining candidates after role completion)", "uncertain | definite FAILED receipt
 * | … an operator-verified failure does not restart automatic retry", Limits "Manual retry: each explicit
 * action authorizes at most one MANUAL attempt").
 *
 * One pure eligibility function per action answers both `GET /messages/actionEligibility` and the decider
 * (which rechecks at execution on the stream's state): what the screen showed and what the server does
 * cannot disagree. Decisions where the spec is silent (docs/hub.md#operator-actions):
 *
 * - RETRY: only a FAILED message the automatic cycle has given up on (FinalFailure: no retry pending), that
 *   was sent before (its content and service exist), not past ExpiresAt, whose role is not complete and
 *   whose fallback turn no other candidate holds. An uncertain outcome is verified first (a manual receipt),
 *   never retried blind: the receiver may have the work. A pending automatic retry is left to its cycle.
 *   The attempt is MANUAL: it does not count against the automatic budget and its failure never sets a
 *   NextRetryTime (notification.decider `failed`: retries only for AUTO attempts). The customer policies
 *   (dispatch gate) are checked by the caller with live data before the command: a denial creates nothing.
 * - CANCEL: unsent work (PLANNED, SCHEDULED, WAITING, FAILED with a pending automatic retry) → CANCELLED;
 *   cancelling the candidate that holds a FALLBACK role's turn cancels the role's WAITING candidates too
 *   (nothing could promote them any more). Per notification: every cancellable message.
 * - MANUAL_RECEIPT: operator evidence (VerificationReason, EvidenceReference) for the active attempt of a
 *   message whose outcome is open: uncertain (SUBMITTED or ACCEPTED with DeliveryUncertain) or ACCEPTED
 *   waiting for the final result. Ranked like receipts (DELIVERED / FAILED are final evidence): once the
 *   attempt has final evidence, from a receiver or an operator, none counts again. A verified FAILED is
 *   definite and final (no automatic retry); a FALLBACK role's next candidate takes the turn.
 * - COMPLETE_CHAIN: the operator completes the message's role: its unsent candidates are SUPPRESSED
 *   (ROLE_COMPLETED_BY_OPERATOR); sent ones keep their evidence.
 */
export type OperatorAction = 'RETRY' | 'CANCEL' | 'MANUAL_RECEIPT' | 'COMPLETE_CHAIN';

export type IneligibleReason =
  | 'TERMINAL'
  | 'ATTEMPT_IN_FLIGHT'
  | 'UNCERTAIN_VERIFY_FIRST'
  | 'AWAITING_RECEIPT'
  | 'AUTOMATIC_RETRY_PENDING'
  | 'NOT_FAILED'
  | 'NEVER_SENT'
  | 'EXPIRED'
  | 'ROLE_COMPLETED'
  | 'TURN_HELD'
  | 'NOTHING_UNSENT'
  | 'NO_ATTEMPT'
  | 'OUTCOME_FINAL'
  | 'TRACKING_COMPLETED';

export type Eligibility = { Eligible: true } | { Eligible: false; Reason: IneligibleReason; Message: string };

export type OperatorCommand =
  | {
      type: 'StartManualAttempt';
      MessageId: string;
      AttemptId: string;
      ClientRequestId: string;
      CallbackId: string;
      /** when the attempt still without outcome counts as lost (the process stopped during the call) */
      OutcomeDueBy: string;
      Reason: string;
      now: string;
    }
  /** MessageId absent: every cancellable message of the notification */
  | { type: 'CancelUnsent'; MessageId?: string; Reason: string; now: string }
  | {
      type: 'RecordManualReceipt';
      MessageId: string;
      Status: 'DELIVERED' | 'FAILED';
      VerificationReason: string;
      EvidenceReference?: string;
      now: string;
    }
  | { type: 'CompleteRole'; MessageId: string; Reason: string; now: string };

const ELIGIBLE: Eligibility = { Eligible: true };
const no = (Reason: IneligibleReason, Message: string): Eligibility => ({ Eligible: false, Reason, Message });

/** in flight: the active attempt's call has no answer yet (and it is not uncertain) */
const inFlight = (m: Message) => m.State === 'SUBMITTED' && !m.DeliveryUncertain;
/** unsent work the automatic machinery still owns (the table's "unsent work") */
export const isUnsent = (m: Message) =>
  m.State === 'PLANNED' ||
  m.State === 'SCHEDULED' ||
  m.State === 'WAITING' ||
  (m.State === 'FAILED' && !m.FinalFailure && !m.DeliveryUncertain && m.NextRetryTime !== undefined);
/** a candidate holds the FALLBACK turn while its outcome is pending (spec "Fallback") */
const holdsTurn = (c: Message) =>
  c.State === 'PLANNED' ||
  c.State === 'SCHEDULED' ||
  c.State === 'SUBMITTED' ||
  (c.State === 'ACCEPTED' && !c.TrackingCompleted) ||
  (c.State === 'FAILED' && !c.FinalFailure);

const common = (m: Message): Eligibility | null =>
  TERMINAL_STATES.has(m.State) ? no('TERMINAL', `the message is ${m.State}`) : null;

export function retryEligibility(state: Live, m: Message, now: string): Eligibility {
  const c = common(m);
  if (c !== null) return c;
  if (m.DeliveryUncertain)
    return no(
      'UNCERTAIN_VERIFY_FIRST',
      'the outcome of the last attempt is uncertain: record the verified outcome (manual receipt) first',
    );
  if (inFlight(m)) return no('ATTEMPT_IN_FLIGHT', 'an attempt is in flight');
  if (m.State === 'ACCEPTED') return no('AWAITING_RECEIPT', 'the receiver accepted the work');
  if (m.State !== 'FAILED') return no('NOT_FAILED', `only a FAILED message can be retried (it is ${m.State})`);
  if (!m.FinalFailure)
    return no(
      'AUTOMATIC_RETRY_PENDING',
      `an automatic retry is pending${m.NextRetryTime !== undefined ? ` at ${m.NextRetryTime}` : ''}`,
    );
  if (m.Attempts.length === 0 || m.ServiceId === undefined)
    return no(
      'NEVER_SENT',
      `the message failed at preparation${m.Reason !== undefined ? ` (${m.Reason})` : ''}: it has nothing to send`,
    );
  const expires = state.notification.ExpiresAt;
  if (expires !== undefined && now >= expires) return no('EXPIRED', `the notification expired at ${expires}`);
  const candidates = roleCandidates(state, m);
  if (roleComplete(candidates)) return no('ROLE_COMPLETED', `role ${m.Role} is complete`);
  const holder = candidates.find((x) => x.MessageId !== m.MessageId && holdsTurn(x));
  if (holder !== undefined)
    return no('TURN_HELD', `candidate ${holder.MessageId} holds role ${m.Role}'s fallback turn (${holder.State})`);
  return ELIGIBLE;
}

export function cancelEligibility(m: Message): Eligibility {
  const c = common(m);
  if (c !== null) return c;
  if (isUnsent(m)) return ELIGIBLE;
  if (m.DeliveryUncertain)
    return no(
      'UNCERTAIN_VERIFY_FIRST',
      'the message was submitted and its outcome is uncertain: nothing unsent to cancel',
    );
  if (inFlight(m)) return no('ATTEMPT_IN_FLIGHT', 'an attempt is in flight');
  if (m.State === 'ACCEPTED') return no('AWAITING_RECEIPT', 'the receiver accepted the work: nothing unsent to cancel');
  return no('NOTHING_UNSENT', 'the message has failed finally: nothing unsent to cancel');
}

export function manualReceiptEligibility(m: Message): Eligibility {
  const c = common(m);
  if (c !== null) return c;
  const a = m.Attempts.find((x) => x.AttemptId === m.ActiveAttemptId);
  if (a === undefined) return no('NO_ATTEMPT', 'the message has no attempt to verify');
  if (m.TrackingCompleted) return no('TRACKING_COMPLETED', 'tracking completed at the ACCEPTANCE_ONLY hand-off');
  if (m.State === 'FAILED') return no('OUTCOME_FINAL', 'the last attempt already has a definite outcome (FAILED)');
  if (inFlight(m)) return no('ATTEMPT_IN_FLIGHT', 'the attempt is in flight: its answer is the evidence');
  if (m.State !== 'SUBMITTED' && m.State !== 'ACCEPTED') return no('NO_ATTEMPT', `no open outcome (${m.State})`);
  if (a.Evidence === 'DELIVERED' || a.Evidence === 'FAILED')
    return no('OUTCOME_FINAL', `the attempt already has final evidence (${a.Evidence})`);
  return ELIGIBLE;
}

export function completeChainEligibility(state: Live, m: Message): Eligibility {
  const unsent = roleMessages(state, m).filter(isUnsent);
  if (unsent.length === 0) return no('NOTHING_UNSENT', `role ${m.Role} has no unsent candidate`);
  return ELIGIBLE;
}

/** every message of the message's role (any strategy) */
const roleMessages = (state: Live, m: Message) =>
  state.order.map((id) => state.messages[id]!).filter((x) => x.Role === m.Role);

export function operatorEligibility(state: Live, m: Message, now: string): Record<OperatorAction, Eligibility> {
  return {
    RETRY: retryEligibility(state, m, now),
    CANCEL: cancelEligibility(m),
    MANUAL_RECEIPT: manualReceiptEligibility(m),
    COMPLETE_CHAIN: completeChainEligibility(state, m),
  };
}

/** an ineligible action: 409 OPERATOR.NOT_ELIGIBLE with the Reason */
export const refuse = (action: OperatorAction, m: Message, e: Eligibility) => {
  if (e.Eligible) return;
  throw hubError('OPERATOR.NOT_ELIGIBLE', `${action} is not possible: ${e.Message}`, {
    Action: action,
    MessageId: m.MessageId,
    State: m.State,
    Reason: e.Reason,
  });
};

function cancelOne(state: Live, m: Message, reason: string, now: string): NotificationEvent[] {
  const alsoWaiting =
    m.State === 'WAITING'
      ? []
      : roleCandidates(state, m).filter((c) => c.MessageId !== m.MessageId && c.State === 'WAITING');
  return [m, ...alsoWaiting].map(
    (x) =>
      ({ type: 'MessageCancelled', data: { MessageId: x.MessageId, Reason: reason, At: now } }) as NotificationEvent,
  );
}

export function decideOperator(state: Live, c: OperatorCommand): NotificationEvent[] {
  switch (c.type) {
    case 'StartManualAttempt': {
      const m = messageOf(state, c.MessageId);
      if (m.Attempts.some((a) => a.AttemptId === c.AttemptId)) return [];
      refuse('RETRY', m, retryEligibility(state, m, c.now));
      return [attemptStarted(m, { ...c, ServiceId: m.ServiceId! }, 'MANUAL', c.Reason)];
    }
    case 'CancelUnsent': {
      if (c.MessageId !== undefined) {
        const m = messageOf(state, c.MessageId);
        refuse('CANCEL', m, cancelEligibility(m));
        return cancelOne(state, m, c.Reason, c.now);
      }
      const events: NotificationEvent[] = [];
      const done = new Set<string>();
      for (const id of state.order) {
        const m = state.messages[id]!;
        if (done.has(id) || !cancelEligibility(m).Eligible) continue;
        for (const e of cancelOne(state, m, c.Reason, c.now)) {
          const mid = (e.data as { MessageId: string }).MessageId;
          if (done.has(mid)) continue;
          done.add(mid);
          events.push(e);
        }
      }
      if (events.length === 0)
        throw hubError('OPERATOR.NOT_ELIGIBLE', 'CANCEL is not possible: the notification has no unsent work', {
          Action: 'CANCEL',
          NotificationId: state.notification.NotificationId,
          Reason: 'NOTHING_UNSENT',
        });
      return events;
    }
    case 'RecordManualReceipt': {
      const m = messageOf(state, c.MessageId);
      refuse('MANUAL_RECEIPT', m, manualReceiptEligibility(m));
      const attemptId = m.ActiveAttemptId!;
      const Verification = {
        VerificationReason: c.VerificationReason,
        ...(c.EvidenceReference !== undefined && { EvidenceReference: c.EvidenceReference }),
      };
      if (c.Status === 'DELIVERED') {
        return [
          {
            type: 'MessageDelivered',
            data: { MessageId: m.MessageId, AttemptId: attemptId, Source: 'MANUAL', Verification, At: c.now },
          },
          ...afterRoleCompleted(state, m, c.now),
        ];
      }
      const error = `operator verified FAILED: ${c.VerificationReason}`;
      return [
        {
          type: 'MessageFailed',
          data: {
            MessageId: m.MessageId,
            AttemptId: attemptId,
            Source: 'MANUAL',
            Definite: 'PERMANENT',
            Error: error,
            Final: true,
            Verification,
            At: c.now,
          },
        },
        ...afterFinalFailure(state, m, error, attemptId, c.now),
      ];
    }
    case 'CompleteRole': {
      const m = messageOf(state, c.MessageId);
      refuse('COMPLETE_CHAIN', m, completeChainEligibility(state, m));
      return roleMessages(state, m)
        .filter(isUnsent)
        .map(
          (x) =>
            ({
              type: 'MessageSuppressed',
              data: { MessageId: x.MessageId, Reason: 'ROLE_COMPLETED_BY_OPERATOR', Note: c.Reason, At: c.now },
            }) as NotificationEvent,
        );
    }
  }
}
