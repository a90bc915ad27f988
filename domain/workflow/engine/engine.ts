import {
  type ExpressionContext,
  ExpressionFailure,
  evaluateCondition,
  evaluateExpression,
} from '../expression/expression.ts';
import type {
  BoundaryEventModel,
  DefinitionLookup,
  ElementModel,
  Expr,
  FlowModel,
  ProcessDefinition,
} from '../model/process-model.ts';
import { workflowError } from '../workflow.errors.ts';
import { DefinitionNeeded } from './definition-needed.ts';
import { returnFromCall } from './handlers/call-activity.ts';
import { fire, inclusiveJoinReady } from './handlers/inclusive-gateway.ts';
import { handlerFor } from './handlers/index.ts';
import type { InstanceEvent } from './instance.events.ts';
import { type ElementInstance, evolveInstance, type InstanceTreeState } from './instance.state.ts';
import type { ExpressionSite, Run } from './run.ts';
import { timerDue } from './timers.ts';

/** steps one command may take: a loop of pass-through elements without a wait state ends here */
export const STEP_LIMIT = 10_000;

export type EngineRun = Run & {
  events: InstanceEvent[];
  /** runs the behaviours of the activated elements until every token waits (a task, a timer, a join) */
  drain(): void;
};

/**
 * The interpreter over one instance tree for one command. Tokens are element instances; `activate` emits
 * ElementActivated and queues the element's behaviour (handlers/), `drain` runs the queue in order. All
 * changes are events folded at once into the working state; the command's outcome is the list of events,
 * or a thrown DomainError (then nothing is appended: a start that cannot reach a wait state leaves no
 * instance, a completion that cannot move leaves the task open).
 */
