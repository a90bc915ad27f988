import type { Expr } from '../model/process-model.ts';
import { checkFeel, evaluateFeel, FeelError } from './feel.evaluate.ts';
import { evaluateJuel, JuelEvaluationError, type JuelScope, toBoolean } from './juel.evaluate.ts';
import { type JuelComposite, type JuelNode, parseJuel } from './juel.parser.ts';
import { JuelSyntaxError } from './juel.tokens.ts';

/**
 * One entry for every expression of a definition: conditions, assignees, candidate lists, due dates,
 * timers, call activity mappings. JUEL (`${…}`, `#{…}`) is parsed once per text and kept; FEEL goes to
 * feelin; a literal is its text. A failure is an ExpressionFailure whose message follows the spec's
 * errors table: `Error while evaluating expression: ${assignee}` plus the cause.
 */

export class ExpressionFailure extends Error {
  constructor(
    readonly expression: string,
    readonly reason: string,
  ) {
    super(`Error while evaluating expression: ${expression}. Cause: ${reason}`);
    this.name = 'ExpressionFailure';
  }
}

/** variables plus the implicit objects an expression may name (`execution`) */
export type ExpressionContext = { variables: Record<string, unknown>; implicit?: Record<string, unknown> };

const juelCache = new Map<string, JuelComposite>();
const MAX_CACHED = 5000;

function compiledJuel(text: string): JuelComposite {
  let c = juelCache.get(text);
  if (c === undefined) {
    c = parseJuel(text);
    if (juelCache.size >= MAX_CACHED) juelCache.clear();
    juelCache.set(text, c);
  }
  return c;
}

/** A syntax problem of an expression (deploy-time check), or undefined. */
export function syntaxProblem(expr: Expr): string | undefined {
  try {
    if (expr.language === 'juel') compiledJuel(expr.text);
    else if (expr.language === 'feel') checkFeel(expr.text);
    return undefined;
  } catch (err) {
    if (err instanceof JuelSyntaxError) return `${err.message} at ${err.position}`;
    if (err instanceof FeelError) return err.message;
    throw err;
  }
}

const scopeOf = (ctx: ExpressionContext): JuelScope => ({
  has: (name) =>
    Object.hasOwn(ctx.variables, name) || (ctx.implicit !== undefined && Object.hasOwn(ctx.implicit, name)),
  get: (name) => (Object.hasOwn(ctx.variables, name) ? ctx.variables[name] : ctx.implicit?.[name]),
});

/** Evaluates an expression to its value. */
export function evaluateExpression(expr: Expr, ctx: ExpressionContext): unknown {
  switch (expr.language) {
    case 'literal':
      return expr.text;
    case 'juel':
      try {
        return evaluateJuel(compiledJuel(expr.text), scopeOf(ctx));
      } catch (err) {
        if (err instanceof JuelEvaluationError || err instanceof JuelSyntaxError)
          throw new ExpressionFailure(expr.text.trim(), err.message);
        throw err;
      }
    case 'feel': {
      try {
        const { value, warnings } = evaluateFeel(expr.text, { ...ctx.implicit, ...ctx.variables });
        if (value === null && warnings.length > 0) throw new ExpressionFailure(expr.text.trim(), warnings.join('; '));
        return value;
      } catch (err) {
        if (err instanceof FeelError) throw new ExpressionFailure(expr.text.trim(), err.message);
        throw err;
      }
    }
  }
}

/** A sequence flow's condition: JUEL's result coerced to a boolean; FEEL's must be one. */
export function evaluateCondition(expr: Expr, ctx: ExpressionContext): boolean {
  const value = evaluateExpression(expr, ctx);
  if (expr.language === 'feel') {
    if (typeof value !== 'boolean')
      throw new ExpressionFailure(
        expr.text.trim(),
        `expected a boolean, got ${value === null ? 'null' : typeof value}`,
      );
    return value;
  }
  try {
    return toBoolean(value);
  } catch (err) {
    if (err instanceof JuelEvaluationError) throw new ExpressionFailure(expr.text.trim(), err.message);
    throw err;
  }
}

/** Whether a JUEL expression calls a method or function (it can never be evaluated here). */
export function callsCode(expr: Expr): boolean {
  if (expr.language !== 'juel') return false;
  let parsed: JuelComposite;
  try {
    parsed = compiledJuel(expr.text);
  } catch {
    return false;
  }
  const visit = (n: JuelNode): boolean => {
    switch (n.k) {
      case 'call':
        return true;
      case 'lit':
      case 'id':
        return false;
      case 'prop':
        return visit(n.obj);
      case 'index':
        return visit(n.obj) || visit(n.index);
      case 'unary':
        return visit(n.arg);
      case 'binary':
        return visit(n.left) || visit(n.right);
      case 'cond':
        return visit(n.test) || visit(n.then) || visit(n.else);
    }
  };
  return parsed.parts.some((p) => typeof p !== 'string' && visit(p));
}
