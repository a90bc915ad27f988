import type { Expr, UserTaskModel } from '../../model/process-model.ts';
import { addDuration, parseDateTime, parseDuration } from '../../time/iso8601.ts';
import { workflowError } from '../../workflow.errors.ts';
import type { Task } from '../instance.events.ts';
import type { ElementInstance } from '../instance.state.ts';
import type { ElementHandler, Run } from '../run.ts';

/**
 * A user task: a Task (TaskCreated) the token waits on until it is completed. Its assignment is evaluated
 * now, with the instance's variables: assignee (camunda:assignee, zeebe:assignmentDefinition, a
 * humanPerformer), candidate users and groups (comma-separated text or a list), due and follow-up dates
 * (ISO 8601 dates, or durations from now), priority (default 50). An assignee expression naming a
 * variable that does not exist fails the command: `Error while evaluating expression: ${assignee}`.
 * Status: ASSIGNED with an assignee, CREATED with candidates only. Boundary timers start with it.
 */
export const userTask: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as UserTaskModel;
    const text = (expr: Expr | undefined) => (expr === undefined ? undefined : textOf(run.evaluate(el, expr)));
    const assignee = text(model.assignee);
    const candidateUsers = model.candidateUsers === undefined ? [] : listOf(run.evaluate(el, model.candidateUsers));
    const candidateGroups = model.candidateGroups === undefined ? [] : listOf(run.evaluate(el, model.candidateGroups));
    const dueDate = dateOf(run, el, model.dueDate);
    const followUpDate = dateOf(run, el, model.followUpDate);
    const priority = priorityOf(run, el, model.priority);
    const instance = run.instance(el.instanceId);
    const task: Task = {
      id: run.newId('t'),
      instanceId: el.instanceId,
      elementKey: el.key,
      elementId: el.elementId,
      ...(model.name !== undefined && { name: model.name }),
      status: assignee === undefined ? 'CREATED' : 'ASSIGNED',
      ...(assignee !== undefined && { assignee }),
      candidateUsers,
      candidateGroups,
      priority,
      ...(dueDate !== undefined && { dueDate }),
      ...(followUpDate !== undefined && { followUpDate }),
      ...(model.formKey !== undefined && { formKey: model.formKey }),
      ...(model.documentation !== undefined && { description: model.documentation }),
      createdAt: run.now,
    };
    run.emit({
      type: 'TaskCreated',
      data: {
        task,
        context: {
          rootInstanceId: run.state().rootId!,
          processDefinitionId: instance.processDefinitionId,
          processKey: instance.processKey,
          version: instance.version,
          businessKey: instance.businessKey,
          ...(instance.indexSchema !== undefined && { indexSchema: instance.indexSchema }),
          queryVariables: instance.queryVariables,
        },
      },
    });
    run.scheduleBoundaryTimers(el);
  },
};

const textOf = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined;
  const s = (
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)
  ).trim();
  return s === '' ? undefined : s;
};

const listOf = (v: unknown): string[] => {
  if (v === null || v === undefined) return [];
  const items = Array.isArray(v)
    ? v.map(textOf)
    : String(v)
        .split(',')
        .map((s) => textOf(s));
  return [...new Set(items.filter((s): s is string => s !== undefined))];
};

function dateOf(run: Run, el: ElementInstance, expr: Expr | undefined): string | undefined {
  if (expr === undefined) return undefined;
  const value = textOf(run.evaluate(el, expr));
  if (value === undefined) return undefined;
  const at = parseDateTime(value);
  if (at !== null) return at;
  const d = parseDuration(value);
  if (d !== null) return addDuration(run.now, d);
  throw workflowError(
    'EXPRESSION.EVALUATION_FAILED',
    `Error while evaluating expression: ${expr.text}. Cause: ${JSON.stringify(value)} is not an ISO 8601 date or duration`,
    {
      element: el.elementId,
      expression: expr.text,
    },
  );
}

function priorityOf(run: Run, el: ElementInstance, expr: Expr | undefined): number {
  if (expr === undefined) return 50;
  const value = run.evaluate(el, expr);
  const n = typeof value === 'number' ? value : Number(textOf(value));
  if (!Number.isInteger(n)) {
    throw workflowError(
      'EXPRESSION.EVALUATION_FAILED',
      `Error while evaluating expression: ${expr.text}. Cause: the priority ${JSON.stringify(value)} is not an integer`,
      {
        element: el.elementId,
        expression: expr.text,
      },
    );
  }
  return n;
}
