import * as assert from 'uvu/assert';
import type { Decider } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { DomainEvent } from '../../domain/core/event.ts';

/**
 * given(events).when(command).then(events) | .thenThrows(code[, status]) for decider specs (Emmett style).
 * Asserts on the decided events exactly, and for errors on the stable code.
 */
export function deciderSpec<C, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      return {
        when(command: C) {
          const run = () => {
            let state = decider.initialState();
            for (const e of events) state = decider.evolve(state, e);
            return decider.decide(command, state);
          };
          return {
            // biome-ignore lint/suspicious/noThenProperty: given/when/then is the spec language; nothing awaits this object
            then(expected: E[]) {
              assert.equal(run(), expected);
            },
            thenThrows(code: string, status?: number) {
              try {
                const produced = run();
                assert.unreachable(`expected ${code}, but decided ${JSON.stringify(produced)}`);
              } catch (err) {
                if (err instanceof assert.Assertion) throw err;
                assert.ok(isDomainError(err), `expected a DomainError, got ${String(err)}`);
                assert.is(err.code, code);
                if (status !== undefined) assert.is(err.status, status);
              }
            },
          };
        },
      };
    },
  };
}
