import { hubError } from './hub.errors.ts';
import { progressOf } from './message-work.ts';
import type { Live } from './notification.chain.ts';
import type { NotificationEvent } from './notification.model.ts';

/**
 * Housekeeping of completed notifications (spec "Housekeeping (batch job): removes eligible completed
 * notification aggregates … Active attempts, pending retries and uncertain outcomes are excluded"). The
 * log is never deleted: removal from the read side is the event `NotificationHousekept` on the
 * notification's stream, which the projections keeping rows per notification apply as a delete (so a
 * rebuild removes them again). The job (commands/hub/housekeeping.job.ts) asks this verdict before it
 * archives, and the decider asks it again on the state the append is made on: a receipt that came in
 * between makes the notification ineligible, never half-removed.
 *
 * Completed: every message settled (terminal, a final failure, or handed off under ACCEPTANCE_ONLY; none
 * uncertain: message-work progressOf), and its last change (the newest message UpdatedAt) before the
 * retention cutoff.
 */
export type HousekeepingReason =
  | 'ALREADY_REMOVED'
  | 'UNCERTAIN'
  | 'ACTIVE_ATTEMPT'
  | 'PENDING_RETRY'
  | 'NOT_COMPLETED'
  | 'WITHIN_RETENTION';
export type HousekeepingVerdict =
  | { Eligible: true; CompletedAt: string }
  | { Eligible: false; Reason: HousekeepingReason; CompletedAt?: string };

export type HousekeepingCommand = { type: 'Housekeep'; cutoff: string; ArchivedTo?: string; now: string };

export function housekeepingVerdict(state: Live, cutoff: string): HousekeepingVerdict {
  if (state.housekeptAt !== undefined) return { Eligible: false, Reason: 'ALREADY_REMOVED' };
  const messages = state.order.map((id) => state.messages[id]!);
  if (messages.some((m) => m.DeliveryUncertain)) return { Eligible: false, Reason: 'UNCERTAIN' };
  if (messages.some((m) => m.State === 'SUBMITTED')) return { Eligible: false, Reason: 'ACTIVE_ATTEMPT' };
  if (messages.some((m) => m.State === 'FAILED' && m.NextRetryTime !== undefined))
    return { Eligible: false, Reason: 'PENDING_RETRY' };
  if (!progressOf(state).Completed) return { Eligible: false, Reason: 'NOT_COMPLETED' };
  const completedAt = messages.reduce(
    (max, m) => (m.UpdatedAt > max ? m.UpdatedAt : max),
    state.notification.AcceptedAt,
  );
  if (completedAt >= cutoff) return { Eligible: false, Reason: 'WITHIN_RETENTION', CompletedAt: completedAt };
  return { Eligible: true, CompletedAt: completedAt };
}

export function decideHousekeep(state: Live, c: HousekeepingCommand): NotificationEvent[] {
  const v = housekeepingVerdict(state, c.cutoff);
  if (!v.Eligible) {
    if (v.Reason === 'ALREADY_REMOVED') return [];
    throw hubError(
      'HOUSEKEEPING.NOT_ELIGIBLE',
      `notification ${state.notification.NotificationId} is not eligible for housekeeping: ${v.Reason}`,
      { NotificationId: state.notification.NotificationId, Reason: v.Reason },
    );
  }
  const NotificationId = state.notification.NotificationId;
  return [
    {
      type: 'NotificationHousekept',
      data: { NotificationId, ...(c.ArchivedTo !== undefined && { ArchivedTo: c.ArchivedTo }), At: c.now },
    },
  ];
}
