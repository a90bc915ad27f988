import type {
  DefinitionRef,
  ElementModel,
  Expr,
  FlowModel,
  ProcessDefinition,
  ProcessModel,
} from '../model/process-model.ts';
import type { InstanceEvent } from './instance.events.ts';
import type { ElementInstance, InstanceTreeState, ProcessInstance } from './instance.state.ts';

/**
 * One command's run of the interpreter over an instance tree: what element handlers (handlers/*.ts) see.
 * Every change is an event: `emit` appends it to the run's output and folds it into `state()` at once
 * (the same `evolve` the stream is folded with), so the state a handler reads is always the fold.
 * Handlers never call each other: they ask the run to activate, leave, terminate, or throw an error.
 */
export type Run = {
  readonly now: string;
  state(): InstanceTreeState;
  emit(event: InstanceEvent): void;
  instance(instanceId: string): ProcessInstance;
  definition(instanceId: string): ProcessDefinition;
  model(instanceId: string): ProcessModel;
  elementModel(el: ElementInstance): ElementModel;

  /** a token arrives at an element (ElementActivated); its behaviour runs after the current step */
  activate(instanceId: string, elementId: string, scopeKey: string | null, flow?: string): ElementInstance;
  /**
   * The element is done: ElementCompleted, its boundary timers canceled, then the tokens go on by `flows`
   * (default: the outgoing flows an activity takes: every flow whose condition holds, else the default
   * flow); with none to take, the enclosing scope may be complete.
   */
  leave(el: ElementInstance, flows?: FlowModel[]): void;
  /** the flows an activity takes when it completes (conditions evaluated, default flow) */
  outgoingOf(el: ElementInstance): FlowModel[];
  /** ends an element instance early (and everything inside it): tasks canceled, timers canceled, called instances terminated */
  terminate(el: ElementInstance, reason: string): void;
  /** ends every element instance of a scope (a terminate end event) */
  terminateScope(instanceId: string, scopeKey: string | null, reason: string, except?: string): void;
  /** an error end event: the nearest catching boundary event takes over, else it ends like a none end event */
  throwError(el: ElementInstance, errorCode: string | undefined): void;
  /** the scope of `el` may have no tokens left: complete it (a subprocess leaves, a process instance ends) */
  scopeMayBeDone(instanceId: string, scopeKey: string | null): void;

  /** evaluates an expression of an element with its instance's variables (errors name the expression) */
  evaluate(at: ExpressionSite, expr: Expr): unknown;
  condition(at: ExpressionSite, expr: Expr): boolean;
  /** a definition a call activity names (loaded by the command layer when it is not yet: DefinitionNeeded) */
  resolve(ref: DefinitionRef, at: ExpressionSite): ProcessDefinition;
  /** the timers of the activity's boundary events, scheduled when it is activated */
  scheduleBoundaryTimers(el: ElementInstance): void;
  /** allocates an id of the stream: `<rootId>.<kind><n>` (immediately followed by the event that introduces it) */
  newId(kind: 'p' | 't' | 'm'): string;
};

/** where an expression is evaluated: the instance whose variables it sees, the element it belongs to */
export type ExpressionSite = Pick<ElementInstance, 'instanceId' | 'elementId'>;

export type ElementHandler = {
  /** the element's behaviour when a token arrives */
  activate(run: Run, el: ElementInstance): void;
};
