import type { GatewayModel } from '../../model/process-model.ts';
import { workflowError } from '../../workflow.errors.ts';
import type { ElementInstance } from '../instance.state.ts';
import { canReach } from '../reachability.ts';
import type { ElementHandler, Run } from '../run.ts';
import { waitingAt } from './parallel-gateway.ts';

/**
 * An inclusive gateway forks onto every outgoing flow whose condition holds (a flow without a condition
 * holds), else onto its default flow; with neither the command fails. With several incoming flows it
 * joins first: it fires when no other token of its scope can still reach it (the engine asks again when
 * tokens end elsewhere: inclusiveJoinReady).
 */
export const inclusiveGateway: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as GatewayModel;
    if (model.incoming.length > 1 && !inclusiveJoinReady(run, el)) return;
    fire(run, el);
  },
};

/** no token of the gateway's scope, other than those waiting at it, can still arrive */
export function inclusiveJoinReady(run: Run, el: ElementInstance): boolean {
  const model = run.model(el.instanceId);
  return !Object.values(run.state().elements).some(
    (other) =>
      other.instanceId === el.instanceId &&
      other.scopeKey === el.scopeKey &&
      other.elementId !== el.elementId &&
      canReach(model, other.elementId, el.elementId),
  );
}

/** joins the waiting tokens into `el` and forks */
export function fire(run: Run, el: ElementInstance): void {
  const model = run.elementModel(el) as GatewayModel;
  for (const other of waitingAt(run, el)) {
    if (other.key !== el.key)
      run.emit({
        type: 'ElementCompleted',
        data: { key: other.key, instanceId: other.instanceId, elementId: other.elementId },
      });
  }
  const flows = run.model(el.instanceId).flows;
  const outgoing = model.outgoing.map((k) => flows[k]!);
  const taken = outgoing.filter(
    (f) => f.key !== model.default && (f.condition === undefined || run.condition(el, f.condition)),
  );
  if (outgoing.length === 0 || taken.length > 0) {
    run.leave(el, taken);
    return;
  }
  if (model.default !== undefined) {
    run.leave(el, [flows[model.default]!]);
    return;
  }
  throw workflowError(
    'GATEWAY.NO_OUTGOING_FLOW',
    `No outgoing sequence flow for the element with id '${el.elementId}' could be selected for continuing the process`,
    { gateway: el.elementId },
  );
}
