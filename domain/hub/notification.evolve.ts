import type { Attempt, Message, NotificationEvent, NotificationState } from './notification.model.ts';

/**
 * The notification's state from its events (the decider's `evolve`, notification.decider.ts): messages
 * with their attempts, the active attempt, the retry time, the receipt deadline and the DeliveryUncertain
 * and TrackingCompleted attributes. Every event after the acceptance names the one message it changes.
 */
export function evolveNotification(state: NotificationState, event: NotificationEvent): NotificationState {
  if (event.type === 'NotificationAccepted') {
    const { Notification, Messages, Acknowledgement } = event.data;
    const messages: Record<string, Message> = {};
    for (const p of Messages) {
      messages[p.MessageId] = {
        ...p,
        Attempts: [],
        AutoAttempts: 0,
        DeliveryUncertain: false,
        TrackingCompleted: false,
        FinalFailure: p.State === 'FAILED',
        UpdatedAt: Notification.AcceptedAt,
      };
    }
    return {
      status: 'accepted',
      notification: Notification,
      acknowledgement: Acknowledgement,
      messages,
      order: Messages.map((p) => p.MessageId),
    };
  }
  if (state.status !== 'accepted') return state;
  if (event.type === 'NotificationHousekept') return { ...state, housekeptAt: event.data.At };
  const m = state.messages[event.data.MessageId];
  if (m === undefined) return state;
  const at = event.data.At;
  const withAttempt = (id: string, f: (a: Attempt) => Attempt) =>
    m.Attempts.map((a) => (a.AttemptId === id ? f(a) : a));
  let next: Message;
  switch (event.type) {
    case 'AttemptStarted': {
      const d = event.data;
      const attempt: Attempt = {
        AttemptId: d.AttemptId,
        AttemptNo: d.AttemptNo,
        Kind: d.Kind,
        ClientRequestId: d.ClientRequestId,
        CallbackId: d.CallbackId,
        ServiceId: d.ServiceId,
        StartedAt: at,
        ...(d.OutcomeDueBy !== undefined && { OutcomeDueBy: d.OutcomeDueBy }),
      };
      const { NextRetryTime: _n, ReceiptDeadline: _r, ...rest } = m;
      next = {
        ...rest,
        State: 'SUBMITTED',
        ActiveAttemptId: d.AttemptId,
        Attempts: [...m.Attempts, attempt],
        AutoAttempts: m.AutoAttempts + (d.Kind === 'AUTO' ? 1 : 0),
        DeliveryUncertain: false,
        UpdatedAt: at,
      };
      break;
    }
    case 'MessageAccepted': {
      const d = event.data;
      const { ReceiptDeadline: _r, ...rest } = m;
      next = {
        ...rest,
        State: 'ACCEPTED',
        Attempts: withAttempt(d.AttemptId, (a) => ({
          ...a,
          ...(d.Source === 'RESPONSE'
            ? {
                Outcome: 'ACCEPTED' as const,
                OutcomeAt: at,
                ...(d.HttpStatus !== undefined && { HttpStatus: d.HttpStatus }),
              }
            : { Evidence: 'ACCEPTED' as const }),
        })),
        DeliveryUncertain: false,
        TrackingCompleted: d.TrackingCompleted,
        ...(d.ReceiptDeadline !== undefined && { ReceiptDeadline: d.ReceiptDeadline }),
        UpdatedAt: at,
      };
      break;
    }
    case 'MessageDelivered': {
      const d = event.data;
      const { ReceiptDeadline: _r, ...rest } = m;
      next = {
        ...rest,
        State: 'DELIVERED',
        Attempts: withAttempt(d.AttemptId, (a) => ({
          ...a,
          Evidence: 'DELIVERED',
          ...(d.ProviderRef !== undefined && { ProviderRef: d.ProviderRef }),
        })),
        DeliveryUncertain: false,
        ...(d.ProviderRef !== undefined && { ProviderRef: d.ProviderRef }),
        UpdatedAt: at,
      };
      break;
    }
    case 'MessageFailed': {
      const d = event.data;
      const { ReceiptDeadline: _r, NextRetryTime: _n, ...rest } = m;
      next = {
        ...rest,
        State: 'FAILED',
        Attempts: withAttempt(d.AttemptId, (a) =>
          d.Source === 'RESPONSE'
            ? {
                ...a,
                Outcome: d.Definite === 'PERMANENT' ? 'REJECTED' : 'RETRYABLE',
                OutcomeAt: at,
                Error: d.Error,
                ...(d.HttpStatus !== undefined && { HttpStatus: d.HttpStatus }),
              }
            : { ...a, Evidence: 'FAILED', Error: d.Error },
        ),
        DeliveryUncertain: false,
        ...(d.NextRetryTime !== undefined && { NextRetryTime: d.NextRetryTime }),
        FinalFailure: d.Final,
        LastError: d.Error,
        UpdatedAt: at,
      };
      break;
    }
    case 'MessageUncertain': {
      const d = event.data;
      const { NextRetryTime: _n, ...rest } = m;
      next = {
        ...rest,
        Attempts:
          d.Cause === 'RECEIPT_DEADLINE'
            ? m.Attempts
            : withAttempt(d.AttemptId, (a) => ({
                ...a,
                Outcome: d.Cause === 'LOST' ? 'LOST' : 'UNCERTAIN',
                OutcomeAt: at,
                ...(d.Error !== undefined && { Error: d.Error }),
                ...(d.HttpStatus !== undefined && { HttpStatus: d.HttpStatus }),
              })),
        DeliveryUncertain: true,
        ...(d.Error !== undefined && { LastError: d.Error }),
        UpdatedAt: at,
      };
      break;
    }
    case 'MessagePromoted':
      next = { ...m, State: event.data.State, UpdatedAt: at };
      break;
    case 'MessageSuppressed': {
      // a FAILED message with a pending retry may be suppressed too (chain control): its retry goes
      const { NextRetryTime: _n, ...rest } = m;
      next = { ...rest, State: 'SUPPRESSED', Reason: event.data.Reason, UpdatedAt: at };
      break;
    }
    case 'MessageCancelled': {
      const { NextRetryTime: _n, ...rest } = m;
      next = { ...rest, State: 'CANCELLED', Reason: event.data.Reason, UpdatedAt: at };
      break;
    }
    case 'MessageDeferred':
      next =
        event.data.Work === 'dispatch'
          ? { ...m, State: 'SCHEDULED', DueAt: event.data.Until, UpdatedAt: at }
          : { ...m, NextRetryTime: event.data.Until, UpdatedAt: at };
      break;
    case 'MessageExpired': {
      const { NextRetryTime: _n, ...rest } = m;
      next = { ...rest, State: 'EXPIRED', UpdatedAt: at };
      break;
    }
    case 'AttemptObserved':
    case 'ReceiptIgnored':
    case 'AlertRaised':
      next = { ...m, UpdatedAt: at };
      break;
  }
  return { ...state, messages: { ...state.messages, [m.MessageId]: next } };
}
