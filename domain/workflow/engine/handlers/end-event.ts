import type { EndEventModel } from '../../model/process-model.ts';
import type { ElementHandler } from '../run.ts';

/**
 * End events. None: the token ends (the scope completes when it was the last). Terminate: every other
 * token of the scope ends too (open tasks CANCELED) and the scope completes. Error: the nearest boundary
 * event catching the error code interrupts its activity; uncaught, it ends like a none end event
 * (Camunda 7's rule).
 */
export const endEvent: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as EndEventModel;
    switch (model.end) {
      case 'none':
        run.leave(el, []);
        return;
      case 'terminate':
        run.emit({
          type: 'ElementCompleted',
          data: { key: el.key, instanceId: el.instanceId, elementId: el.elementId },
        });
        run.terminateScope(el.instanceId, el.scopeKey, `terminate end event '${el.elementId}'`);
        run.scopeMayBeDone(el.instanceId, el.scopeKey);
        return;
      case 'error':
        run.throwError(el, model.errorCode);
        return;
    }
  },
};
