import { randomUUID } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { ALERT_BUS, ALERT_SOURCE, ALERT_TYPE } from '../../domain/hub/hub-alerts.constants.ts';
import { toLocal } from '../../domain/hub/local-time.ts';
import { notificationDecider } from '../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Collection, Doc } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';

/**
 * Dead-letter alert publication (spec "Events": a CloudEvent `commhub:alert:DeadLetter` through the event
 * bridge, at-least-once, missed publications recovered; definite final failure classified apart from
 * uncertain outcomes). The notification decider records every dead-letter condition as `AlertRaised`
 * (DEFINITE_FINAL_FAILURE: no retry and no fallback left; UNCERTAIN: an unknown submission outcome, a lost
 * attempt, a final receipt missing at its deadline). Publication is an outbox:
 *
 * - the `hub.alerts` projection writes one due item per AlertRaised with its checkpoint (never lost);
 * - this worker, on the core's work engine (leases: one process publishes an item at a time), reads the
 *   notification's stream for the message's details and puts the event on the platform bus `platform`
 *   as the platform event source `commhub:alert`, on behalf of the notification's tenant, with the
 *   AlertRaised event's id as the CloudEvent id: a repeat (a crash after putEvent, a rebuild of the
 *   outbox, the alert sweep) is the bridge's duplicate and is routed once;
 * - then it records the publication (`hub_alert_publications`) and drops the item. A failed putEvent keeps
 *   the item: it is tried again when its lease runs out.
 *
 * The alert sweep (commands/hub/sweeps.ts) finds AlertRaised events with neither a publication nor an
 * item and puts them back in the outbox.
 */
export { ALERT_BUS, ALERT_SOURCE, ALERT_TYPE } from '../../domain/hub/hub-alerts.constants.ts';
export const ALERT_PUBLICATIONS = 'hub_alert_publications';

/**
 * the bridge's putEvent, in process, on behalf of a tenant (infra/hub composes it over the bridge's
 * publisher); `trace` carries the send's correlation id and the AlertRaised event as the cause, so the
 * incident view and `platform replay --correlation` find the alert beside the notification it is about
 */
export type AlertBus = {
  publish(
    tenant: string,
    event: Record<string, unknown>,
    commandId: string,
    trace: { correlationId?: string; causationId: string },
  ): Promise<{ eventId: string; duplicate: boolean }>;
};

export type AlertDueItem = DueItem & { stream: string; tenant: string; messageId: string };
export type AlertPublication = Doc & {
  id: string;
  tenant: string;
  bridgeEventId: string;
  duplicate: boolean;
  publishedAt: string;
};

