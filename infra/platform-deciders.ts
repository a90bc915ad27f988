import type { Decider } from '../domain/core/decider.ts';
import type { DomainEvent } from '../domain/core/event.ts';

/** Deciders by stream category, for `platform replay --state`. Services register theirs as they arrive. */
export type DeciderRegistry = Record<string, Pick<Decider<unknown, DomainEvent, unknown>, 'initialState' | 'evolve'>>;

export const platformDeciders = (): DeciderRegistry => ({});
