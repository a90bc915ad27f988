import { api, call } from '../../api/client.ts';

/**
 * The hub's notification and message views as the operator pages read them: the notification search, a
 * notification's live progress, a message, its timeline, the operator actions' eligibility and the actions.
 * The OpenAPI document leaves the live views' answers open: their shapes are written out here.
 */
export type NotificationRow = {
  NotificationId?: string;
  RequestId?: string;
  NotificationCode?: string;
  SnapshotId?: string;
  AcceptedAt?: string;
  RecipientIds?: string[];
};

export type MessageSummary = {
  MessageId: string;
  RuleId: string;
  Role: string;
  Channel: string;
  OrderNo: number;
  Strategy: string;
  State: string;
  Reason?: string;
  DeliveryUncertain: boolean;
  TrackingCompleted: boolean;
  Attempts: number;
  NextRetryTime?: string;
  ReceiptDeadline?: string;
  LastError?: string;
  ProviderRef?: string;
  UpdatedAt: string;
};

export type SendRequest = {
  NotificationId: string;
  RequestId: string;
  NotificationCode: string;
  DefinitionId: string;
  SnapshotId: string;
  NotificationClass: string;
  SenderApp?: string;
  RefType?: string;
  RefNumber?: string;
  AcceptedAt: string;
  SendAt?: string;
  ExpiresAt?: string;
  TimeZone: string;
  Completed: boolean;
  Counts: Record<string, number>;
  Uncertain?: number;
  Messages: MessageSummary[];
};

export type AttemptDetail = {
  AttemptId: string;
  AttemptNo: number;
  Kind: string;
  ServiceId: string;
  StartedAt: string;
  Outcome?: string;
  OutcomeAt?: string;
  HttpStatus?: number;
  Error?: string;
  Evidence?: string;
  ProviderRef?: string;
};

export type MessageDetail = MessageSummary & {
  NotificationId: string;
  RequestId: string;
  Recipient?: { RecipientId?: string; Address: string };
  Content?: { TemplateMode: string; TemplateId: string; LanguageId: string; ContentType: string; Subject?: string };
  ServiceId?: string;
  ReceiptMode?: string;
  DueAt: string;
  AutoAttempts: number;
  RetryPolicy?: { MaxAttempts: number };
  Diagnostics?: string[];
  AttemptDetails: AttemptDetail[];
};

export type TimelineEvent = {
  Revision: number;
  Type: string;
  At: string;
  Actor?: string;
  Data: Record<string, unknown>;
};
export type Timeline = { MessageId: string; NotificationId: string; State: string; Events: TimelineEvent[] };

export type ActionName = 'RETRY' | 'CANCEL' | 'MANUAL_RECEIPT';
export type Eligibility = { Eligible: boolean; Reason?: string; Message?: string };
export type Eligibilities = {
  MessageId: string;
  State: string;
  DeliveryUncertain: boolean;
  Actions: Partial<Record<ActionName | 'COMPLETE_CHAIN', Eligibility>>;
};

export type SearchQuery = {
  notificationCode?: string;
  requestId?: string;
  notificationId?: string;
  recipientId?: string;
  acceptedFrom?: string;
  acceptedTo?: string;
};

export const searchNotifications = (q: SearchQuery, pageNo: number, pageSize: number, signal?: AbortSignal) =>
  call(api.hub.GET('/comm/v1/notifications/search', { params: { query: { ...q, pageNo, pageSize } }, signal }));

export const sendRequestOf = async (notificationId: string, signal?: AbortSignal) =>
  (await call(
    api.hub.GET('/comm/v1/send-requests/getById', { params: { query: { notificationId } }, signal }),
  )) as unknown as SendRequest;

export const messageOf = async (messageId: string, signal?: AbortSignal) =>
  (await call(
    api.hub.GET('/comm/v1/messages/getById', { params: { query: { messageId } }, signal }),
  )) as unknown as MessageDetail;

export const timelineOf = async (messageId: string, signal?: AbortSignal) =>
  (await call(
    api.hub.GET('/comm/v1/messages/timeline', { params: { query: { messageId } }, signal }),
  )) as unknown as Timeline;

export const eligibilityOf = async (messageId: string, signal?: AbortSignal) =>
  (await call(
    api.hub.GET('/comm/v1/messages/actionEligibility', { params: { query: { messageId } }, signal }),
  )) as unknown as Eligibilities;

export type ActionInput =
  | { action: 'RETRY' | 'CANCEL'; Reason: string }
  | {
      action: 'MANUAL_RECEIPT';
      Status: 'DELIVERED' | 'FAILED';
      VerificationReason: string;
      EvidenceReference?: string;
    };

/** one operator action; the key makes a resent click answer what the first did (the API's idempotency) */
export function runAction(messageId: string, input: ActionInput, key: string): Promise<unknown> {
  const params = { query: { messageId }, header: { 'Idempotency-Key': key } } as never;
  if (input.action === 'RETRY')
    return call(api.hub.POST('/comm/v1/messages/retry', { params, body: { Reason: input.Reason } }));
  if (input.action === 'CANCEL')
    return call(api.hub.POST('/comm/v1/messages/cancel', { params, body: { Reason: input.Reason } }));
  if (input.action !== 'MANUAL_RECEIPT') throw new Error(`unknown action ${input.action}`);
  const { action: _a, ...body } = input;
  return call(api.hub.POST('/comm/v1/messages/manualReceipt', { params, body }));
}
