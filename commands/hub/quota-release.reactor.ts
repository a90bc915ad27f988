import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { NOTIFICATION_CATEGORY, notificationDecider } from '../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';
import type { DispatchGate } from './dispatch-gate.ts';

/**
 * Gives a message's frequency-quota slot back when the message ended with nothing committed (README
 * "Customer policies": a definite final failure, a suppression, an expiry or a cancellation with no attempt
 * accepted, delivered, uncertain or lost), whatever path ended it: the dispatch worker (which also releases
 * at once, dispatch.process.ts), an operator's cancel or manual receipt, a receipt, a sweep. A checkpointed
 * reactor on the notification streams' ending events: at-least-once, and the release is idempotent (the
 * quota decider releases a held slot once), so a crash anywhere only delays it.
 */
export const QUOTA_RELEASE_REACTOR = 'hub.quota-release';

const ENDINGS = ['MessageFailed', 'MessageSuppressed', 'MessageExpired', 'MessageCancelled'];

export function createQuotaReleaseReactor(deps: { eventStore: EventStore; readStore: ReadStore; clock: Clock; gate: Pick<DispatchGate, 'releaseIfUncommitted'>; log?: ReactorLog }): Reactor {
  async function one(event: RecordedEvent) {
    const e = event as unknown as NotificationEvent;
    if (e.type === 'MessageFailed' && !e.data.Final) return; // a pending retry keeps its slot
    const events = await deps.eventStore.readStream(event.stream);
    const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
    if (state.status !== 'accepted') return;
    const messageId = (e.data as { MessageId: string }).MessageId;
    await deps.gate.releaseIfUncommitted({ tenant: event.metadata.tenant, state, messageId, now: deps.clock.now().toISOString() });
  }
  return createReactor({
    name: QUOTA_RELEASE_REACTOR,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: [NOTIFICATION_CATEGORY], eventTypes: ENDINGS },
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(event) {
      await one(event);
    },
  });
}
