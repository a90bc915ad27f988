import type { ModdleElement } from 'bpmn-moddle';
import type { Dialect, Expr, VariableMapping } from '../../../domain/workflow/model/process-model.ts';

/**
 * Reading the execution attributes of the three dialects the engine accepts: Camunda 7 (typed by
 * camunda-bpmn-moddle), Zeebe (zeebe-bpmn-moddle extension elements) and plain BPMN with Activiti or
 * Flowable attributes (moddle keeps those as unknown attributes: `activiti:assignee`).
 */

export const LEGACY_PREFIXES = ['camunda', 'activiti', 'flowable'];

/** a typed attribute, else the same name in a legacy namespace */
export function attr(el: ModdleElement, name: string): string | undefined {
  const typed = el[name];
  if (typeof typed === 'string') return typed;
  if (typeof typed === 'boolean' || typeof typed === 'number') return String(typed);
  for (const prefix of LEGACY_PREFIXES) {
    const v = el.$attrs?.[`${prefix}:${name}`];
    if (v !== undefined) return v;
  }
  return undefined;
}

/** the extension elements of a type (`camunda:In`, `zeebe:AssignmentDefinition`) */
export function extensions(el: ModdleElement, type: string): ModdleElement[] {
  const ext = el.extensionElements as { values?: ModdleElement[] } | undefined;
  return (ext?.values ?? []).filter((v) => v.$type === type);
}

/**
 * An attribute value as an expression of its dialect: Zeebe `=…` is FEEL, else literal; elsewhere text
 * with `${`/`#{` is JUEL, else literal.
 */
export function exprOf(dialect: Dialect, text: string | undefined): Expr | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (t === '') return undefined;
  if (dialect === 'zeebe') return t.startsWith('=') ? { language: 'feel', text: t } : { language: 'literal', text: t };
  return /[$#]\{/.test(t) ? { language: 'juel', text: t } : { language: 'literal', text: t };
}

/** a FormalExpression's body (conditions, timers), with its language */
export function formalExpr(dialect: Dialect, formal: ModdleElement | undefined): Expr | undefined {
  if (formal === undefined) return undefined;
  const body = typeof formal.body === 'string' ? formal.body : undefined;
  if (body === undefined || body.trim() === '') return undefined;
  const language = typeof formal.language === 'string' ? formal.language.toLowerCase() : undefined;
  if (language === 'feel' || language?.endsWith('feel')) return { language: 'feel', text: body.trim() };
  return exprOf(dialect, body);
}

export type Assignment = {
  assignee?: Expr;
  candidateUsers?: Expr;
  candidateGroups?: Expr;
  dueDate?: Expr;
  followUpDate?: Expr;
  priority?: Expr;
  formKey?: string;
};

/** a user task's assignment in its dialect, plus humanPerformer / potentialOwner in any */
export function assignmentOf(dialect: Dialect, el: ModdleElement): Assignment {
  const a: Assignment = {};
  const set = <K extends keyof Assignment>(k: K, v: Assignment[K] | undefined) => {
    if (v !== undefined) a[k] = v;
  };
  if (dialect === 'zeebe') {
    const def = extensions(el, 'zeebe:AssignmentDefinition')[0];
    set('assignee', exprOf(dialect, def?.assignee as string | undefined));
    set('candidateUsers', exprOf(dialect, def?.candidateUsers as string | undefined));
    set('candidateGroups', exprOf(dialect, def?.candidateGroups as string | undefined));
    const schedule = extensions(el, 'zeebe:TaskSchedule')[0];
    set('dueDate', exprOf(dialect, schedule?.dueDate as string | undefined));
    set('followUpDate', exprOf(dialect, schedule?.followUpDate as string | undefined));
    const priority = extensions(el, 'zeebe:PriorityDefinition')[0];
    set('priority', exprOf(dialect, priority?.priority === undefined ? undefined : String(priority.priority)));
    const form = extensions(el, 'zeebe:FormDefinition')[0];
    const formKey = (form?.formKey ?? form?.formId) as string | undefined;
    if (formKey !== undefined) a.formKey = formKey;
  } else {
    set('assignee', exprOf(dialect, attr(el, 'assignee')));
    set('candidateUsers', exprOf(dialect, attr(el, 'candidateUsers')));
    set('candidateGroups', exprOf(dialect, attr(el, 'candidateGroups')));
    set('dueDate', exprOf(dialect, attr(el, 'dueDate')));
    set('followUpDate', exprOf(dialect, attr(el, 'followUpDate')));
    set('priority', exprOf(dialect, attr(el, 'priority')));
    const formKey = attr(el, 'formKey');
    if (formKey !== undefined) a.formKey = formKey;
  }
  // BPMN's own resource assignments (any dialect): humanPerformer is the assignee, potentialOwner the
  // candidates (`user(kermit), group(management)`; a bare name is a group, as in Camunda 7)
  for (const r of (el.resources as ModdleElement[] | undefined) ?? []) {
    const formal = (r.resourceAssignmentExpression as ModdleElement | undefined)?.expression as
      | ModdleElement
      | undefined;
    const text = typeof formal?.body === 'string' ? formal.body.trim() : undefined;
    if (text === undefined || text === '') continue;
    if (r.$type === 'bpmn:HumanPerformer' || r.$type === 'bpmn:Performer') {
      a.assignee ??= exprOf(dialect === 'zeebe' ? 'camunda7' : dialect, text);
    } else if (r.$type === 'bpmn:PotentialOwner') {
      const users: string[] = [];
      const groups: string[] = [];
      for (const part of text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const m = /^(user|group)\((.*)\)$/.exec(part);
        if (m?.[1] === 'user') users.push(m[2]!.trim());
        else groups.push(m ? m[2]!.trim() : part);
      }
      if (users.length > 0) a.candidateUsers ??= exprOf('camunda7', users.join(','));
      if (groups.length > 0) a.candidateGroups ??= exprOf('camunda7', groups.join(','));
    }
  }
  return a;
}