export function createRun(initial: InstanceTreeState, lookup: DefinitionLookup, now: string): EngineRun {
  let state = initial;
  const events: InstanceEvent[] = [];
  const queue: string[] = [];
  let steps = 0;

  const definitionById = (id: string): ProcessDefinition => {
    const d = lookup({ kind: 'id', id });
    if (d === undefined) throw new DefinitionNeeded({ kind: 'id', id });
    if (d === null) throw new Error(`definition ${id} of a running instance is missing`);
    return d;
  };

  const contextOf = (at: ExpressionSite): ExpressionContext => {
    const instance = run.instance(at.instanceId);
    return {
      variables: instance.variables,
      implicit: {
        execution: {
          processBusinessKey: instance.businessKey,
          processInstanceId: instance.id,
          processDefinitionId: instance.processDefinitionId,
          activityId: at.elementId,
        },
      },
    };
  };

  const failed = (at: ExpressionSite, err: unknown): never => {
    if (err instanceof ExpressionFailure) {
      throw workflowError('EXPRESSION.EVALUATION_FAILED', err.message, {
        element: at.elementId,
        expression: err.expression,
        cause: err.reason,
      });
    }
    throw err;
  };

  const boundaryModels = (el: ElementInstance): BoundaryEventModel[] => {
    const model = run.model(el.instanceId);
    return run.elementModel(el).boundaries.map((id) => model.elements[id] as BoundaryEventModel);
  };

  const cancelTimersOf = (key: string) => {
    for (const t of Object.values(state.timers)) {
      if (t.elementKey === key) run.emit({ type: 'TimerCanceled', data: { timerId: t.id, instanceId: t.instanceId } });
    }
  };

  const run: EngineRun = {
    now,
    events,
    state: () => state,
    emit(event) {
      events.push(event);
      state = evolveInstance(state, event);
    },
    instance(instanceId) {
      const i = state.instances[instanceId];
      if (i === undefined) throw new Error(`no instance ${instanceId} in this stream`);
      return i;
    },
    definition: (instanceId) => definitionById(run.instance(instanceId).processDefinitionId),
    model: (instanceId) => run.definition(instanceId).model,
    elementModel(el): ElementModel {
      const m = run.model(el.instanceId).elements[el.elementId];
      if (m === undefined)
        throw new Error(`no element ${el.elementId} in ${run.instance(el.instanceId).processDefinitionId}`);
      return m;
    },
    newId: (kind) => `${state.rootId}.${kind}${state.seq}`,

    activate(instanceId, elementId, scopeKey, flow) {
      const model = run.model(instanceId).elements[elementId];
      if (model === undefined) throw new Error(`no element ${elementId}`);
      const key = `e${state.seq}`;
      run.emit({
        type: 'ElementActivated',
        data: { key, instanceId, elementId, elementType: model.type, scopeKey, ...(flow !== undefined && { flow }) },
      });
      queue.push(key);
      return state.elements[key]!;
    },

    outgoingOf(el) {
      const model = run.elementModel(el);
      const flows = run.model(el.instanceId).flows;
      const outgoing = model.outgoing.map((k) => flows[k]!);
      const defaultFlow = 'default' in model ? model.default : undefined;
      const taken = outgoing.filter(
        (f) => f.key !== defaultFlow && (f.condition === undefined || run.condition(el, f.condition)),
      );
      if (taken.length > 0 || outgoing.length === 0) return taken;
      if (defaultFlow !== undefined) return [flows[defaultFlow]!];
      throw workflowError(
        'GATEWAY.NO_OUTGOING_FLOW',
        `No outgoing sequence flow for the element with id '${el.elementId}' could be selected for continuing the process`,
        {
          element: el.elementId,
        },
      );
    },

    leave(el, flows?: FlowModel[]) {
      const taken = flows ?? run.outgoingOf(el);
      cancelTimersOf(el.key);
      run.emit({ type: 'ElementCompleted', data: { key: el.key, instanceId: el.instanceId, elementId: el.elementId } });
      for (const f of taken) run.activate(el.instanceId, f.target, el.scopeKey, f.key);
      if (taken.length === 0) run.scopeMayBeDone(el.instanceId, el.scopeKey);
    },

    terminate(el, reason) {
      if (state.elements[el.key] === undefined) return;
      if (el.type === 'subProcess') run.terminateScope(el.instanceId, el.key, reason);
      if (el.type === 'callActivity') {
        const child = Object.values(state.instances).find(
          (i) => i.parent?.elementKey === el.key && i.status === 'ACTIVE',
        );
        if (child !== undefined) {
          run.terminateScope(child.id, null, reason);
          run.emit({ type: 'ProcessInstanceTerminated', data: { instanceId: child.id, at: now, reason } });
        }
      }
      if (el.type === 'userTask') {
        const task = Object.values(state.tasks).find((t) => t.elementKey === el.key);
        if (task !== undefined)
          run.emit({ type: 'TaskCanceled', data: { taskId: task.id, instanceId: task.instanceId, at: now, reason } });
      }
      cancelTimersOf(el.key);
      run.emit({
        type: 'ElementTerminated',
        data: { key: el.key, instanceId: el.instanceId, elementId: el.elementId },
      });
    },

    terminateScope(instanceId, scopeKey, reason, except) {
      for (const el of Object.values(state.elements)) {
        if (el.instanceId === instanceId && el.scopeKey === scopeKey && el.key !== except) run.terminate(el, reason);
      }
    },

    throwError(el, errorCode) {
      run.emit({ type: 'ElementCompleted', data: { key: el.key, instanceId: el.instanceId, elementId: el.elementId } });
      let instanceId = el.instanceId;
      let scopeKey = el.scopeKey;
      for (;;) {
        // the activity whose boundary events may catch: the enclosing subprocess, else the caller's call activity
        let activity: ElementInstance | undefined;
        if (scopeKey !== null) activity = state.elements[scopeKey];
        else {
          const parent = run.instance(instanceId).parent;
          if (parent !== undefined) activity = state.elements[parent.elementKey];
        }
        if (activity === undefined) break;
        const catchers = boundaryModels(activity).filter((b) => b.trigger.kind === 'error');
        const catcher =
          catchers.find(
            (b) => b.trigger.kind === 'error' && b.trigger.errorCode !== undefined && b.trigger.errorCode === errorCode,
          ) ?? catchers.find((b) => b.trigger.kind === 'error' && b.trigger.errorCode === undefined);
        if (catcher !== undefined) {
          run.terminate(activity, `error ${errorCode ?? ''} caught by '${catcher.id}'`.replace('  ', ' '));
          run.activate(activity.instanceId, catcher.id, activity.scopeKey);
          return;
        }
        instanceId = activity.instanceId;
        scopeKey = activity.scopeKey;
      }
      run.scopeMayBeDone(el.instanceId, el.scopeKey); // uncaught: like a none end event
    },

    scopeMayBeDone(instanceId, scopeKey) {
      const busy = Object.values(state.elements).some((e) => e.instanceId === instanceId && e.scopeKey === scopeKey);
      if (busy) return;
      if (scopeKey !== null) {
        const scope = state.elements[scopeKey];
        if (scope !== undefined) run.leave(scope);
        return;
      }
      const instance = run.instance(instanceId);
      if (instance.status !== 'ACTIVE') return;
      run.emit({ type: 'ProcessInstanceCompleted', data: { instanceId, at: now } });
      if (instance.parent !== undefined) returnFromCall(run, run.instance(instanceId));
    },

    evaluate(at, expr: Expr) {
      try {
        return evaluateExpression(expr, contextOf(at));
      } catch (err) {
        return failed(at, err);
      }
    },
    condition(at, expr: Expr) {
      try {
        return evaluateCondition(expr, contextOf(at));
      } catch (err) {
        return failed(at, err);
      }
    },
    resolve(ref, at) {
      const d = lookup(ref);
      if (d === undefined) throw new DefinitionNeeded(ref);
      if (d === null) {
        throw workflowError(
          'CALLED_PROCESS.NOT_FOUND',
          `the call activity '${at.elementId}' calls '${'key' in ref ? ref.key : ref.id}' (${ref.kind}), which is not deployed`,
          {
            element: at.elementId,
            ...ref,
          },
        );
      }
      return d;
    },

    scheduleBoundaryTimers(el) {
      for (const b of boundaryModels(el)) {
        if (b.trigger.kind !== 'timer') continue;
        const due = timerDue(b.trigger.timer, run.evaluate(el, b.trigger.timer.value), now, b.id);
        const id = run.newId('m');
        run.emit({
          type: 'TimerScheduled',
          data: {
            timer: {
              id,
              instanceId: el.instanceId,
              elementId: b.id,
              elementKey: el.key,
              boundary: true,
              dueAt: due.dueAt,
              ...(due.cycle && { cycle: due.cycle }),
            },
          },
        });
      }
    },

    drain() {
      for (;;) {
        while (queue.length > 0) {
          const key = queue.shift()!;
          const el = state.elements[key];
          if (el === undefined) continue; // ended before its turn (an interrupting event)
          if (++steps > STEP_LIMIT) {
            throw workflowError(
              'PROCESS_INSTANCE.STEP_LIMIT',
              `the process took more than ${STEP_LIMIT} steps without reaching a wait state (a loop without a task?)`,
              {
                element: el.elementId,
              },
            );
          }
          handlerFor(el.type).activate(run, el);
        }
        // a token that ended elsewhere may have released an inclusive join
        const released = Object.values(state.elements).find(
          (e) => e.type === 'inclusiveGateway' && run.elementModel(e).incoming.length > 1 && inclusiveJoinReady(run, e),
        );
        if (released === undefined) return;
        fire(run, released);
      }
    },
  };
  return run;
}
