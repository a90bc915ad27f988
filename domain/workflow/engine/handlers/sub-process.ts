import type { SubProcessModel } from '../../model/process-model.ts';
import type { ElementHandler } from '../run.ts';

/**
 * An embedded subprocess is a scope: its start event gets a token inside it; it completes (and leaves by
 * its outgoing flows) when its last token ends. Its boundary events watch the whole scope.
 */
export const subProcess: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as SubProcessModel;
    run.scheduleBoundaryTimers(el);
    run.activate(el.instanceId, model.start, el.key);
  },
};
