import { hubError } from './hub.errors.ts';
import { type Live, messageOf, roleCandidates, roleComplete } from './notification.chain.ts';
import type { Message, NotificationEvent } from './notification.model.ts';

/** why the dispatch gate suppressed a message (spec "Errors": FREQUENCY_IDENTITY_MISSING; the others ours) */
export type SuppressionReason =
  | 'PREFERENCE_OPTED_OUT'
  | 'PREFERENCE_NOT_ALLOWED'
  | 'FREQUENCY_CAP_EXCEEDED'
  | 'FREQUENCY_IDENTITY_MISSING';

/**
 * The notification commands of the dispatch gate's denials (domain/hub/dispatch-gate.ts), decided on the
 * notification's stream:
 *
 * - SuppressByPolicy: PLANNED or SCHEDULED (spec row "PLANNED or SCHEDULED | claim | a policy denies
 *   (preference, cap) | SUPPRESSED | no attempt created"), and FAILED with a pending automatic retry (row
 *   "any non-terminal | condition or policy outcome | SUPPRESSED"): SUPPRESSED with the reason, no attempt.
 *   Under FALLBACK the suppressed candidate held the role's turn and will never deliver: the next WAITING
 *   candidate gets the turn (decided here: the table advances only on a definite final failure, but a
 *   suppressed candidate holding the turn forever would leave the role stuck; the promoted candidate
 *   still passes the whole gate itself). No dead-letter alert: a policy outcome is not a failure.
 * - DeferForQuietHours: PLANNED or SCHEDULED stays (or becomes) SCHEDULED with its due time moved to the
 *   release (row "SCHEDULED | quiet-hours release | ... | quiet hours move the due time"); FAILED with a
 *   pending retry stays FAILED with a later NextRetryTime ("keep retries FAILED with a later due time").
 */
export type GateCommand =
  | { type: 'SuppressByPolicy'; MessageId: string; Reason: SuppressionReason; now: string }
  | { type: 'DeferForQuietHours'; MessageId: string; Until: string; now: string };

const pendingRetry = (m: Message) =>
  m.State === 'FAILED' && m.NextRetryTime !== undefined && !m.DeliveryUncertain && !m.FinalFailure;
const unsent = (m: Message) => m.State === 'PLANNED' || m.State === 'SCHEDULED';

export function decideGateCommand(state: Live, c: GateCommand): NotificationEvent[] {
  const m = messageOf(state, c.MessageId);
  switch (c.type) {
    case 'SuppressByPolicy': {
      if (m.State === 'SUPPRESSED' && m.Reason === c.Reason) return [];
      if (!unsent(m) && !pendingRetry(m)) {
        throw hubError(
          'MESSAGE.STATE_CONFLICT',
          `message ${m.MessageId} is ${m.State}: a policy suppresses only unsent work or a pending retry`,
          { MessageId: m.MessageId, State: m.State },
        );
      }
      const events: NotificationEvent[] = [
        { type: 'MessageSuppressed', data: { MessageId: m.MessageId, Reason: c.Reason, At: c.now } },
      ];
      const candidates = roleCandidates(state, m);
      const next = roleComplete(candidates) ? undefined : candidates.find((x) => x.State === 'WAITING');
      if (next !== undefined)
        events.push({
          type: 'MessagePromoted',
          data: {
            MessageId: next.MessageId,
            State: next.DueAt > c.now ? 'SCHEDULED' : 'PLANNED',
            DueAt: next.DueAt,
            After: m.MessageId,
            At: c.now,
          },
        });
      return events;
    }
    case 'DeferForQuietHours': {
      if (c.Until <= c.now)
        throw hubError('MESSAGE.STATE_CONFLICT', 'a quiet-hours release must be later than now', {
          MessageId: m.MessageId,
          Until: c.Until,
        });
      if (unsent(m)) {
        if (m.State === 'SCHEDULED' && m.DueAt === c.Until) return [];
        return [
          {
            type: 'MessageDeferred',
            data: { MessageId: m.MessageId, Work: 'dispatch', Until: c.Until, Reason: 'QUIET_HOURS', At: c.now },
          },
        ];
      }
      if (pendingRetry(m)) {
        if (m.NextRetryTime === c.Until) return [];
        return [
          {
            type: 'MessageDeferred',
            data: { MessageId: m.MessageId, Work: 'retry', Until: c.Until, Reason: 'QUIET_HOURS', At: c.now },
          },
        ];
      }
      throw hubError(
        'MESSAGE.STATE_CONFLICT',
        `message ${m.MessageId} is ${m.State}: quiet hours defer only unsent work or a pending retry`,
        { MessageId: m.MessageId, State: m.State },
      );
    }
  }
}
