import type { MessageState } from './notification.model.ts';

/**
 * The message state transitions the hub makes, each traced to a row of the spec's message state table
 * ("Communication hub: message states"), or to a decision where the table is silent. The property test
 * (spec/domain/hub/message-states.property.spec.ts) drives random receiver behaviour through the decider
 * and checks every transition against this list.
 *
 * Part 1 (this issue):
 * - PLANNED/SCHEDULED → SUBMITTED: claim for dispatch, state, turn, due time and expiry pass (policy
 *   checks are part 2's); a new attempt with a new ClientRequestId and CallbackId, ActiveAttemptId
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
 * Part 2 adds: → SUPPRESSED by a policy at claim, manual retries, cancellation, quiet hours.
 */
export const ALLOWED_TRANSITIONS: Readonly<Record<MessageState, readonly MessageState[]>> = {
  PLANNED: ['SUBMITTED', 'EXPIRED'],
  SCHEDULED: ['SUBMITTED', 'EXPIRED'],
  WAITING: ['PLANNED', 'SCHEDULED', 'SUPPRESSED', 'EXPIRED'],
  SUBMITTED: ['SUBMITTED', 'ACCEPTED', 'FAILED', 'DELIVERED'],
  ACCEPTED: ['ACCEPTED', 'DELIVERED', 'FAILED'],
  FAILED: ['SUBMITTED', 'EXPIRED'],
  DELIVERED: [],
  SUPPRESSED: [],
  CANCELLED: [],
  EXPIRED: [],
};

/** SUBMITTED → DELIVERED only from an uncertain submission (the table's "uncertain | late receipt DELIVERED") */
export const isAllowed = (from: MessageState, to: MessageState, uncertainBefore: boolean): boolean =>
  ALLOWED_TRANSITIONS[from].includes(to) && !(from === 'SUBMITTED' && to === 'DELIVERED' && !uncertainBefore);
