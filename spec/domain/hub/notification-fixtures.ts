// Fixtures for the notification decider's specs (not a spec itself): an accepted notification with
// messages, and the commands a worker and a receiver issue.

import type { Outcome } from '../../../domain/hub/classification.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type Strategy } from '../../../domain/hub/config.model.ts';
import type { NotificationCommand } from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent, PlannedMessage } from '../../../domain/hub/notification.model.ts';

export const NID = '11111111-2222-5333-8444-555555555555';
export const T0 = '2026-03-01T10:00:00.000Z';
export const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
export const mid = (n: number) => `${NID}.m${n}`;

export function planned(n: number, o: Partial<PlannedMessage> = {}): PlannedMessage {
  return {
    MessageId: mid(n),
    RuleId: `code:1:r${n}`,
    Role: 'Customer',
    Channel: n === 1 ? 'EMAIL' : n === 2 ? 'SMS' : `CH${n}`,
    OrderNo: n,
    Strategy: 'ALL',
    State: 'PLANNED',
    Recipient: { RecipientId: 'C-1', Address: 'a@example.com' },
    ServiceId: `svc-${n}`,
    DueAt: T0,
    RetryPolicy: DEFAULT_RETRY_POLICY,
    Policies: { PreferencePolicy: 'RESPECT', FrequencyCapPolicy: 'RESPECT', QuietHoursPolicy: 'RESPECT' },
    ReceiptMode: 'FINAL_RESULT',
    ReceiptTimeoutSeconds: 3600,
    ...o,
  };
}

/** `count` messages of one role under `strategy` (FALLBACK: the first PLANNED, the rest WAITING) */
export function acceptedEvent(
  o: {
    count?: number;
    strategy?: Strategy;
    expiresAt?: string;
    retry?: RetryPolicy;
    messages?: PlannedMessage[];
    receiptMode?: 'FINAL_RESULT' | 'ACCEPTANCE_ONLY';
  } = {},
): NotificationEvent {
  const count = o.count ?? 1;
  const strategy = o.strategy ?? 'ALL';
  const messages =
    o.messages ??
    Array.from({ length: count }, (_, i) =>
      planned(i + 1, {
        Strategy: strategy,
        State: strategy === 'FALLBACK' && i > 0 ? 'WAITING' : 'PLANNED',
        ...(o.retry !== undefined && { RetryPolicy: o.retry }),
        ...(o.receiptMode !== undefined && { ReceiptMode: o.receiptMode }),
        ...(o.receiptMode === 'ACCEPTANCE_ONLY' && { ReceiptTimeoutSeconds: undefined }),
      }),
    );
  return {
    type: 'NotificationAccepted',
    data: {
      Notification: {
        NotificationId: NID,
        RequestId: 'r-1',
        RequestHash: 'h',
        SnapshotId: 'snap-1',
        DefinitionId: 'code:1',
        NotificationCode: 'code',
        Version: 1,
        NotificationClass: 'TRANSACTIONAL',
        TimeZone: 'UTC',
        Payload: {},
        Attachments: [],
        AcceptedAt: T0,
        ...(o.expiresAt !== undefined && { ExpiresAt: o.expiresAt }),
      },
      Messages: messages,
      Acknowledgement: { NotificationId: NID, RequestId: 'r-1', SnapshotId: 'snap-1', AcceptedAt: T0, Messages: [] },
    },
  };
}

export const cb = (n: number, attempt: number) => `acme.${mid(n)}.a${attempt}.RANDOMRANDOMRANDOM${attempt}`;
export const aid = (n: number, attempt: number) => `att-${n}-${attempt}`;

export const start = (n: number, attempt: number, now = T0): NotificationCommand => ({
  type: 'StartAttempt',
  MessageId: mid(n),
  AttemptId: aid(n, attempt),
  ClientRequestId: `crid-${n}-${attempt}`,
  CallbackId: cb(n, attempt),
  Kind: 'AUTO',
  OutcomeDueBy: new Date(Date.parse(now) + 60_000).toISOString(),
  now,
});

export const started = (n: number, attempt: number, now = T0): NotificationEvent => ({
  type: 'AttemptStarted',
  data: {
    MessageId: mid(n),
    AttemptId: aid(n, attempt),
    AttemptNo: attempt,
    Kind: 'AUTO',
    ClientRequestId: `crid-${n}-${attempt}`,
    CallbackId: cb(n, attempt),
    ServiceId: `svc-${n}`,
    OutcomeDueBy: new Date(Date.parse(now) + 60_000).toISOString(),
    At: now,
  },
});

export const outcome = (n: number, attempt: number, o: Outcome, now = T0): NotificationCommand => ({
  type: 'RecordOutcome',
  MessageId: mid(n),
  AttemptId: aid(n, attempt),
  outcome: o,
  now,
});
export const receipt = (
  n: number,
  attempt: number,
  Status: 'ACCEPTED' | 'DELIVERED' | 'FAILED',
  now = T0,
  extra: { ProviderRef?: string; Retryable?: boolean } = {},
): NotificationCommand => ({
  type: 'ApplyReceipt',
  CallbackId: cb(n, attempt),
  MessageId: mid(n),
  Status,
  ...extra,
  now,
});

export const OK: Outcome = { kind: 'ACCEPTED', httpStatus: 200 };
export const REJECT: Outcome = { kind: 'REJECTED', reason: 'the receiver answered 400', httpStatus: 400 };
export const RETRY: Outcome = { kind: 'RETRYABLE', reason: 'the receiver answered 429', httpStatus: 429 };
export const UNKNOWN: Outcome = {
  kind: 'UNCERTAIN',
  reason: 'the receiver answered 500',
  cause: 'SERVER_ERROR',
  httpStatus: 500,
};
