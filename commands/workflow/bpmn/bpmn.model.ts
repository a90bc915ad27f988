import type { ModdleElement } from 'bpmn-moddle';
import { callsCode, syntaxProblem } from '../../../domain/workflow/expression/expression.ts';
import type {
  Dialect,
  ElementModel,
  Expr,
  FlowModel,
  ProcessModel,
  TimerDefinition,
} from '../../../domain/workflow/model/process-model.ts';
import { parseCycle, parseDateTime, parseDuration } from '../../../domain/workflow/time/iso8601.ts';
import { workflowError } from '../../../domain/workflow/workflow.errors.ts';
import { assignmentOf, attr, callSpecOf, formalExpr } from './bpmn.attributes.ts';

/**
 * From bpmn-moddle's tree to the engine's process model (domain/workflow/model/process-model.ts), one per
 * executable process of the file, checking on the way what the engine runs: the elements it supports
 * (anything else is a 400 naming the element, its id and its line), one none start event per scope,
 * flows between elements of one scope (the graph comes from each flow's sourceRef and targetRef; flows may
 * lack ids, `<incoming>`/`<outgoing>` are not needed), default flows that leave their gateway, and
 * expressions that parse. Due dates computed by code (`${dateTime().plusWeeks(1).toDate()}`) are dropped
 * with a warning: no code runs here.
 */

const IGNORED = new Set([
  'bpmn:DataObject',
  'bpmn:DataObjectReference',
  'bpmn:DataStoreReference',
  'bpmn:TextAnnotation',
  'bpmn:Association',
  'bpmn:Group',
]);
const PASS_THROUGH = new Set([
  'bpmn:Task',
  'bpmn:ServiceTask',
  'bpmn:ScriptTask',
  'bpmn:SendTask',
  'bpmn:BusinessRuleTask',
  'bpmn:ManualTask',
]);

type Ctx = { xml: string; resource: string; dialect: Dialect; warnings: string[]; flowCount: number };

const local = (type: string) => {
  const name = type.replace(/^bpmn:/, '');
  return name.charAt(0).toLowerCase() + name.slice(1);
};

export function lineOf(xml: string, id: string | undefined): number | undefined {
  if (id === undefined) return undefined;
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`\\bid\\s*=\\s*["']${escaped}["']`).exec(xml);
  if (m === null) return undefined;
  let line = 1;
  for (let i = 0; i < m.index; i++) if (xml.charCodeAt(i) === 10) line++;
  return line;
}

function unsupported(ctx: Ctx, el: ModdleElement, what?: string): never {
  const line = lineOf(ctx.xml, el.id);
  const element = local(el.$type);
  const label = `<${element}>${el.id !== undefined ? ` '${el.id}'` : ''}${what !== undefined ? ` with ${what}` : ''}`;
  throw workflowError(
    'DEPLOYMENT.UNSUPPORTED_ELEMENT',
    `${ctx.resource}: ${label}${line !== undefined ? ` at line ${line}` : ''} is not supported by this engine`,
    {
      resource: ctx.resource,
      element,
      ...(el.id !== undefined && { id: el.id }),
      ...(line !== undefined && { line }),
      ...(what !== undefined && { detail: what }),
    },
  );
}

function invalid(ctx: Ctx, message: string, el?: { id?: string }): never {
  const line = lineOf(ctx.xml, el?.id);
  throw workflowError(
    'DEPLOYMENT.INVALID',
    `${ctx.resource}: ${message}${line !== undefined ? ` (line ${line})` : ''}`,
    {
      resource: ctx.resource,
      ...(el?.id !== undefined && { id: el.id }),
      ...(line !== undefined && { line }),
    },
  );
}

const definitionsOf = (el: ModdleElement): ModdleElement[] =>
  (el.eventDefinitions as ModdleElement[] | undefined) ?? [];

function checkExpr(ctx: Ctx, el: ModdleElement, what: string, expr: Expr | undefined): Expr | undefined {
  if (expr === undefined) return undefined;
  const problem = syntaxProblem(expr);
  if (problem !== undefined)
    invalid(ctx, `the ${what} of '${el.id}' does not parse: ${expr.text.trim()} (${problem})`, el);
  return expr;
}

