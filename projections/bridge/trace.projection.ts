import type { RecordedEvent } from '../../domain/core/event.ts';
import type { BridgeEvent, BusKind } from '../../domain/bridge/model.ts';
import {
  PUBLISHED_CATEGORY,
  type EventAcceptedData,
  type EventRoutedData,
  type MatchedRule,
  type Publisher,
  type SkippedRule,
} from '../../domain/bridge/published-event.decider.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';

/**
 * `bridge.trace` (spec "Event trace"; issue 4 item 7): one document per published event with its three
 * stages — receipt, filtering, delivery — built from the published-event streams only, so it rebuilds from
 * the log like any read model.
 *
 * - receipt: when it arrived, source, type, subject, bus, tenant, publisher, and the event itself (the
 *   trace "shows the content");
 * - filtering: null until routed; then the rules evaluated, matched (with, per target, the conversion's
 *   outcome: ok, variables left empty, error) and skipped (opted-out, disabled, invalid-pattern); `applied`
 *   says which kind of rule routed the event: 'platform', 'tenant', 'both' or 'none';
 * - delivery: an array, empty in part 1. Part 2 appends one entry per delivery attempt outcome from its
 *   Delivery* events on the same stream, shape DeliveryEntry: { ruleId, targetId, attemptId, at, status
 *   ('started' | 'succeeded' | 'failed' | 'dead-lettered' | 'discarded'), attempt, error? }.
 *
 * Document id: the event's key (the `eventId` putEvent answers).
 */
export const TRACE_PROJECTION = 'bridge.trace';
export const TRACE_COLLECTION = 'events';

export type DeliveryEntry = {
  ruleId: string;
  targetId: number;
  attemptId: string;
  at: string;
  status: 'started' | 'succeeded' | 'failed' | 'dead-lettered' | 'discarded';
  attempt: number;
  error?: string;
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
};

export const appliedKind = (matched: MatchedRule[]): TraceFiltering['applied'] => {
  const platform = matched.some((m) => m.platform);
  const tenant = matched.some((m) => !m.platform);
  return platform && tenant ? 'both' : platform ? 'platform' : tenant ? 'tenant' : 'none';
};

/** the trace leaves rendered payloads out: they are part 2's work list, and can be large */
const withoutPayloads = (matched: MatchedRule[]): MatchedRule[] =>
  matched.map((m) => ({ ...m, targets: m.targets.map(({ payload: _payload, ...t }) => t) }));

export const traceProjection: Projection = {
  name: TRACE_PROJECTION,
  version: 1,
  categories: [PUBLISHED_CATEGORY],
  eventTypes: ['EventAccepted', 'EventRouted'],
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
        });
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
        });
      }
    }
    for (const doc of touched.values()) await docs.upsert(doc);
  },
};
