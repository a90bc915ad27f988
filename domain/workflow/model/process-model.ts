/**
 * The process model: what the engine runs, as plain data (JSON in the `ProcessDefinitionDeployed` event).
 * The BPMN parse step (commands/workflow/bpmn.parse.ts, async: bpmn-moddle) builds it from the XML; the
 * interpreter (domain/workflow/engine) reads only this. Elements of every scope (the process, embedded
 * subprocesses) are in one table by id (ids are unique in a BPMN file); `scope` names the enclosing
 * subprocess, or the process itself.
 */

/** The expression languages: JUEL `${…}`/`#{…}` (Camunda 7, Activiti, Flowable), FEEL (Zeebe `=…`, or
 * `language="feel"`), or a literal (a Zeebe attribute without `=`, a Camunda attribute without `${`). */
export type ExpressionLanguage = 'juel' | 'feel' | 'literal';
export type Expr = { language: ExpressionLanguage; text: string };

export type Dialect = 'camunda7' | 'zeebe' | 'plain';

export type FlowModel = {
  /** the flow's id, or `flow#<n>` for a flow without one (flows may lack ids) */
  key: string;
  id?: string;
  name?: string;
  source: string;
  target: string;
  condition?: Expr;
};

export type TimerDefinition = { kind: 'duration' | 'date' | 'cycle'; value: Expr };

/** a variable mapping of a call activity (camunda:in/out, zeebe:input/output) */
export type VariableMapping = { source?: string; sourceExpression?: Expr; target: string };

type ElementBase = {
  id: string;
  name?: string;
  /** the enclosing scope: a subprocess id, or the process id */
  scope: string;
  /** flow keys */
  incoming: string[];
  outgoing: string[];
  /** boundary events attached to this activity */
  boundaries: string[];
  /** 1-based line of the element in the XML (error messages) */
  line?: number;
};

export type StartEventModel = ElementBase & { type: 'startEvent'; initiator?: string };
export type EndEventModel = ElementBase & { type: 'endEvent'; end: 'none' | 'terminate' | 'error'; errorCode?: string };
export type UserTaskModel = ElementBase & {
  type: 'userTask';
  assignee?: Expr;
  candidateUsers?: Expr;
  candidateGroups?: Expr;
  dueDate?: Expr;
  followUpDate?: Expr;
  priority?: Expr;
  formKey?: string;
  documentation?: string;
};
/** service, script, send, business-rule, manual and plain tasks, none intermediate throw events: pass-through */
export type PassThroughModel = ElementBase & { type: 'passThrough'; bpmnType: string };
export type GatewayModel = ElementBase & {
  type: 'exclusiveGateway' | 'inclusiveGateway' | 'parallelGateway';
  default?: string;
};
export type SubProcessModel = ElementBase & { type: 'subProcess'; start: string };
export type CallActivityModel = ElementBase & {
  type: 'callActivity';
  calledElement: Expr;
  binding: 'latest' | 'deployment' | 'version' | 'versionTag';
  version?: Expr;
  versionTag?: string;
  businessKey?: Expr;
  inputs: VariableMapping[];
  outputs: VariableMapping[];
  /** every variable of the caller goes in (camunda:in variables="all"; Zeebe's default) */
  inAll: boolean;
  /** every variable of the called instance comes back (camunda:out variables="all"; Zeebe's default) */
  outAll: boolean;
};
export type BoundaryEventModel = ElementBase & {
  type: 'boundaryEvent';
  attachedTo: string;
  interrupting: boolean;
  trigger: { kind: 'timer'; timer: TimerDefinition } | { kind: 'error'; errorCode?: string };
};
export type TimerCatchModel = ElementBase & { type: 'timerCatch'; timer: TimerDefinition };

export type ElementModel =
  | StartEventModel
  | EndEventModel
  | UserTaskModel
  | PassThroughModel
  | GatewayModel
  | SubProcessModel
  | CallActivityModel
  | BoundaryEventModel
  | TimerCatchModel;

export type ElementType = ElementModel['type'];

export type ProcessModel = {
  /** the process id: the definition key */
  key: string;
  name?: string;
  dialect: Dialect;
  versionTag?: string;
  /** the process's none start event */
  start: string;
  elements: Record<string, ElementModel>;
  flows: Record<string, FlowModel>;
  /** process keys named literally by call activities (preloaded by the command layer) */
  calledKeys: string[];
};

/** A deployed process definition: the model with its identity. */
export type ProcessDefinition = {
  /** `<key>:<version>:<uuid>` */
  id: string;
  key: string;
  version: number;
  deploymentId: string;
  resourceName: string;
  deployedAt: string;
  model: ProcessModel;
};

/** How the engine finds definitions (a call activity's target); see engine/definitions.ts. */
export type DefinitionRef =
  | { kind: 'id'; id: string }
  | { kind: 'latest'; key: string }
  | { kind: 'version'; key: string; version: number }
  | { kind: 'deployment'; key: string; deploymentId: string }
  | { kind: 'versionTag'; key: string; versionTag: string };

/** undefined: not loaded (the command layer loads it and asks again); null: there is none */
export type DefinitionLookup = (ref: DefinitionRef) => ProcessDefinition | null | undefined;

export const refKey = (ref: DefinitionRef): string => {
  switch (ref.kind) {
    case 'id':
      return `id:${ref.id}`;
    case 'latest':
      return `latest:${ref.key}`;
    case 'version':
      return `version:${ref.key}:${ref.version}`;
    case 'deployment':
      return `deployment:${ref.key}:${ref.deploymentId}`;
    case 'versionTag':
      return `versionTag:${ref.key}:${ref.versionTag}`;
  }
};
