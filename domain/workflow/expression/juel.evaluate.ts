import type { BinaryOp, JuelComposite, JuelNode } from './juel.parser.ts';

/**
 * Evaluates the JUEL subset over JSON variables with EL's coercion rules (JSR 341 section 1.23): `==`
 * coerces to a number when either side is one, to a boolean when either side is one (so `'true' == true`),
 * else compares strings; relational operators compare numbers, else strings; `&& || !` coerce to boolean
 * (`"true"` ignoring case is true, null and "" are false); arithmetic coerces to numbers (null and "" are
 * 0); `/` always divides as a double. An identifier that is no variable is an error (Camunda's "Cannot
 * resolve identifier"), a missing key of an object is null, a call is an error: nothing from the XML runs.
 */

export class JuelEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JuelEvaluationError';
  }
}

export type JuelValue = unknown;
export type JuelScope = { has(name: string): boolean; get(name: string): unknown };

const fail = (message: string): never => {
  throw new JuelEvaluationError(message);
};

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function toBoolean(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.toLowerCase() === 'true';
  return fail(`cannot coerce ${typeName(v)} ${JSON.stringify(v)} to a boolean`);
}

export function toNumber(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    if (v.trim() !== '' && Number.isFinite(n)) return n;
    return fail(`cannot coerce '${v}' to a number`);
  }
  return fail(`cannot coerce ${typeName(v)} to a number`);
}

export function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'number' || typeof b === 'number') return toNumber(a) === toNumber(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return toBoolean(a) === toBoolean(b);
  if (typeof a === 'string' || typeof b === 'string') return toText(a) === toText(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

function compare(op: '<' | '>' | '<=' | '>=', a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  let order: number;
  if (typeof a === 'number' || typeof b === 'number') order = toNumber(a) - toNumber(b);
  else if (typeof a === 'string' || typeof b === 'string') {
    const x = toText(a);
    const y = toText(b);
    order = x < y ? -1 : x > y ? 1 : 0;
  } else return fail(`cannot compare ${typeName(a)} with ${typeName(b)}`);
  switch (op) {
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

function binary(op: BinaryOp, node: Extract<JuelNode, { k: 'binary' }>, scope: JuelScope): unknown {
  if (op === '&&') return toBoolean(evaluateNode(node.left, scope)) && toBoolean(evaluateNode(node.right, scope));
  if (op === '||') return toBoolean(evaluateNode(node.left, scope)) || toBoolean(evaluateNode(node.right, scope));
  const a = evaluateNode(node.left, scope);
  const b = evaluateNode(node.right, scope);
  switch (op) {
    case '==':
      return equals(a, b);
    case '!=':
      return !equals(a, b);
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, a, b);
    case '+':
      return toNumber(a) + toNumber(b);
    case '-':
      return toNumber(a) - toNumber(b);
    case '*':
      return toNumber(a) * toNumber(b);
    case '/':
      return toNumber(a) / toNumber(b);
    case '%':
      return toNumber(a) % toNumber(b);
  }
}

function member(base: unknown, key: unknown): unknown {
  if (base === null || base === undefined) return null;
  if (Array.isArray(base)) {
    const i = toNumber(key);
    if (!Number.isInteger(i)) return fail(`array index ${String(key)} is not an integer`);
    return i >= 0 && i < base.length ? base[i] : fail(`array index ${i} out of bounds`);
  }
  if (typeof base === 'object') {
    const k = toText(key);
    return Object.hasOwn(base, k) ? ((base as Record<string, unknown>)[k] ?? null) : null;
  }
  return fail(`cannot read property '${toText(key)}' of ${typeName(base)}`);
}

const describeCallee = (n: JuelNode): string =>
  n.k === 'id' ? n.name : n.k === 'prop' ? `${describeCallee(n.obj)}.${n.name}` : '(expression)';

export function evaluateNode(node: JuelNode, scope: JuelScope): unknown {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'id':
      if (!scope.has(node.name)) return fail(`Cannot resolve identifier '${node.name}'`);
      return scope.get(node.name) ?? null;
    case 'prop':
      return member(evaluateNode(node.obj, scope), node.name);
    case 'index':
      return member(evaluateNode(node.obj, scope), evaluateNode(node.index, scope));
    case 'call':
      return fail(
        `method and function calls are not supported (${describeCallee(node.callee)}(…)): no code from the definition is run`,
      );
    case 'unary': {
      const v = evaluateNode(node.arg, scope);
      if (node.op === '!') return !toBoolean(v);
      if (node.op === 'empty') return isEmpty(v);
      return -toNumber(v);
    }
    case 'binary':
      return binary(node.op, node, scope);
    case 'cond':
      return toBoolean(evaluateNode(node.test, scope))
        ? evaluateNode(node.then, scope)
        : evaluateNode(node.else, scope);
  }
}

/** A composite: one part alone keeps its value's type; several are concatenated as text. */
export function evaluateJuel(expr: JuelComposite, scope: JuelScope): unknown {
  if (expr.parts.length === 1) {
    const only = expr.parts[0]!;
    return typeof only === 'string' ? only : evaluateNode(only, scope);
  }
  return expr.parts.map((p) => (typeof p === 'string' ? p : toText(evaluateNode(p, scope)))).join('');
}
