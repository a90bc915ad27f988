import { DELIVERY_CATEGORY, DELIVERY_EVENT_TYPES, type DeliveryEvent } from '../../domain/bridge/delivery.decider.ts';
import type { BridgeEvent, BusKind } from '../../domain/bridge/model.ts';
import {
  type DuplicateReceivedData,
  type EventAcceptedData,
  type EventRoutedData,
  type MatchedRule,
  PUBLISHED_CATEGORY,
  type Publisher,
  type SkippedRule,
} from '../../domain/bridge/published-event.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';

/**
 * `bridge.trace` (spec "Event trace"): one document per published event with its three
 * stages — receipt, filtering, delivery — built from the published-event streams only, so it rebuilds from
 * the log like any read model.
 *
 * - receipt: when it arrived, source, type, subject, bus, tenant, publisher, and the event itself (the
 *   trace "shows the content");
 * - filtering: null until routed; then the rules evaluated, matched (with, per target, the conversion's
 *   outcome: ok, variables left empty, error) and skipped (opted-out, disabled, invalid-pattern); `applied`
 *   says which kind of rule routed the event: 'platform', 'tenant', 'both' or 'none';
 * - notes: repeats of the event's (source, id) with other content (answered `duplicate: true,
 *   contentDiffers: true`), with the fields that differ;
 * - delivery: one entry per step of each delivery, from the Delivery* events of the delivery
 *   streams (`delivery-<tenant>.<deliveryId>`, each event names its event key), in log order: scheduled,
 *   every attempt started and its outcome (succeeded with the HTTP status; failed with the error, the HTTP
 *   status and the next retry time, null when the retries are over), then dead-lettered, discarded or
 *   blocked (ErrorTolerance NONE: the rule target stops until an operator resumes it), redriven, purged.
 *   A target whose conversion failed at routing is one 'failed' entry (attempt 0, no call was made).
 *
 * Document id: the event's key (the `eventId` putEvent answers).
 */
export const TRACE_PROJECTION = 'bridge.trace';
export const TRACE_COLLECTION = 'events';

export type DeliveryEntry = {
  ruleId: string;
  targetId: number;
  /** '' for steps that are not an attempt (scheduled, dead-lettered, blocked, a conversion error …) */
  attemptId: string;
  at: string;
  status:
    | 'scheduled'
    | 'started'
    | 'succeeded'
    | 'failed'
    | 'dead-lettered'
    | 'discarded'
    | 'blocked'
    | 'redriven'
    | 'purged';
  /** the attempt's number (1-based over the delivery's life); for other steps the attempts made so far */
  attempt: number;
  error?: string;
  /** the target's HTTP answer, when there was one */
  httpStatus?: number;
  /** failed attempts: when the next one is due; null when the retries are over */
  nextAttemptAt?: string | null;
  /** the rule's tenant (a platform rule: `platform`) */
  ruleTenant?: string;
  /** the delivery id every call carries (X-Delivery-Id); absent for a conversion error */
  deliveryId?: string;
  /** the target type (scheduled and conversion error entries) */
  typeId?: number;
  /** failed: the outcome was never recorded (crash during the call) */
  uncertain?: true;
  /** redriven: from the dead letter queue, or a resume of the blocked rule target */
  reason?: string;
};

export type TraceFiltering = {
  routedAt: string;
  evaluated: string[];
  matched: MatchedRule[];
  skipped: SkippedRule[];
  /** which kind of rule routed it */
  applied: 'platform' | 'tenant' | 'both' | 'none';
  matcherVersion: string;
};

/**
 * Something the trace says about the event beside its stages: a repeat of its (source, id) with other
 * content, with the fields that differ and who sent it.
 */
export type TraceNote = { at: string; kind: 'duplicate-content-differs'; fields: string[]; publisher: Publisher };

