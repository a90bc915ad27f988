import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { toLocal } from '../../domain/hub/local-time.ts';
import { maskText } from '../../domain/hub/masking.ts';
import { progressOf } from '../../domain/hub/message-work.ts';
import { notificationDecider, notificationStream } from '../../domain/hub/notification.decider.ts';
import {
  type Message,
  type NotificationEvent,
  type NotificationState,
  notificationIdOfMessage,
} from '../../domain/hub/notification.model.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { notificationIdFor } from './send.commands.ts';

/**
 * Live progress, read from the notification's stream (never stale): `GET /send-requests/getById`, the
 * message detail and the message timeline (the append-only events of one message). Times are shown in the
 * tenant's time zone with their offset. Recipient addresses are masked (EMAIL, else KEEP_EDGES) and
 * message bodies are not shown: the stored payload is masked, these views are too; the timeline keeps
 * every event's facts (attempts, answers, receipts, ignored evidence, alerts).
 *
 * A notification housekeeping removed (docs/hub.md#housekeeping) is gone from these views as from every read
 * model: they answer 404 saying when it was housekept and where it was archived. Its stream is kept (the
 * event log is never deleted), so a send replay of its RequestId still answers the stored acknowledgement.
 */
type Live = Extract<NotificationState, { status: 'accepted' }>;

const maskAddress = (a: string) => maskText(a, a.includes('@') ? 'EMAIL' : 'KEEP_EDGES');

