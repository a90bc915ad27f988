import type { AllFilter, EventStore } from './event-store.port.ts';
import { positionValue } from './position.ts';

/**
 * How far a checkpointed consumer is behind: head position minus its checkpoint, or 0 when no event it
 * would handle is pending (so a filtered consumer idle over other categories' events shows no lag).
 */
export async function consumerLag(
  eventStore: EventStore,
  position: string,
  filter: AllFilter,
): Promise<{ head: string; lag: number }> {
  const head = await eventStore.headPosition();
  if (head <= position) return { head, lag: 0 };
  const pending = await eventStore.readAll({ after: position, filter, limit: 1 });
  return { head, lag: pending.length > 0 ? positionValue(head) - positionValue(position) : 0 };
}
