import type { ElementHandler } from '../run.ts';

/** A boundary event is activated when it triggers (a timer fired, an error was caught): it goes on at once. */
export const boundaryEvent: ElementHandler = {
  activate(run, el) {
    run.leave(el);
  },
};
