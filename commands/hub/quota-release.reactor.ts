import { fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { QUOTA_CATEGORY, type QuotaEvent } from '../../domain/hub/frequency-quota.decider.ts';
import {
  NOTIFICATION_CATEGORY,
  notificationDecider,
  notificationStream,
} from '../../domain/hub/notification.decider.ts';
import {
  type Message,
  type MessageState,
  type NotificationEvent,
  notificationIdOfMessage,
} from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';
import type { DispatchGate } from './dispatch-gate.ts';

/**
 * Gives a message's frequency-quota slot back when the message ended with nothing committed
 * (docs/hub.md#customer-policies: a definite final failure, a suppression, an expiry or a cancellation with
 * no attempt accepted, delivered, uncertain or lost), whatever path ended it: the dispatch worker (which also
 * releases at once, dispatch.process.ts), an operator's cancel or manual receipt, a receipt, a sweep. A
 * checkpointed reactor on the notification streams' ending events: at-least-once, and the release is
 * idempotent (the quota decider releases a held slot once), so a crash anywhere only delays it.
 *
 * It also reacts to the reservation itself (`QuotaReserved` on the recipient's quota stream): a claim reads
 * the message, reserves, then starts the attempt; a cancellation (or expiry, suppression) and its release
 * can land between the read and the reservation, and then no ending event follows the slot. When the
 * message is already CANCELLED, EXPIRED or SUPPRESSED at that point no attempt can ever start, so the slot
 * is released. A FAILED (final) message is not released here: an operator's manual retry reserves on
 * exactly that state just before its attempt (operator.commands.ts releases it itself when the attempt is
 * refused).
 */
export const QUOTA_RELEASE_REACTOR = 'hub.quota-release';

const ENDINGS = ['MessageFailed', 'MessageSuppressed', 'MessageExpired', 'MessageCancelled'];
/** states no attempt can follow: a reservation made on them is never used */
const NO_ATTEMPT_AFTER: readonly MessageState[] = ['CANCELLED', 'EXPIRED', 'SUPPRESSED'];

export function createQuotaReleaseReactor(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  gate: Pick<DispatchGate, 'releaseIfUncommitted'>;
  log?: ReactorLog;
}): Reactor {
  /** gives the message's slot back, on its notification's state now */
  async function release(
    tenant: string,
    stream: string,
    messageId: string,
    onlyIf: (m: Message | undefined) => boolean = () => true,
  ) {
    const events = await deps.eventStore.readStream(stream);
    const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
    if (state.status !== 'accepted' || !onlyIf(state.messages[messageId])) return;
    await deps.gate.releaseIfUncommitted({ tenant, state, messageId, now: deps.clock.now().toISOString() });
  }

  async function one(event: RecordedEvent) {
    const tenant = event.metadata.tenant;
    if (event.type === 'QuotaReserved') {
      // a reservation appended after its message ended
      const { MessageId } = (event as unknown as Extract<QuotaEvent, { type: 'QuotaReserved' }>).data;
      const notificationId = notificationIdOfMessage(MessageId);
      if (notificationId === null) return;
      return release(
        tenant,
        notificationStream(tenant, notificationId),
        MessageId,
        (m) => m !== undefined && NO_ATTEMPT_AFTER.includes(m.State),
      );
    }
    const e = event as unknown as NotificationEvent;
    if (e.type === 'MessageFailed' && !e.data.Final) return; // a pending retry keeps its slot
    await release(tenant, event.stream, (e.data as { MessageId: string }).MessageId);
  }
  return createReactor({
    name: QUOTA_RELEASE_REACTOR,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: [NOTIFICATION_CATEGORY, QUOTA_CATEGORY], eventTypes: [...ENDINGS, 'QuotaReserved'] },
    ...(deps.log !== undefined && { log: deps.log }),
    handle: one,
  });
}
