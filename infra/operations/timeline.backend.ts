import type { RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type { StreamStateView, TimelineBackend, TimelineEventView } from '../../http/operations/timeline.ports.ts';
import { redactSecrets } from '../cli/redact.ts';
import { replayEvents } from '../cli/replay.ts';
import type { EventStore } from '../core/event-store.port.ts';
import type { DeciderRegistry, ServiceModule } from '../platform-service.ts';

/**
 * The incident view over the log: the same selection as `platform replay` (replayEvents) and the same
 * redaction (redactSecrets), a page of it at a time; the state after an event is its stream folded from
 * the first event by the category's decider, as `platform replay --stream S --state` prints it.
 */
export function createTimelineBackend(deps: { eventStore: EventStore; modules: ServiceModule[] }): TimelineBackend {
  const deciders: DeciderRegistry = {};
  const serviceOf = new Map<string, string>();
  for (const m of deps.modules)
    for (const [category, decider] of Object.entries(m.deciders())) {
      deciders[category] = decider;
      serviceOf.set(category, m.name);
    }
  // streams no service's decider owns (the core's own, seeds) are the platform's
  const service = (category: string) => serviceOf.get(category) ?? 'platform';

  const view = (e: RecordedEvent): TimelineEventView => {
    const category = categoryOf(e.stream);
    return {
      position: e.position,
      eventId: e.id,
      occurredAt: e.metadata.occurredAt,
      service: service(category),
      category,
      stream: e.stream,
      revision: e.revision,
      type: e.type,
      tenant: e.metadata.tenant,
      actor: e.metadata.actor ?? null,
      correlationId: e.metadata.correlationId ?? null,
      causationId: e.metadata.causationId ?? null,
      data: redactSecrets(e.data),
      hasState: deciders[category] !== undefined,
    };
  };

  return {
    folds: (category) => deciders[category] !== undefined,
    async timeline(q, page) {
      // the whole selection is read (as the CLI reads it) to count it; only the page is kept
      const items: TimelineEventView[] = [];
      let total = 0;
      for await (const e of replayEvents(deps.eventStore, q)) {
        if (total >= page.offset && items.length < page.limit) items.push(view(e));
        total++;
      }
      return { items, total };
    },
    async stateAfter(stream, revision): Promise<StreamStateView | undefined> {
      const category = categoryOf(stream);
      const decider = deciders[category];
      if (decider === undefined) return undefined;
      let state = decider.initialState();
      for await (const e of replayEvents(deps.eventStore, { kind: 'stream', stream })) {
        if (e.revision > revision) break;
        state = decider.evolve(state, e);
        if (e.revision === revision)
          return { stream, service: service(category), revision, type: e.type, state: redactSecrets(state) };
      }
      return undefined;
    },
  };
}
