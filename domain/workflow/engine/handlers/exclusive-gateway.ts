import type { GatewayModel } from '../../model/process-model.ts';
import { workflowError } from '../../workflow.errors.ts';
import type { ElementHandler } from '../run.ts';

/**
 * An exclusive gateway takes the first outgoing flow whose condition holds (a flow without a condition
 * holds), in the definition's order, else its default flow; with neither the command fails with the
 * spec's error and nothing changes (the completing task stays open).
 */
export const exclusiveGateway: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as GatewayModel;
    const flows = run.model(el.instanceId).flows;
    const outgoing = model.outgoing.map((k) => flows[k]!);
    if (outgoing.length === 0) return run.leave(el, []);
    const chosen = outgoing.find(
      (f) => f.key !== model.default && (f.condition === undefined || run.condition(el, f.condition)),
    );
    if (chosen !== undefined) return run.leave(el, [chosen]);
    if (model.default !== undefined) return run.leave(el, [flows[model.default]!]);
    throw workflowError(
      'GATEWAY.NO_OUTGOING_FLOW',
      `No outgoing sequence flow of the exclusive gateway '${el.elementId}' could be selected for continuing the process`,
      { gateway: el.elementId },
    );
  },
};
