import type { ContentType, Policy, ReceiptMode, RetryPolicy, Strategy, TemplateMode } from './config.model.ts';

/**
 * The notification aggregate (spec "Core concepts": notification, message, delivery attempt): one stream
 * per accepted send (`hubNotification-<tenant>.<NotificationId>`), NotificationId derived from the tenant
 * and RequestId. Messages and their attempts are entities of that stream: acceptance of the notification
 * and all its messages is one atomic append (EventStoreDB appends atomically to one stream only), and the
 * fallback turn of a role, decided across its messages, stays inside one consistency boundary. Every
 * later fact (attempt started, outcome, receipt, promotion) names its MessageId: the message timeline is
 * the stream's events for that message.
 */

export type MessageState =
  | 'PLANNED'
  | 'WAITING'
  | 'SCHEDULED'
  | 'SUBMITTED'
  | 'ACCEPTED'
  | 'DELIVERED'
  | 'FAILED'
  | 'SUPPRESSED'
  | 'CANCELLED'
  | 'EXPIRED';
export const MESSAGE_STATES: readonly MessageState[] = [
  'PLANNED',
  'WAITING',
  'SCHEDULED',
  'SUBMITTED',
  'ACCEPTED',
  'DELIVERED',
  'FAILED',
  'SUPPRESSED',
  'CANCELLED',
  'EXPIRED',
];
export const TERMINAL_STATES: ReadonlySet<MessageState> = new Set(['DELIVERED', 'SUPPRESSED', 'CANCELLED', 'EXPIRED']);

/** why a message was not sendable at acceptance (recorded, shown in the acknowledgement) */
export type PreparationReason =
  | 'CONDITION_NOT_MATCHED'
  | 'RECIPIENT_MISSING'
  | 'RECIPIENT_ID_REQUIRED'
  | 'LANGUAGE_MISSING'
  | 'TEMPLATE_NOT_AVAILABLE'
  | 'TEMPLATE_RENDER_FAILED'
  | 'RENDERED_TOO_LONG'
  | 'CHANNEL_NOT_REGISTERED'
  | 'SERVICE_NOT_AVAILABLE'
  | 'CHANNEL_NOT_SUPPORTED'
  | 'CONTENT_TYPE_NOT_SUPPORTED'
  | 'ATTACHMENTS_NOT_SUPPORTED';

export type Recipient = { RecipientId?: string; Address: string };

export type Attachment = { DocId: string; DeliveryMode?: string; ExpireDays?: number; RoleFilter?: string[] };

export type MessageContent = {
  TemplateMode: TemplateMode;
  TemplateId: string;
  TemplateCode: string;
  LanguageId: string;
  ContentType: ContentType;
  /** HUB_MANAGED: the rendered content */
  Subject?: string;
  BodyText?: string;
  BodyHtml?: string;
  /** PROVIDER_MANAGED: the variables the template names, for the provider to render */
  Parameters?: Record<string, unknown>;
};

export type EffectivePolicies = { PreferencePolicy: Policy; FrequencyCapPolicy: Policy; QuietHoursPolicy: Policy };

/** a message as acceptance prepared it */
export type PlannedMessage = {
  MessageId: string;
  RuleId: string;
  Role: string;
  Channel: string;
  OrderNo: number;
  /** the role's strategy (definition default or role override) */
  Strategy: Strategy;
  State: 'PLANNED' | 'WAITING' | 'SCHEDULED' | 'SUPPRESSED' | 'FAILED';
  /** SUPPRESSED and FAILED at acceptance: why */
  Reason?: PreparationReason;
  Diagnostics?: string[];
  Recipient?: Recipient;
  Content?: MessageContent;
  ServiceId?: string;
  /** earliest dispatch (SendAt, else acceptance) */
  DueAt: string;
  RetryPolicy: RetryPolicy;
  Policies: EffectivePolicies;
  /** frozen from the accepted snapshot's delivery service */
  ReceiptMode?: ReceiptMode;
  ReceiptTimeoutSeconds?: number;
  Attachments?: Attachment[];
};

export type AttemptKind = 'AUTO' | 'MANUAL';
/** a receipt's or an answer's evidence about one attempt, ranked: a later piece must outrank the earlier */
export type Evidence = 'ACCEPTED' | 'DELIVERED' | 'FAILED';