export type TraceDoc = Doc & {
  /** the event's key (putEvent's eventId) */
  id: string;
  stream: string;
  tenant: string;
  bus: string;
  busTenant: string;
  busKind: BusKind;
  source: string;
  type: string;
  subject?: string;
  /** the producer's id: (source, sourceEventId) is unique per bus */
  sourceEventId: string;
  /** the event's own time (local date-time, as sent) */
  time?: string;
  receivedAt: string;
  publisher: Publisher;
  event: BridgeEvent;
  filtering: TraceFiltering | null;
  delivery: DeliveryEntry[];
  /** absent until there is one */
  notes?: TraceNote[];
};

export const appliedKind = (matched: MatchedRule[]): TraceFiltering['applied'] => {
  const platform = matched.some((m) => m.platform);
  const tenant = matched.some((m) => !m.platform);
  return platform && tenant ? 'both' : platform ? 'platform' : tenant ? 'tenant' : 'none';
};

/**
 * the trace leaves rendered payloads out: they are the deliveries' work list, and can be large; and the
 * delivery ids, which its delivery stage shows
 */
const withoutPayloads = (matched: MatchedRule[]): MatchedRule[] =>
  matched.map((m) => ({ ...m, targets: m.targets.map(({ payload: _payload, deliveryId: _id, ...t }) => t) }));

export const traceProjection: Projection = {
  name: TRACE_PROJECTION,
  // 2: the delivery stage
  version: 2,
  categories: [PUBLISHED_CATEGORY, DELIVERY_CATEGORY],
  eventTypes: ['EventAccepted', 'EventRouted', 'DuplicateReceived', ...DELIVERY_EVENT_TYPES],
  collections: {
    [TRACE_COLLECTION]: {
      indexes: [
        { name: 'by_tenant_received', fields: { tenant: 1, receivedAt: 1 } },
        { name: 'by_tenant_bus_received', fields: { tenant: 1, bus: 1, receivedAt: 1 } },
        { name: 'by_tenant_source_received', fields: { tenant: 1, source: 1, receivedAt: 1 } },
        { name: 'by_tenant_type_received', fields: { tenant: 1, type: 1, receivedAt: 1 } },
        { name: 'by_source_id', fields: { source: 1, sourceEventId: 1 } },
      ],
    },
  },
  async apply(events: RecordedEvent[], store) {
    const docs = store.collection<TraceDoc>(TRACE_COLLECTION);
    // fold the batch in memory: an event accepted and routed in one batch is written once
    const touched = new Map<string, TraceDoc>();
    const load = async (id: string) => touched.get(id) ?? (await docs.get(id));
    for (const e of events) {
      if (e.type === 'EventAccepted') {
        const a = e.data as EventAcceptedData;
        const before = await load(a.key);
        touched.set(a.key, {
          id: a.key,
          stream: e.stream,
          tenant: a.tenant,
          bus: a.bus,
          busTenant: a.busTenant,
          busKind: a.busKind,
          source: a.event.source,
          type: a.event.type,
          ...(a.event.subject !== undefined && { subject: a.event.subject }),
          sourceEventId: a.event.id,
          ...(a.event.time !== undefined && { time: a.event.time }),
          receivedAt: a.receivedAt,
          publisher: a.publisher,
          event: a.event,
          filtering: before?.filtering ?? null,
          delivery: before?.delivery ?? [],
          ...(before?.notes !== undefined && { notes: before.notes }),
        });
      } else if (e.type === 'DuplicateReceived') {
        const d = e.data as DuplicateReceivedData;
        const doc = await load(d.key);
        if (!doc) continue; // cannot happen: a duplicate is noted in the stream of the event it repeats
        const note: TraceNote = {
          at: d.receivedAt,
          kind: 'duplicate-content-differs',
          fields: d.differs,
          publisher: d.publisher,
        };
        touched.set(d.key, { ...doc, notes: [...(doc.notes ?? []), note] });
      } else if (e.type === 'EventRouted') {
        const r = e.data as EventRoutedData;
        const doc = await load(r.key);
        if (!doc) continue; // cannot happen: EventRouted follows EventAccepted in the same stream
        touched.set(r.key, {
          ...doc,
          filtering: {
            routedAt: r.routedAt,
            evaluated: r.evaluated,
            matched: withoutPayloads(r.matched),
            skipped: r.skipped,
            applied: appliedKind(r.matched),
            matcherVersion: r.matcherVersion,
          },
          delivery: [...doc.delivery, ...conversionFailures(r)],
        });
      } else {
        const entry = deliveryEntry(e as unknown as DeliveryEvent);
        const key = (e.data as { eventKey: string }).eventKey;
        const doc = await load(key);
        if (!doc) continue; // cannot happen: deliveries are scheduled from EventRouted, after it in the log
        touched.set(key, { ...doc, delivery: [...doc.delivery, entry] });
      }
    }
    for (const doc of touched.values()) await docs.upsert(doc);
  },
};

