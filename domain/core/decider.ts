import type { DomainEvent } from './event.ts';

/**
 * A decider is three pure functions (Emmett / Chassaing style). `decide` throws a DomainError to reject.
 * Time and ids reach it inside the command, never from a clock or a random source of its own.
 */
export type Decider<Command, Event extends DomainEvent, State> = {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
};

export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState();
  for (const e of events) state = decider.evolve(state, e);
  return state;
}

/** Exhaustiveness guard for switches over discriminated unions. */
export function assertNever(x: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(x)}`);
}