export type Attempt = {
  AttemptId: string;
  AttemptNo: number;
  Kind: AttemptKind;
  ClientRequestId: string;
  CallbackId: string;
  ServiceId: string;
  StartedAt: string;
  /** an attempt still without outcome after this is taken for lost (the process stopped during the call) */
  OutcomeDueBy?: string;
  /** what the submission itself observed (absent: in flight, or lost) */
  Outcome?: 'ACCEPTED' | 'REJECTED' | 'RETRYABLE' | 'UNCERTAIN' | 'LOST';
  OutcomeAt?: string;
  HttpStatus?: number;
  Error?: string;
  /** the strongest evidence applied so far (answer or receipt) */
  Evidence?: Evidence;
  ProviderRef?: string;
};

export type Message = Omit<PlannedMessage, 'State' | 'Reason'> & {
  State: MessageState;
  /** why it is SUPPRESSED or FAILED at acceptance (PreparationReason), or ROLE_COMPLETED */
  Reason?: string;
  Attempts: Attempt[];
  /** automatic attempts made (the retry budget counts these) */
  AutoAttempts: number;
  ActiveAttemptId?: string;
  NextRetryTime?: string;
  DeliveryUncertain: boolean;
  TrackingCompleted: boolean;
  ReceiptDeadline?: string;
  ProviderRef?: string;
  LastError?: string;
  /** a definite failure with no automatic retry left */
  FinalFailure: boolean;
  UpdatedAt: string;
};

export type NotificationRecord = {
  NotificationId: string;
  RequestId: string;
  /** SHA-256 of the normalized request: an equivalent replay has the same */
  RequestHash: string;
  SnapshotId: string;
  DefinitionId: string;
  NotificationCode: string;
  Version: number;
  NotificationClass: string;
  LanguageId?: string;
  SenderApp?: string;
  RefType?: string;
  RefNumber?: string;
  SendAt?: string;
  ExpiresAt?: string;
  OriginalNotificationId?: string;
  /** the tenant's time zone at acceptance (local times in answers) */
  TimeZone: string;
  /** the payload with the context definition's sensitive fields masked */
  Payload: Record<string, unknown>;
  Attachments: Attachment[];
  AcceptedAt: string;
};

/** the stored acknowledgement: a replay answers it as it was */
export type Acknowledgement = {
  NotificationId: string;
  RequestId: string;
  SnapshotId: string;
  AcceptedAt: string;
  Messages: Array<{
    MessageId: string;
    Role: string;
    Channel: string;
    State: PlannedMessage['State'];
    Reason?: PreparationReason;
  }>;
};

export type UncertainCause = 'SERVER_ERROR' | 'READ_TIMEOUT' | 'CONNECTION' | 'LOST' | 'RECEIPT_DEADLINE';
export type AlertClassification = 'DEFINITE_FINAL_FAILURE' | 'UNCERTAIN';
export type ReceiptStatus = 'ACCEPTED' | 'DELIVERED' | 'FAILED';
export type IgnoredReason =
  | 'SUPERSEDED'
  | 'DUPLICATE'
  | 'OUTRANKED'
  | 'NOT_APPLICABLE'
  | 'ALREADY_FINAL'
  | 'TRACKING_COMPLETED';
/** MANUAL: evidence an operator verified and recorded (a manual receipt, notification.operator.decide.ts) */
export type Source = 'RESPONSE' | 'RECEIPT' | 'MANUAL';
/** what backs a manual receipt (spec: the manual-receipt operation's fields VerificationReason and EvidenceReference) */
export type Verification = { VerificationReason: string; EvidenceReference?: string };