function timerOf(ctx: Ctx, el: ModdleElement, def: ModdleElement): TimerDefinition {
  const kinds = [
    ['duration', def.timeDuration],
    ['date', def.timeDate],
    ['cycle', def.timeCycle],
  ] as const;
  const found = kinds.filter(([, v]) => v !== undefined);
  if (found.length !== 1)
    invalid(ctx, `the timer of '${el.id}' needs exactly one of timeDuration, timeDate, timeCycle`, el);
  const [kind, formal] = found[0]!;
  const value = checkExpr(ctx, el, 'timer', formalExpr(ctx.dialect, formal as ModdleElement));
  if (value === undefined) invalid(ctx, `the timer of '${el.id}' is empty`, el);
  if (value.language === 'literal') {
    const ok =
      kind === 'duration'
        ? parseDuration(value.text) !== null
        : kind === 'date'
          ? parseDateTime(value.text) !== null
          : parseCycle(value.text) !== null;
    if (!ok)
      invalid(
        ctx,
        `the timer of '${el.id}' is not an ISO 8601 ${kind === 'cycle' ? 'cycle (R<n>/<duration>)' : kind}: ${value.text}`,
        el,
      );
  }
  return { kind, value };
}

function errorCodeOf(def: ModdleElement): string | undefined {
  const ref = def.errorRef as ModdleElement | undefined;
  if (ref === undefined) return undefined;
  return typeof ref.errorCode === 'string' ? ref.errorCode : ref.id;
}

function buildElement(ctx: Ctx, fe: ModdleElement, scope: string): ElementModel | undefined {
  const id = fe.id;
  if (id === undefined) return invalid(ctx, `a <${local(fe.$type)}> has no id`);
  const base = {
    id,
    ...(typeof fe.name === 'string' && { name: fe.name }),
    scope,
    incoming: [],
    outgoing: [],
    boundaries: [],
    ...(lineOf(ctx.xml, id) !== undefined && { line: lineOf(ctx.xml, id)! }),
  };
  if (fe.loopCharacteristics !== undefined) unsupported(ctx, fe, 'loop or multi-instance characteristics');
  const defs = definitionsOf(fe);
  const defType = defs[0]?.$type;
  if (defs.length > 1) unsupported(ctx, fe, 'several event definitions');

  if (PASS_THROUGH.has(fe.$type)) return { ...base, type: 'passThrough', bpmnType: local(fe.$type) };
  switch (fe.$type) {
    case 'bpmn:StartEvent': {
      if (defType !== undefined) unsupported(ctx, fe, `a ${local(defType)}`);
      const initiator = attr(fe, 'initiator');
      return { ...base, type: 'startEvent', ...(initiator !== undefined && { initiator }) };
    }
    case 'bpmn:EndEvent':
      if (defType === undefined) return { ...base, type: 'endEvent', end: 'none' };
      if (defType === 'bpmn:TerminateEventDefinition') return { ...base, type: 'endEvent', end: 'terminate' };
      if (defType === 'bpmn:ErrorEventDefinition') {
        const errorCode = errorCodeOf(defs[0]!);
        return { ...base, type: 'endEvent', end: 'error', ...(errorCode !== undefined && { errorCode }) };
      }
      return unsupported(ctx, fe, `a ${local(defType)}`);
    case 'bpmn:IntermediateThrowEvent':
      if (defType !== undefined) unsupported(ctx, fe, `a ${local(defType)}`);
      return { ...base, type: 'passThrough', bpmnType: 'intermediateThrowEvent' };
    case 'bpmn:IntermediateCatchEvent':
      if (defType !== 'bpmn:TimerEventDefinition')
        unsupported(ctx, fe, defType === undefined ? 'no event definition' : `a ${local(defType)}`);
      return { ...base, type: 'timerCatch', timer: timerOf(ctx, fe, defs[0]!) };
    case 'bpmn:BoundaryEvent': {
      const attachedTo = (fe.attachedToRef as ModdleElement | undefined)?.id;
      if (attachedTo === undefined) invalid(ctx, `the boundary event '${id}' is attached to nothing`, fe);
      const interrupting = fe.cancelActivity !== false;
      if (defType === 'bpmn:TimerEventDefinition')
        return {
          ...base,
          type: 'boundaryEvent',
          attachedTo,
          interrupting,
          trigger: { kind: 'timer', timer: timerOf(ctx, fe, defs[0]!) },
        };
      if (defType === 'bpmn:ErrorEventDefinition') {
        const errorCode = errorCodeOf(defs[0]!);
        return {
          ...base,
          type: 'boundaryEvent',
          attachedTo,
          interrupting: true,
          trigger: { kind: 'error', ...(errorCode !== undefined && { errorCode }) },
        };
      }
      return unsupported(ctx, fe, defType === undefined ? 'no event definition' : `a ${local(defType)}`);
    }
    case 'bpmn:UserTask': {
      const a = assignmentOf(ctx.dialect, fe);
      const check = (what: string, e: Expr | undefined) => checkExpr(ctx, fe, what, e);
      const dated = (what: string, e: Expr | undefined) => {
        if (e !== undefined && callsCode(e)) {
          ctx.warnings.push(`${ctx.resource}: the ${what} of '${id}' (${e.text}) calls code and is ignored`);
          return undefined;
        }
        return check(what, e);
      };
      const doc = (fe.documentation as ModdleElement[] | undefined)
        ?.map((d) => (typeof d.text === 'string' ? d.text.trim() : ''))
        .filter(Boolean)
        .join('\n');
      const assignee = check('assignee', a.assignee);
      const candidateUsers = check('candidate users', a.candidateUsers);
      const candidateGroups = check('candidate groups', a.candidateGroups);
      const dueDate = dated('due date', a.dueDate);
      const followUpDate = dated('follow-up date', a.followUpDate);
      const priority = check('priority', a.priority);
      return {
        ...base,
        type: 'userTask',
        ...(assignee && { assignee }),
        ...(candidateUsers && { candidateUsers }),
        ...(candidateGroups && { candidateGroups }),
        ...(dueDate && { dueDate }),
        ...(followUpDate && { followUpDate }),
        ...(priority && { priority }),
        ...(a.formKey !== undefined && { formKey: a.formKey }),
        ...(doc !== undefined && doc !== '' && { documentation: doc }),
      };
    }
    case 'bpmn:ExclusiveGateway':
    case 'bpmn:InclusiveGateway':
    case 'bpmn:ParallelGateway':
      return { ...base, type: local(fe.$type) as 'exclusiveGateway' | 'inclusiveGateway' | 'parallelGateway' };
    case 'bpmn:SubProcess':
      if (fe.triggeredByEvent === true) unsupported(ctx, fe, 'triggeredByEvent (an event subprocess)');
      return { ...base, type: 'subProcess', start: '' };
    case 'bpmn:CallActivity': {
      const spec = callSpecOf(ctx.dialect, fe);
      if (spec.calledElement === undefined) invalid(ctx, `the call activity '${id}' names no called element`, fe);
      const check = (what: string, e: Expr | undefined) => checkExpr(ctx, fe, what, e);
      check('called element', spec.calledElement);
      check('version', spec.version);
      check('business key', spec.businessKey);
      for (const m of [...spec.inputs, ...spec.outputs]) check(`mapping to ${m.target}`, m.sourceExpression);
      const { calledElement, ...rest } = spec;
      return { ...base, type: 'callActivity', calledElement: calledElement!, ...rest };
    }
    default:
      return unsupported(ctx, fe);
  }
}