/** A target whose conversion failed at routing: a failed delivery, without any call. */
function conversionFailures(r: EventRoutedData): DeliveryEntry[] {
  return r.matched.flatMap((m) =>
    m.targets
      .filter((t) => !t.conversion.ok)
      .map((t) => ({
        ruleId: m.ruleId,
        ruleTenant: m.ruleTenant,
        targetId: t.targetId,
        typeId: t.typeId,
        attemptId: '',
        at: r.routedAt,
        status: 'failed' as const,
        attempt: 0,
        error: `conversion: ${t.conversion.error ?? 'failed'}`,
        nextAttemptAt: null,
      })),
  );
}

function deliveryEntry(e: DeliveryEvent): DeliveryEntry {
  const d = e.data;
  const base = { ruleId: d.ruleId, ruleTenant: d.ruleTenant, targetId: d.targetId, deliveryId: d.deliveryId };
  const http = (s: number | undefined) => (s !== undefined ? { httpStatus: s } : {});
  switch (e.type) {
    case 'DeliveryScheduled':
      return { ...base, typeId: e.data.typeId, attemptId: '', at: e.data.scheduledAt, status: 'scheduled', attempt: 0 };
    case 'DeliveryAttemptStarted':
      return { ...base, attemptId: e.data.attemptId, at: e.data.at, status: 'started', attempt: e.data.attempt };
    case 'DeliverySucceeded':
      return {
        ...base,
        attemptId: e.data.attemptId,
        at: e.data.at,
        status: 'succeeded',
        attempt: e.data.attempt,
        ...http(e.data.httpStatus),
      };
    case 'DeliveryAttemptFailed':
      return {
        ...base,
        attemptId: e.data.attemptId,
        at: e.data.at,
        status: 'failed',
        attempt: e.data.attempt,
        error: e.data.error,
        ...http(e.data.httpStatus),
        nextAttemptAt: e.data.nextAttemptAt,
        ...(e.data.uncertain === true && { uncertain: true as const }),
      };
    case 'DeliveryDeadLettered':
      return {
        ...base,
        attemptId: '',
        at: e.data.at,
        status: 'dead-lettered',
        attempt: e.data.attempts,
        error: e.data.lastError,
        ...http(e.data.httpStatus),
      };
    case 'DeliveryDiscarded':
      return {
        ...base,
        attemptId: '',
        at: e.data.at,
        status: 'discarded',
        attempt: e.data.attempts,
        error: e.data.lastError,
        ...http(e.data.httpStatus),
      };
    case 'DeliveryBlocked':
      return {
        ...base,
        attemptId: '',
        at: e.data.at,
        status: 'blocked',
        attempt: e.data.attempts,
        error: e.data.lastError,
        ...http(e.data.httpStatus),
      };
    case 'DeliveryRedriven':
      return { ...base, attemptId: '', at: e.data.at, status: 'redriven', attempt: 0, reason: e.data.reason };
    case 'DeliveryPurged':
      return { ...base, attemptId: '', at: e.data.at, status: 'purged', attempt: 0 };
    default:
      return assertNever(e);
  }
}