export type CallSpec = {
  calledElement?: Expr;
  binding: 'latest' | 'deployment' | 'version' | 'versionTag';
  version?: Expr;
  versionTag?: string;
  businessKey?: Expr;
  inputs: VariableMapping[];
  outputs: VariableMapping[];
  inAll: boolean;
  outAll: boolean;
};

/** a call activity's target, binding and variable mappings in its dialect */
export function callSpecOf(dialect: Dialect, el: ModdleElement): CallSpec {
  if (dialect === 'zeebe') {
    const called = extensions(el, 'zeebe:CalledElement')[0];
    const io = extensions(el, 'zeebe:IoMapping')[0];
    const mappings = (list: unknown): VariableMapping[] =>
      ((list as ModdleElement[] | undefined) ?? []).map((p) => {
        const source = exprOf('zeebe', p.source as string | undefined);
        const target = String(p.target ?? '');
        return source === undefined || source.language === 'literal'
          ? { source: String(p.source ?? target), target }
          : { sourceExpression: source, target };
      });
    const outputs = mappings(io?.outputParameters);
    const processId = (called?.processId ?? called?.processIdExpression) as string | undefined;
    const bindingType = called?.bindingType as string | undefined;
    const flag = (v: unknown, fallback: boolean) => (v === undefined ? fallback : v === true || v === 'true');
    return {
      ...(processId !== undefined && { calledElement: exprOf('zeebe', processId) }),
      binding: bindingType === 'deployment' ? 'deployment' : bindingType === 'versionTag' ? 'versionTag' : 'latest',
      ...(typeof called?.versionTag === 'string' && { versionTag: called.versionTag }),
      inputs: mappings(io?.inputParameters),
      outputs,
      inAll: flag(called?.propagateAllParentVariables, true),
      // Zeebe propagates every child variable unless output mappings say which
      outAll: flag(called?.propagateAllChildVariables, outputs.length === 0),
    };
  }
  const inputs: VariableMapping[] = [];
  const outputs: VariableMapping[] = [];
  let inAll = false;
  let outAll = false;
  let businessKey: Expr | undefined;
  for (const [type, list] of [
    ['camunda:In', inputs],
    ['camunda:Out', outputs],
  ] as const) {
    const found = [...extensions(el, type), ...legacyMappings(el, type === 'camunda:In' ? 'in' : 'out')];
    for (const m of found) {
      if (m.variables === 'all') {
        if (type === 'camunda:In') inAll = true;
        else outAll = true;
        continue;
      }
      if (type === 'camunda:In' && typeof m.businessKey === 'string') {
        businessKey = exprOf('camunda7', m.businessKey);
        continue;
      }
      const target = typeof m.target === 'string' ? m.target : undefined;
      if (target === undefined) continue;
      const sourceExpression = exprOf('camunda7', m.sourceExpression as string | undefined);
      if (sourceExpression !== undefined) list.push({ sourceExpression, target });
      else if (typeof m.source === 'string') list.push({ source: m.source, target });
    }
  }
  const binding = attr(el, 'calledElementBinding');
  const calledElement = typeof el.calledElement === 'string' ? el.calledElement : undefined;
  return {
    ...(calledElement !== undefined && {
      calledElement: exprOf(dialect, calledElement) ?? { language: 'literal', text: calledElement },
    }),
    binding: binding === 'deployment' || binding === 'version' || binding === 'versionTag' ? binding : 'latest',
    ...(attr(el, 'calledElementVersion') !== undefined && {
      version: exprOf(dialect, attr(el, 'calledElementVersion')),
    }),
    ...(attr(el, 'calledElementVersionTag') !== undefined && { versionTag: attr(el, 'calledElementVersionTag') }),
    ...(businessKey !== undefined && { businessKey }),
    inputs,
    outputs,
    inAll,
    outAll,
  };
}

/** Activiti / Flowable `<activiti:in source target/>` kept by plain moddle as generic extension elements */
function legacyMappings(el: ModdleElement, kind: 'in' | 'out'): ModdleElement[] {
  const ext = el.extensionElements as { values?: ModdleElement[] } | undefined;
  return (ext?.values ?? [])
    .filter((v) => v.$type === `activiti:${kind}` || v.$type === `flowable:${kind}`)
    .map((v) => ({ ...(v.$attrs ?? {}), ...v }) as ModdleElement);
}
