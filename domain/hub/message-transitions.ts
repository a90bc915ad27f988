import type { MessageState } from './notification.model.ts';

/**
 * The message state transitions the hub makes, each traced to a row of the spec's message state table
 * ("Communication hub: message states"), or to a decision where the table is silent. The property test
 * (spec/domain/hub/message-states.property.spec.ts) drives random receiver behaviour through the decider
 * and checks every transition against this list.
 *
 * Dispatch and receipts:
 * - PLANNED/SCHEDULED → SUBMITTED: claim for dispatch, state, turn, due time and expiry pass (policy
 *   checks: below); a new attempt with a new ClientRequestId and CallbackId, ActiveAttemptId
 *   recorded before the call.
 * - PLANNED/SCHEDULED → EXPIRED: the claim finds ExpiresAt reached (expiry "is rechecked when the worker
 *   claims due work"); FAILED with a pending retry → EXPIRED likewise.
 * - WAITING → PLANNED/SCHEDULED: fallback promotion after the turn holder's definite final failure.
 * - WAITING → SUPPRESSED: the role completed (success stops the remaining candidates).
 * - WAITING → EXPIRED: decided here: ExpiresAt is the notification's, so the role's waiting candidates
 *   expire with the candidate holding the turn (none of them could be sent any more).
 * - SUBMITTED → ACCEPTED (2xx, or an ACCEPTED receipt), → FAILED (4xx≠429 permanent; 429 or a connect
 *   failure retryable; a FAILED receipt), → SUBMITTED with DeliveryUncertain (5xx, read timeout, reset,
 *   an attempt lost with its worker: "state after an unknown outcome: not shown", the hub keeps SUBMITTED).
 * - SUBMITTED (uncertain) → ACCEPTED / DELIVERED / FAILED: late receipts for the current attempt.
 * - SUBMITTED (not uncertain) → ACCEPTED → DELIVERED: decided here: a DELIVERED receipt that overtakes the
 *   submission's own answer is applied as acceptance then delivery (two table rows in one append).
 * - ACCEPTED → DELIVERED: DELIVERED receipt for the current attempt. ACCEPTED → ACCEPTED with
 *   DeliveryUncertain: the receipt deadline passed (FINAL_RESULT).
 * - ACCEPTED → FAILED: decided here: a receiver that took the work may later report a definite failure
 *   (the receiver contract forbids it only "while its own sends continue").
 * - FAILED → SUBMITTED: a due retry claim (backed by a failed attempt, budget left, not expired, not
 *   uncertain, owning the turn).
 *
 * Customer and timing controls (domain/hub/dispatch-gate.ts, notification.gate.decide.ts):
 * - PLANNED / SCHEDULED → SUPPRESSED: "PLANNED or SCHEDULED | claim | a policy denies (preference, cap) |
 *   SUPPRESSED | no attempt created"; FAILED with a pending retry → SUPPRESSED likewise ("any non-terminal |
 *   condition or policy outcome | SUPPRESSED").
 * - PLANNED / SCHEDULED → SCHEDULED (due time moved): "SCHEDULED | due-time sweep or quiet-hours release |
 *   release time before ExpiresAt | remains SCHEDULED until a claim passes | quiet hours move the due time".
 * - FAILED → FAILED (later NextRetryTime): quiet hours "keep retries FAILED with a later due time".
 *
 * Operator actions (domain/hub/notification.operator.decide.ts):
 * - FAILED → SUBMITTED: "FAILED | manual retry | eligible; one explicit action | SUBMITTED | exactly one
 *   MANUAL attempt" (only after the automatic cycle ended: FinalFailure; not uncertain, not expired, the
 *   role's turn free).
 * - PLANNED / SCHEDULED / WAITING / FAILED with a pending retry → CANCELLED: "unsent work | operator or
 *   chain control | eligible, not in flight | CANCELLED".
 * - PLANNED / SCHEDULED / WAITING / FAILED with a pending retry → SUPPRESSED (ROLE_COMPLETED_BY_OPERATOR):
 *   "any non-terminal | condition or policy outcome | SUPPRESSED | includes remaining candidates after role
 *   completion" (the operator completed the role).
 * - SUBMITTED (uncertain) / ACCEPTED → DELIVERED or FAILED by a manual receipt: the "uncertain | late
 *   receipt DELIVERED" and "uncertain | definite FAILED receipt" rows with operator evidence (Source
 *   MANUAL; "an operator-verified failure does not restart automatic retry").
 */
export const ALLOWED_TRANSITIONS: Readonly<Record<MessageState, readonly MessageState[]>> = {
  PLANNED: ['SUBMITTED', 'EXPIRED', 'CANCELLED', 'SUPPRESSED', 'SCHEDULED'],
  SCHEDULED: ['SUBMITTED', 'EXPIRED', 'CANCELLED', 'SUPPRESSED', 'SCHEDULED'],
  WAITING: ['PLANNED', 'SCHEDULED', 'SUPPRESSED', 'EXPIRED', 'CANCELLED'],
  SUBMITTED: ['SUBMITTED', 'ACCEPTED', 'FAILED', 'DELIVERED'],
  ACCEPTED: ['ACCEPTED', 'DELIVERED', 'FAILED'],
  FAILED: ['SUBMITTED', 'EXPIRED', 'CANCELLED', 'SUPPRESSED', 'FAILED'],
  DELIVERED: [],
  SUPPRESSED: [],
  CANCELLED: [],
  EXPIRED: [],
};

/** SUBMITTED → DELIVERED only from an uncertain submission (the table's "uncertain | late receipt DELIVERED") */
export const isAllowed = (from: MessageState, to: MessageState, uncertainBefore: boolean): boolean =>
  ALLOWED_TRANSITIONS[from].includes(to) && !(from === 'SUBMITTED' && to === 'DELIVERED' && !uncertainBefore);
