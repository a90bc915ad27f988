import type { ElementHandler } from '../run.ts';

/** A none start event: the token goes on at once (the initiator variable is set when the instance starts). */
export const startEvent: ElementHandler = {
  activate(run, el) {
    run.leave(el);
  },
};