/** the CloudEvent of one AlertRaised, from the notification's stream (deterministic: the same alert gives the same event) */
export function deadLetterEvent(alert: RecordedEvent, streamEvents: RecordedEvent[]): Record<string, unknown> | null {
  const raised = alert as unknown as NotificationEvent & RecordedEvent;
  if (raised.type !== 'AlertRaised') return null;
  const upTo = streamEvents.filter((e) => e.revision <= alert.revision) as unknown as NotificationEvent[];
  const state = fold(notificationDecider, upTo);
  if (state.status !== 'accepted') return null;
  const d = raised.data;
  const n = state.notification;
  const m = state.messages[d.MessageId];
  const attempt = m?.Attempts.find((a) => a.AttemptId === d.AttemptId);
  const uncertain = (upTo as NotificationEvent[])
    .filter(
      (e): e is Extract<NotificationEvent, { type: 'MessageUncertain' }> =>
        e.type === 'MessageUncertain' && e.data.MessageId === d.MessageId && e.data.AttemptId === d.AttemptId,
    )
    .at(-1);
  const failed = (upTo as NotificationEvent[])
    .filter(
      (e): e is Extract<NotificationEvent, { type: 'MessageFailed' }> =>
        e.type === 'MessageFailed' && e.data.MessageId === d.MessageId && e.data.AttemptId === d.AttemptId,
    )
    .at(-1);
  const httpStatus = uncertain?.data.HttpStatus ?? failed?.data.HttpStatus ?? attempt?.HttpStatus;
  return {
    id: alert.id,
    source: ALERT_SOURCE,
    type: ALERT_TYPE,
    subject: `commhub:notification:${n.NotificationId}:${d.MessageId}`,
    // the bridge takes a local date-time without offset: the tenant's, as the notification recorded it
    time: toLocal(d.At, n.TimeZone).slice(0, 23),
    dataContentType: 'application/json',
    eventBusName: ALERT_BUS,
    data: {
      AlertId: alert.id,
      Classification: d.Classification,
      ...(d.Classification === 'UNCERTAIN' && uncertain !== undefined && { Cause: uncertain.data.Cause }),
      Reason: d.Reason,
      Tenant: alert.metadata.tenant,
      NotificationId: n.NotificationId,
      RequestId: n.RequestId,
      NotificationCode: n.NotificationCode,
      MessageId: d.MessageId,
      ...(m !== undefined && { Role: m.Role, Channel: m.Channel, State: m.State }),
      ...(d.AttemptId !== undefined && { AttemptId: d.AttemptId }),
      ...(attempt !== undefined && { AttemptNo: attempt.AttemptNo }),
      ...(httpStatus !== undefined && { HttpStatus: httpStatus }),
      ...(n.SenderApp !== undefined && { SenderApp: n.SenderApp }),
      ...(n.RefType !== undefined && { RefType: n.RefType }),
      ...(n.RefNumber !== undefined && { RefNumber: n.RefNumber }),
      RaisedAt: d.At,
    },
  };
}

export function createAlertPublisher(deps: {
  eventStore: EventStore;
  clock: Clock;
  bus: AlertBus;
  items: () => Promise<Collection<AlertDueItem>>;
  publications: () => Promise<Collection<AlertPublication>>;
  leaseMs?: number;
  pollMs?: number;
  owner?: string;
  log?: WorkEngineLog;
}): WorkEngine & {
  publish(item: Pick<AlertDueItem, 'id' | 'stream' | 'tenant'>): Promise<'published' | 'duplicate' | 'gone'>;
} {
  async function publish(
    item: Pick<AlertDueItem, 'id' | 'stream' | 'tenant'>,
  ): Promise<'published' | 'duplicate' | 'gone'> {
    const events = await deps.eventStore.readStream(item.stream);
    const alert = events.find((e) => e.id === item.id);
    // a housekept notification (docs/hub.md#housekeeping) keeps no publication record: an item of it (a
    // projection rebuild writes AlertRaised's item before it applies NotificationHousekept) is dropped
    const housekept = events.some((e) => e.type === 'NotificationHousekept');
    const event = alert === undefined || housekept ? null : deadLetterEvent(alert, events);
    if (event === null) {
      await (await deps.items()).delete(item.id);
      return 'gone';
    }
    // a command id of its own per publication: a repeat reaches the bridge's (source, id) duplicate rule,
    // which answers `duplicate: true` and routes nothing again
    const correlationId = alert?.metadata.correlationId;
    const r = await deps.bus.publish(item.tenant, event, `hub-alert/${item.id}/${randomUUID()}`, {
      ...(correlationId !== undefined && { correlationId }),
      causationId: item.id,
    });
    await (await deps.publications()).upsert({
      id: item.id,
      tenant: item.tenant,
      bridgeEventId: r.eventId,
      duplicate: r.duplicate,
      publishedAt: deps.clock.now().toISOString(),
    });
    await (await deps.items()).delete(item.id);
    return r.duplicate ? 'duplicate' : 'published';
  }
  const engine = createWorkEngine<AlertDueItem>({
    name: 'hub.alert-publisher',
    items: deps.items,
    clock: deps.clock,
    leaseMs: deps.leaseMs ?? 30_000,
    ...(deps.pollMs !== undefined && { pollMs: deps.pollMs }),
    concurrency: 4,
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(item) {
      await publish(item);
    },
  });
  return { ...engine, publish };
}
