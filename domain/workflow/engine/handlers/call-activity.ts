import type { CallActivityModel, DefinitionRef } from '../../model/process-model.ts';
import { workflowError } from '../../workflow.errors.ts';
import type { ProcessInstance } from '../instance.state.ts';
import type { ElementHandler, Run } from '../run.ts';

/**
 * A call activity starts an instance of another process in the same stream and waits for it to end.
 * The called definition: the latest version of the key (default), or the binding the file names
 * (camunda:calledElementBinding deployment / version / versionTag, zeebe:calledElement bindingType).
 * Variables in: all (camunda:in variables="all", Zeebe's default) and the mappings (source variable or
 * source expression → target); out likewise when the called instance completes. The called instance
 * inherits the caller's business key (unless camunda:in businessKey names one), query variables and index.
 */
export const callActivity: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as CallActivityModel;
    const caller = run.instance(el.instanceId);
    const callerDefinition = run.definition(el.instanceId);
    const key = textOf(run.evaluate(el, model.calledElement));
    if (key === undefined)
      throw workflowError('CALLED_PROCESS.NOT_FOUND', `the call activity '${el.elementId}' names no process`, {
        element: el.elementId,
      });
    const ref = refOf(run, el, model, key, callerDefinition.deploymentId);
    const called = run.resolve(ref, el);

    const variables: Record<string, unknown> = model.inAll ? { ...caller.variables } : {};
    for (const m of model.inputs) {
      if (m.sourceExpression !== undefined) variables[m.target] = run.evaluate(el, m.sourceExpression);
      else if (m.source !== undefined && Object.hasOwn(caller.variables, m.source))
        variables[m.target] = caller.variables[m.source];
    }
    const businessKey =
      model.businessKey === undefined
        ? caller.businessKey
        : (textOf(run.evaluate(el, model.businessKey)) ?? caller.businessKey);

    run.scheduleBoundaryTimers(el);
    const childId = run.newId('p');
    run.emit({
      type: 'ProcessInstanceStarted',
      data: {
        instanceId: childId,
        rootInstanceId: run.state().rootId!,
        parent: { instanceId: el.instanceId, elementKey: el.key },
        processDefinitionId: called.id,
        processKey: called.key,
        version: called.version,
        deploymentId: called.deploymentId,
        businessKey,
        variables,
        queryVariables: caller.queryVariables,
        ...(caller.indexSchema !== undefined && { indexSchema: caller.indexSchema }),
        startedAt: run.now,
      },
    });
    run.activate(childId, called.model.start, null);
  },
};

/** The called instance completed: its variables go back by the output mappings, the call activity leaves. */
export function returnFromCall(run: Run, child: ProcessInstance): void {
  if (child.parent === undefined) return;
  const callEl = run.state().elements[child.parent.elementKey];
  if (callEl === undefined) return;
  const model = run.elementModel(callEl) as CallActivityModel;
  const out: Record<string, unknown> = model.outAll ? { ...child.variables } : {};
  for (const m of model.outputs) {
    if (m.sourceExpression !== undefined)
      out[m.target] = run.evaluate({ instanceId: child.id, elementId: callEl.elementId }, m.sourceExpression);
    else if (m.source !== undefined && Object.hasOwn(child.variables, m.source))
      out[m.target] = child.variables[m.source];
  }
  if (Object.keys(out).length > 0)
    run.emit({ type: 'VariablesSet', data: { instanceId: callEl.instanceId, variables: out } });
  run.leave(callEl);
}

function refOf(
  run: Run,
  el: Parameters<Run['evaluate']>[0],
  model: CallActivityModel,
  key: string,
  deploymentId: string,
): DefinitionRef {
  switch (model.binding) {
    case 'latest':
      return { kind: 'latest', key };
    case 'deployment':
      return { kind: 'deployment', key, deploymentId };
    case 'version': {
      const version = Number(model.version === undefined ? NaN : textOf(run.evaluate(el, model.version)));
      if (!Number.isInteger(version))
        throw workflowError(
          'CALLED_PROCESS.NOT_FOUND',
          `the call activity '${el.elementId}' names no valid version of '${key}'`,
          { element: el.elementId, key },
        );
      return { kind: 'version', key, version };
    }
    case 'versionTag':
      return { kind: 'versionTag', key, versionTag: model.versionTag ?? '' };
  }
}

const textOf = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
};
