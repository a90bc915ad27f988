import type { RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type { AllFilter } from './event-store.port.ts';

/** Whether an event passes a log filter (an absent or empty list lets everything through). */
export const matchesFilter = (filter: AllFilter | undefined, event: Pick<RecordedEvent, 'stream' | 'type'>): boolean =>
  (!filter?.eventTypes?.length || filter.eventTypes.includes(event.type)) &&
  (!filter?.categories?.length || filter.categories.includes(categoryOf(event.stream)));