export function createProgressQueries({ eventStore }: { eventStore: EventStore }) {
  async function load(
    tenant: string,
    notificationId: string,
  ): Promise<{ state: Live; events: RecordedEvent[] } | null> {
    const events = await eventStore.readStream(notificationStream(tenant, notificationId));
    const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
    return state.status === 'accepted' ? { state, events } : null;
  }

  /** a housekept notification's 404: when it was housekept (the tenant's local time) and where it was archived */
  function housekept(
    loaded: { state: Live; events: RecordedEvent[] },
    code: 'NOTIFICATION.NOT_FOUND' | 'MESSAGE.NOT_FOUND',
    what: Record<string, string | undefined>,
  ) {
    const e = loaded.events.findLast((x) => x.type === 'NotificationHousekept');
    const archivedTo = (e?.data as { ArchivedTo?: string } | undefined)?.ArchivedTo;
    const at = toLocal(loaded.state.housekeptAt!, loaded.state.notification.TimeZone);
    return hubError(
      code,
      `notification ${loaded.state.notification.NotificationId} was housekept at ${at} (${archivedTo !== undefined ? `archived: ${archivedTo}` : 'not archived'})`,
      {
        ...what,
        NotificationId: loaded.state.notification.NotificationId,
        HousekeptAt: at,
        ...(archivedTo !== undefined && { ArchivedTo: archivedTo }),
      },
    );
  }

  const local = (state: Live) => (iso: string | undefined) =>
    iso === undefined ? undefined : toLocal(iso, state.notification.TimeZone);

  function messageSummary(state: Live, m: Message) {
    const t = local(state);
    return {
      MessageId: m.MessageId,
      RuleId: m.RuleId,
      Role: m.Role,
      Channel: m.Channel,
      OrderNo: m.OrderNo,
      Strategy: m.Strategy,
      State: m.State,
      ...(m.Reason !== undefined && { Reason: m.Reason }),
      DeliveryUncertain: m.DeliveryUncertain,
      TrackingCompleted: m.TrackingCompleted,
      Attempts: m.Attempts.length,
      ...(m.ActiveAttemptId !== undefined && { ActiveAttemptId: m.ActiveAttemptId }),
      ...(m.NextRetryTime !== undefined && { NextRetryTime: t(m.NextRetryTime) }),
      ...(m.ReceiptDeadline !== undefined && { ReceiptDeadline: t(m.ReceiptDeadline) }),
      ...(m.LastError !== undefined && { LastError: m.LastError }),
      ...(m.ProviderRef !== undefined && { ProviderRef: m.ProviderRef }),
      UpdatedAt: t(m.UpdatedAt),
    };
  }

  function sendRequestView(state: Live) {
    const n = state.notification;
    const t = local(state);
    const progress = progressOf(state);
    return {
      NotificationId: n.NotificationId,
      RequestId: n.RequestId,
      NotificationCode: n.NotificationCode,
      DefinitionId: n.DefinitionId,
      SnapshotId: n.SnapshotId,
      NotificationClass: n.NotificationClass,
      ...(n.SenderApp !== undefined && { SenderApp: n.SenderApp }),
      ...(n.RefType !== undefined && { RefType: n.RefType }),
      ...(n.RefNumber !== undefined && { RefNumber: n.RefNumber }),
      ...(n.OriginalNotificationId !== undefined && { OriginalNotificationId: n.OriginalNotificationId }),
      AcceptedAt: t(n.AcceptedAt),
      ...(n.SendAt !== undefined && { SendAt: t(n.SendAt) }),
      ...(n.ExpiresAt !== undefined && { ExpiresAt: t(n.ExpiresAt) }),
      TimeZone: n.TimeZone,
      Completed: progress.Completed,
      Counts: progress.Counts,
      Uncertain: progress.Uncertain,
      Messages: state.order.map((id) => messageSummary(state, state.messages[id]!)),
      Payload: n.Payload,
      Attachments: n.Attachments,
      Acknowledgement: state.acknowledgement,
    };
  }

  async function messageOf(tenant: string, messageId: string) {
    const notificationId = notificationIdOfMessage(messageId);
    const loaded = notificationId === null ? null : await load(tenant, notificationId);
    const m = loaded?.state.messages[messageId];
    if (loaded === null || m === undefined)
      throw hubError('MESSAGE.NOT_FOUND', 'no such message', { MessageId: messageId });
    if (loaded.state.housekeptAt !== undefined) throw housekept(loaded, 'MESSAGE.NOT_FOUND', { MessageId: messageId });
    return { ...loaded, m };
  }

  return {
    async sendRequest(tenant: string, by: { requestId?: string; notificationId?: string }) {
      const id = by.notificationId ?? notificationIdFor(tenant, by.requestId ?? '');
      const loaded = await load(tenant, id);
      if (loaded === null) throw hubError('NOTIFICATION.NOT_FOUND', 'no such send request', { ...by });
      if (loaded.state.housekeptAt !== undefined) throw housekept(loaded, 'NOTIFICATION.NOT_FOUND', { ...by });
      return sendRequestView(loaded.state);
    },

    async message(tenant: string, messageId: string) {
      const { state, m } = await messageOf(tenant, messageId);
      const t = local(state);
      const c = m.Content;
      return {
        ...messageSummary(state, m),
        NotificationId: state.notification.NotificationId,
        RequestId: state.notification.RequestId,
        ...(m.Recipient !== undefined && {
          Recipient: {
            ...(m.Recipient.RecipientId !== undefined && { RecipientId: m.Recipient.RecipientId }),
            Address: maskAddress(m.Recipient.Address),
          },
        }),
        ...(c !== undefined && {
          Content: {
            TemplateMode: c.TemplateMode,
            TemplateId: c.TemplateId,
            LanguageId: c.LanguageId,
            ContentType: c.ContentType,
            ...(c.Subject !== undefined && { Subject: c.Subject }),
          },
        }),
        ...(m.ServiceId !== undefined && { ServiceId: m.ServiceId }),
        ...(m.ReceiptMode !== undefined && { ReceiptMode: m.ReceiptMode }),
        DueAt: t(m.DueAt),
        RetryPolicy: m.RetryPolicy,
        Policies: m.Policies,
        AutoAttempts: m.AutoAttempts,
        ...(m.Diagnostics !== undefined && { Diagnostics: m.Diagnostics }),
        AttemptDetails: m.Attempts.map((a) => ({
          ...a,
          StartedAt: t(a.StartedAt),
          ...(a.OutcomeAt !== undefined && { OutcomeAt: t(a.OutcomeAt) }),
          ...(a.OutcomeDueBy !== undefined && { OutcomeDueBy: t(a.OutcomeDueBy) }),
        })),
      };
    },

    /** the message's append-only events, oldest first (its preparation at acceptance first) */
    async timeline(tenant: string, messageId: string) {
      const { state, events, m } = await messageOf(tenant, messageId);
      const t = local(state);
      const entries = [];
      for (const e of events) {
        if (e.type === 'NotificationAccepted') {
          const planned = (
            e.data as { Messages: Array<{ MessageId: string; State: string; Reason?: string; Diagnostics?: string[] }> }
          ).Messages.find((x) => x.MessageId === m.MessageId);
          if (planned !== undefined) {
            entries.push({
              Revision: e.revision,
              Type: 'MessagePrepared',
              At: t(e.metadata.occurredAt),
              Data: {
                State: planned.State,
                ...(planned.Reason !== undefined && { Reason: planned.Reason }),
                ...(planned.Diagnostics !== undefined && { Diagnostics: planned.Diagnostics }),
              },
            });
          }
          continue;
        }
        const data = e.data as { MessageId?: string; At?: string };
        if (data.MessageId !== m.MessageId) continue;
        const { MessageId: _id, At, ...rest } = data;
        entries.push({
          Revision: e.revision,
          Type: e.type,
          At: t(At ?? e.metadata.occurredAt),
          Actor: e.metadata.actor,
          Data: rest,
        });
      }
      return {
        MessageId: m.MessageId,
        NotificationId: state.notification.NotificationId,
        State: m.State,
        Events: entries,
      };
    },
  };
}

export type ProgressQueries = ReturnType<typeof createProgressQueries>;