/** the elements of one scope (a process or an embedded subprocess), recursively; flows are collected */
function visitScope(
  ctx: Ctx,
  container: ModdleElement,
  scope: string,
  elements: Record<string, ElementModel>,
  flows: ModdleElement[],
): void {
  for (const fe of (container.flowElements as ModdleElement[] | undefined) ?? []) {
    if (fe.$type === 'bpmn:SequenceFlow') {
      flows.push(fe);
      continue;
    }
    if (IGNORED.has(fe.$type)) continue;
    const el = buildElement(ctx, fe, scope);
    if (el === undefined) continue;
    if (elements[el.id] !== undefined) invalid(ctx, `two elements have the id '${el.id}'`, fe);
    elements[el.id] = el;
    if (el.type === 'subProcess') visitScope(ctx, fe, el.id, elements, flows);
  }
}

function buildProcess(ctx: Ctx, proc: ModdleElement): ProcessModel {
  const key = proc.id;
  if (key === undefined) return invalid(ctx, 'a process has no id');
  const elements: Record<string, ElementModel> = {};
  const rawFlows: ModdleElement[] = [];
  visitScope(ctx, proc, key, elements, rawFlows);
  if (elements[key] !== undefined)
    invalid(ctx, `the id '${key}' names the process and one of its elements: ids are unique in a file`, elements[key]);

  const flows: Record<string, FlowModel> = {};
  for (const f of rawFlows) {
    const source = (f.sourceRef as ModdleElement | undefined)?.id;
    const target = (f.targetRef as ModdleElement | undefined)?.id;
    const label = f.id ?? `from '${source ?? '?'}' to '${target ?? '?'}'`;
    if (source === undefined || elements[source] === undefined)
      invalid(ctx, `the sequence flow ${label} has no known source`, f);
    if (target === undefined || elements[target] === undefined)
      invalid(ctx, `the sequence flow ${label} has no known target`, f);
    if (elements[source]!.scope !== elements[target]!.scope)
      invalid(ctx, `the sequence flow ${label} crosses a subprocess boundary`, f);
    const flowKey = f.id ?? `flow#${++ctx.flowCount}`;
    const condition = checkExpr(
      ctx,
      f,
      'condition',
      formalExpr(ctx.dialect, f.conditionExpression as ModdleElement | undefined),
    );
    flows[flowKey] = {
      key: flowKey,
      ...(f.id !== undefined && { id: f.id }),
      ...(typeof f.name === 'string' && f.name !== '' && { name: f.name }),
      source,
      target,
      ...(condition && { condition }),
    };
    elements[source]!.outgoing.push(flowKey);
    elements[target]!.incoming.push(flowKey);
  }

  // boundary events join the scope of their activity; default flows must leave their gateway
  for (const el of Object.values(elements)) {
    if (el.type === 'boundaryEvent') {
      const activity = elements[el.attachedTo];
      if (activity === undefined)
        invalid(ctx, `the boundary event '${el.id}' is attached to an unknown element '${el.attachedTo}'`, el);
      activity.boundaries.push(el.id);
      el.scope = activity.scope;
      if (el.incoming.length > 0) invalid(ctx, `the boundary event '${el.id}' has incoming flows`, el);
    }
  }
  for (const raw of collectGateways(proc)) {
    const el = elements[raw.id!];
    const def = (raw.default as ModdleElement | undefined)?.id;
    if (el === undefined || def === undefined || (el.type !== 'exclusiveGateway' && el.type !== 'inclusiveGateway'))
      continue;
    if (!el.outgoing.includes(def)) invalid(ctx, `the default flow '${def}' of '${el.id}' does not leave it`, el);
    el.default = def;
  }

  // one none start event per scope
  const startsOf = (scope: string) =>
    Object.values(elements).filter((e) => e.type === 'startEvent' && e.scope === scope);
  const single = (scope: string, what: string) => {
    const starts = startsOf(scope);
    if (starts.length !== 1)
      invalid(ctx, `${what} needs exactly one none start event, it has ${starts.length}`, { id: scope });
    return starts[0]!.id;
  };
  const start = single(key, `the process '${key}'`);
  for (const el of Object.values(elements)) {
    if (el.type === 'subProcess') el.start = single(el.id, `the subprocess '${el.id}'`);
  }
  const calledKeys = [
    ...new Set(
      Object.values(elements)
        .filter((e) => e.type === 'callActivity' && e.calledElement.language === 'literal')
        .map((e) => (e as Extract<ElementModel, { type: 'callActivity' }>).calledElement.text),
    ),
  ];
  const versionTag = attr(proc, 'versionTag');
  return {
    key,
    ...(typeof proc.name === 'string' && { name: proc.name }),
    dialect: ctx.dialect,
    ...(versionTag !== undefined && { versionTag }),
    start,
    elements,
    flows,
    calledKeys,
  };
}