export type NotificationEvent =
  | {
      type: 'NotificationAccepted';
      data: { Notification: NotificationRecord; Messages: PlannedMessage[]; Acknowledgement: Acknowledgement };
    }
  | {
      type: 'AttemptStarted';
      data: {
        MessageId: string;
        AttemptId: string;
        AttemptNo: number;
        Kind: AttemptKind;
        ClientRequestId: string;
        CallbackId: string;
        ServiceId: string;
        OutcomeDueBy?: string;
        Reason?: string;
        At: string;
      };
    }
  | {
      type: 'MessageAccepted';
      data: {
        MessageId: string;
        AttemptId: string;
        Source: Source;
        HttpStatus?: number;
        ReceiptDeadline?: string;
        TrackingCompleted: boolean;
        At: string;
      };
    }
  | {
      type: 'MessageDelivered';
      data: {
        MessageId: string;
        AttemptId: string;
        Source: Source;
        ProviderRef?: string;
        Verification?: Verification;
        At: string;
      };
    }
  | {
      type: 'MessageFailed';
      data: {
        MessageId: string;
        AttemptId: string;
        Source: Source;
        Definite: 'PERMANENT' | 'RETRYABLE';
        Error: string;
        HttpStatus?: number;
        NextRetryTime?: string;
        Final: boolean;
        Verification?: Verification;
        At: string;
      };
    }
  | {
      type: 'MessageUncertain';
      data: {
        MessageId: string;
        AttemptId: string;
        Cause: UncertainCause;
        Error?: string;
        HttpStatus?: number;
        At: string;
      };
    }
  /** an answer that changes nothing (it came after a receipt, or for an attempt already settled) */
  | {
      type: 'AttemptObserved';
      data: { MessageId: string; AttemptId: string; Outcome: string; HttpStatus?: number; Error?: string; At: string };
    }
  | {
      type: 'ReceiptIgnored';
      data: {
        MessageId: string;
        AttemptId: string;
        CallbackId: string;
        Status: ReceiptStatus;
        ProviderRef?: string;
        Reason: IgnoredReason;
        At: string;
      };
    }
  | {
      type: 'MessagePromoted';
      data: { MessageId: string; State: 'PLANNED' | 'SCHEDULED'; DueAt: string; After: string; At: string };
    }
  | { type: 'MessageSuppressed'; data: { MessageId: string; Reason: string; Note?: string; At: string } }
  | { type: 'MessageExpired'; data: { MessageId: string; At: string } }
  /** quiet hours moved the message's due time (Work dispatch: SCHEDULED, DueAt) or its retry (Work retry: NextRetryTime); notification.gate.decide.ts */
  | {
      type: 'MessageDeferred';
      data: { MessageId: string; Work: 'dispatch' | 'retry'; Until: string; Reason: 'QUIET_HOURS'; At: string };
    }
  | {
      type: 'AlertRaised';
      data: { MessageId: string; AttemptId?: string; Classification: AlertClassification; Reason: string; At: string };
    }
  /** an operator cancelled unsent work (notification.operator.decide.ts) */
  | { type: 'MessageCancelled'; data: { MessageId: string; Reason: string; At: string } }
  /** housekeeping removed the completed notification from the read side (the log keeps it; commands/hub/housekeeping.job.ts) */
  | { type: 'NotificationHousekept'; data: { NotificationId: string; ArchivedTo?: string; At: string } };

export type NotificationEventType = NotificationEvent['type'];

export const NOTIFICATION_EVENT_TYPES: readonly NotificationEventType[] = [
  'NotificationAccepted',
  'AttemptStarted',
  'MessageAccepted',
  'MessageDelivered',
  'MessageFailed',
  'MessageUncertain',
  'AttemptObserved',
  'ReceiptIgnored',
  'MessagePromoted',
  'MessageSuppressed',
  'MessageExpired',
  'MessageDeferred',
  'AlertRaised',
  'MessageCancelled',
  'NotificationHousekept',
];

export type NotificationState =
  | { status: 'none' }
  | {
      status: 'accepted';
      notification: NotificationRecord;
      acknowledgement: Acknowledgement;
      messages: Record<string, Message>;
      order: string[];
      housekeptAt?: string;
    };

/** `<NotificationId>.m<n>` → the notification id; null when it is not a message id */
export function notificationIdOfMessage(messageId: string): string | null {
  const m = /^([0-9a-f-]{36})\.m\d{1,4}$/.exec(messageId);
  return m === null ? null : m[1]!;
}
export const messageIdOf = (notificationId: string, index: number) => `${notificationId}.m${index + 1}`;

/**
 * CallbackId: `<tenant>.<NotificationId>.m<n>.a<attempt>.<random>` — the receipt endpoint finds the
 * notification's stream from it alone (the receiver calls back with nothing else), and the random part
 * (128 bits, base64url) makes it unguessable: it is the capability that authorizes a receipt.
 */
export function parseCallbackId(
  callbackId: string,
): { tenant: string; notificationId: string; messageId: string } | null {
  const m = /^([a-z0-9][a-z0-9_-]{0,62})\.([0-9a-f-]{36})\.(m\d{1,4})\.a\d{1,6}\.[A-Za-z0-9_-]{16,64}$/.exec(
    callbackId,
  );
  return m === null ? null : { tenant: m[1]!, notificationId: m[2]!, messageId: `${m[2]}.${m[3]}` };
}
export const callbackIdOf = (tenant: string, messageId: string, attemptNo: number, random: string) =>
  `${tenant}.${messageId}.a${attemptNo}.${random}`;
