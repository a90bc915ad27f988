import type { ElementHandler } from '../run.ts';

/**
 * Service, script, send, business-rule, manual and plain tasks, none intermediate throw events: the token
 * passes at once. No code, script, decision table or message from the definition is ever executed.
 */
export const passThrough: ElementHandler = {
  activate(run, el) {
    run.leave(el);
  },
};
