import { hubError } from './hub.errors.ts';
import type { Message, NotificationEvent, NotificationState } from './notification.model.ts';

/**
 * A role's chain of candidates (spec "Fallback"), shared by the notification decider and the decide files
 * of its commands (notification.operator.decide.ts, notification.gate.decide.ts) without an import cycle.
 */
export type Live = Extract<NotificationState, { status: 'accepted' }>;

/** the FALLBACK candidates of the message's role, in OrderNo order (empty for ALL) */
export function roleCandidates(state: Live, m: Message): Message[] {
  if (m.Strategy !== 'FALLBACK') return [];
  return state.order
    .map((id) => state.messages[id]!)
    .filter((x) => x.Role === m.Role && x.Strategy === 'FALLBACK')
    .sort((a, b) => a.OrderNo - b.OrderNo || state.order.indexOf(a.MessageId) - state.order.indexOf(b.MessageId));
}

/** the role is complete: a candidate was delivered, or handed off under ACCEPTANCE_ONLY */
export const roleComplete = (candidates: Message[]) =>
  candidates.some((c) => c.State === 'DELIVERED' || (c.State === 'ACCEPTED' && c.TrackingCompleted));

/** success stops the remaining candidates (spec "Fallback"): the waiting ones are suppressed */
export function afterRoleCompleted(state: Live, m: Message, now: string): NotificationEvent[] {
  return roleCandidates(state, m)
    .filter((c) => c.MessageId !== m.MessageId && c.State === 'WAITING')
    .map((c) => ({ type: 'MessageSuppressed', data: { MessageId: c.MessageId, Reason: 'ROLE_COMPLETED', At: now } }));
}

/**
 * A definite final failure: the next waiting candidate of a FALLBACK role gets the turn (PLANNED, or
 * SCHEDULED while its SendAt is ahead); with none left (or under ALL) the failure is a dead-letter
 * condition, recorded as an alert (commands/hub/alert.publisher.ts publishes it to the event bridge).
 */
export function afterFinalFailure(
  state: Live,
  m: Message,
  reason: string,
  attemptId: string | undefined,
  now: string,
): NotificationEvent[] {
  const candidates = roleCandidates(state, m);
  const next = roleComplete(candidates) ? undefined : candidates.find((c) => c.State === 'WAITING');
  if (next !== undefined)
    return [
      {
        type: 'MessagePromoted',
        data: {
          MessageId: next.MessageId,
          State: next.DueAt > now ? 'SCHEDULED' : 'PLANNED',
          DueAt: next.DueAt,
          After: m.MessageId,
          At: now,
        },
      },
    ];
  return [
    {
      type: 'AlertRaised',
      data: {
        MessageId: m.MessageId,
        ...(attemptId !== undefined && { AttemptId: attemptId }),
        Classification: 'DEFINITE_FINAL_FAILURE',
        Reason: reason,
        At: now,
      },
    },
  ];
}

/** the AttemptStarted of a new physical attempt (automatic or manual): its number follows the message's attempts */
export function attemptStarted(
  m: Message,
  a: {
    AttemptId: string;
    ClientRequestId: string;
    CallbackId: string;
    ServiceId: string;
    OutcomeDueBy: string;
    now: string;
  },
  kind: 'AUTO' | 'MANUAL',
  reason?: string,
): NotificationEvent {
  return {
    type: 'AttemptStarted',
    data: {
      MessageId: m.MessageId,
      AttemptId: a.AttemptId,
      AttemptNo: m.Attempts.length + 1,
      Kind: kind,
      ClientRequestId: a.ClientRequestId,
      CallbackId: a.CallbackId,
      ServiceId: a.ServiceId,
      OutcomeDueBy: a.OutcomeDueBy,
      ...(reason !== undefined && { Reason: reason }),
      At: a.now,
    },
  } as NotificationEvent;
}

/** the message of a notification, or 404 MESSAGE.NOT_FOUND */
export function messageOf(state: Live, messageId: string): Message {
  const m = state.messages[messageId];
  if (m === undefined)
    throw hubError('MESSAGE.NOT_FOUND', `no message ${messageId} in this notification`, { MessageId: messageId });
  return m;
}
