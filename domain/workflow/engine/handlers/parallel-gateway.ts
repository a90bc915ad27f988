import type { GatewayModel } from '../../model/process-model.ts';
import type { ElementInstance } from '../instance.state.ts';
import type { ElementHandler, Run } from '../run.ts';

/**
 * A parallel gateway forks a token onto every outgoing flow. With several incoming flows it joins first:
 * arrivals wait at the gateway (as element instances) until one has come by each incoming flow; those
 * continue as one token, later arrivals wait for the next round. Unbalanced joins need nothing more.
 */
export const parallelGateway: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as GatewayModel;
    const flows = run.model(el.instanceId).flows;
    const outgoing = model.outgoing.map((k) => flows[k]!);
    if (model.incoming.length <= 1) return run.leave(el, outgoing);
    const arrivals = waitingAt(run, el);
    const joined: ElementInstance[] = [];
    for (const flow of model.incoming) {
      const first = arrivals.find((a) => a.flow === flow);
      if (first === undefined) return; // still waiting for this flow
      joined.push(first);
    }
    const [continuing, ...merged] = joined.includes(el) ? [el, ...joined.filter((j) => j !== el)] : joined;
    for (const m of merged)
      run.emit({ type: 'ElementCompleted', data: { key: m.key, instanceId: m.instanceId, elementId: m.elementId } });
    run.leave(continuing!, outgoing);
  },
};

/** the tokens waiting at el's gateway in el's scope, in arrival order */
export const waitingAt = (run: Run, el: ElementInstance): ElementInstance[] =>
  Object.values(run.state().elements).filter(
    (e) => e.instanceId === el.instanceId && e.elementId === el.elementId && e.scopeKey === el.scopeKey,
  );
