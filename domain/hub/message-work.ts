import type { Message, NotificationEvent, NotificationState } from './notification.model.ts';

/**
 * What automatic work a message has, and when (the one answer the dispatch projection and the dispatch
 * worker share: the projection turns it into a due item, the worker re-derives it from the stream at
 * claim time and acts on the stream's truth):
 *
 * - `dispatch` at DueAt: PLANNED or SCHEDULED (expired at claim: the message expires instead);
 * - `retry` at NextRetryTime: FAILED with a pending automatic retry (not uncertain);
 * - `lost-check` at the attempt's OutcomeDueBy: SUBMITTED, the active attempt without outcome (a worker
 *   that stopped during the call leaves it so: it becomes uncertain);
 * - `receipt-deadline` at ReceiptDeadline: ACCEPTED under FINAL_RESULT, waiting for the final receipt.
 *
 * Everything else (WAITING, terminal, uncertain, final failures, acceptance-only hand-offs) waits for a
 * receipt, a promotion or an operator: no due item.
 */
export type WorkKind = 'dispatch' | 'retry' | 'lost-check' | 'receipt-deadline';
export type MessageWork = { kind: WorkKind; at: string };

export function nextWork(m: Message): MessageWork | null {
  switch (m.State) {
    case 'PLANNED':
    case 'SCHEDULED':
      return { kind: 'dispatch', at: m.DueAt };
    case 'FAILED':
      return m.NextRetryTime !== undefined && !m.DeliveryUncertain && !m.FinalFailure
        ? { kind: 'retry', at: m.NextRetryTime }
        : null;
    case 'SUBMITTED': {
      if (m.DeliveryUncertain) return null;
      const a = m.Attempts.find((x) => x.AttemptId === m.ActiveAttemptId);
      if (a === undefined || a.Outcome !== undefined || a.Evidence !== undefined || a.OutcomeDueBy === undefined)
        return null;
      return { kind: 'lost-check', at: a.OutcomeDueBy };
    }
    case 'ACCEPTED':
      return !m.DeliveryUncertain && !m.TrackingCompleted && m.ReceiptDeadline !== undefined
        ? { kind: 'receipt-deadline', at: m.ReceiptDeadline }
        : null;
    default:
      return null;
  }
}

/**
 * The same answer read off one event, without the message's state: what the event leaves due for each
 * message it touches (null: nothing). The dispatch projection uses it (no per-notification state to keep);
 * the state-table property test checks it against nextWork after every event.
 */
export function workAfter(event: NotificationEvent): Array<{ messageId: string; work: MessageWork | null }> {
  switch (event.type) {
    case 'NotificationAccepted':
      return event.data.Messages.map((m) => ({
        messageId: m.MessageId,
        work: m.State === 'PLANNED' || m.State === 'SCHEDULED' ? { kind: 'dispatch', at: m.DueAt } : null,
      }));
    case 'AttemptStarted':
      return [
        {
          messageId: event.data.MessageId,
          work: event.data.OutcomeDueBy === undefined ? null : { kind: 'lost-check', at: event.data.OutcomeDueBy },
        },
      ];
    case 'MessageAccepted': {
      const d = event.data;
      return [
        {
          messageId: d.MessageId,
          work:
            !d.TrackingCompleted && d.ReceiptDeadline !== undefined
              ? { kind: 'receipt-deadline', at: d.ReceiptDeadline }
              : null,
        },
      ];
    }
    case 'MessageFailed':
      return [
        {
          messageId: event.data.MessageId,
          work: event.data.NextRetryTime !== undefined ? { kind: 'retry', at: event.data.NextRetryTime } : null,
        },
      ];
    case 'MessageDeferred':
      return [{ messageId: event.data.MessageId, work: { kind: event.data.Work, at: event.data.Until } }];
    case 'MessagePromoted':
      return [{ messageId: event.data.MessageId, work: { kind: 'dispatch', at: event.data.DueAt } }];
    case 'MessageDelivered':
    case 'MessageUncertain':
    case 'MessageSuppressed':
    case 'MessageExpired':
    case 'MessageCancelled':
      return [{ messageId: event.data.MessageId, work: null }];
    case 'AttemptObserved':
    case 'ReceiptIgnored':
    case 'AlertRaised':
    case 'NotificationHousekept':
      return [];
  }
}

/** the notification's live progress: counts by state, and whether anything is still pending */
export type Progress = {
  /** every message settled: terminal, a final failure, or handed off under ACCEPTANCE_ONLY; none uncertain */
  Completed: boolean;
  Counts: Record<string, number>;
  /** messages whose outcome is uncertain (verification needed) */
  Uncertain: number;
};

export function progressOf(state: Extract<NotificationState, { status: 'accepted' }>): Progress {
  const counts: Record<string, number> = {};
  let uncertain = 0;
  let pending = false;
  for (const id of state.order) {
    const m = state.messages[id]!;
    counts[m.State] = (counts[m.State] ?? 0) + 1;
    if (m.DeliveryUncertain) uncertain++;
    const settled =
      m.State === 'DELIVERED' ||
      m.State === 'SUPPRESSED' ||
      m.State === 'CANCELLED' ||
      m.State === 'EXPIRED' ||
      (m.State === 'FAILED' && m.FinalFailure) ||
      (m.State === 'ACCEPTED' && m.TrackingCompleted);
    if (!settled || m.DeliveryUncertain) pending = true;
  }
  return { Completed: !pending, Counts: counts, Uncertain: uncertain };
}