function collectGateways(container: ModdleElement): ModdleElement[] {
  const out: ModdleElement[] = [];
  for (const fe of (container.flowElements as ModdleElement[] | undefined) ?? []) {
    if (fe.$type === 'bpmn:ExclusiveGateway' || fe.$type === 'bpmn:InclusiveGateway') out.push(fe);
    if (fe.$type === 'bpmn:SubProcess') out.push(...collectGateways(fe));
  }
  return out;
}

/** The executable processes of a parsed file (isExecutable="false" ones are skipped), with warnings. */
export function buildProcessModels(
  definitions: ModdleElement,
  o: { xml: string; resource: string; dialect: Dialect; warnings: string[] },
): { models: ProcessModel[]; warnings: string[] } {
  const ctx: Ctx = { xml: o.xml, resource: o.resource, dialect: o.dialect, warnings: [...o.warnings], flowCount: 0 };
  for (const w of o.warnings) {
    const m = /unknown type <bpmn:(\w+)>/.exec(w);
    if (m !== null) {
      const line = /line:?\s*(\d+)/.exec(w);
      throw workflowError(
        'DEPLOYMENT.UNSUPPORTED_ELEMENT',
        `${o.resource}: <${local(`bpmn:${m[1]}`)}>${line ? ` at line ${Number(line[1]) + 1}` : ''} is not a BPMN 2.0 element this engine knows`,
        {
          resource: o.resource,
          element: local(`bpmn:${m[1]}`),
          ...(line && { line: Number(line[1]) + 1 }),
        },
      );
    }
  }
  const processes = ((definitions.rootElements as ModdleElement[] | undefined) ?? []).filter(
    (r) => r.$type === 'bpmn:Process' && r.isExecutable !== false,
  );
  if (processes.length === 0)
    throw workflowError('DEPLOYMENT.INVALID', `${o.resource}: no executable process`, { resource: o.resource });
  const models = processes.map((p) => buildProcess(ctx, p));
  return { models, warnings: ctx.warnings };
}
