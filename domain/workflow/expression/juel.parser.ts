import { JuelSyntaxError, type Token, tokenize } from './juel.tokens.ts';

/**
 * The JUEL subset's parser: a composite expression (literal text with `${…}` / `#{…}` parts) and, inside
 * each part, a Pratt parser for EL's grammar: literals, identifiers, property access (`a.b`, `a['b']`,
 * `a[0]`), unary `- ! not empty`, binary arithmetic, comparison (`== != < > <= >=` and `eq ne lt gt le ge`),
 * `&& || and or`, and the conditional `a ? b : c`. A call (`bean.method(x)`) parses, so a definition that
 * holds one deploys, but it never runs: evaluating it is an error (no code from the XML is executed).
 */

export type JuelNode =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'id'; name: string }
  | { k: 'prop'; obj: JuelNode; name: string }
  | { k: 'index'; obj: JuelNode; index: JuelNode }
  | { k: 'call'; callee: JuelNode; args: JuelNode[] }
  | { k: 'unary'; op: '-' | '!' | 'empty'; arg: JuelNode }
  | { k: 'binary'; op: BinaryOp; left: JuelNode; right: JuelNode }
  | { k: 'cond'; test: JuelNode; then: JuelNode; else: JuelNode };

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||';

/** literal text and evaluated parts; a text that is exactly one part evaluates to that part's value */
export type JuelComposite = { parts: Array<string | JuelNode>; source: string };

/** keyword operators and their symbols */
const KEYWORD_OPS: Record<string, BinaryOp> = {
  div: '/',
  mod: '%',
  and: '&&',
  or: '||',
  eq: '==',
  ne: '!=',
  lt: '<',
  gt: '>',
  le: '<=',
  ge: '>=',
};

/** binding powers: higher binds tighter */
const BINARY_POWER: Record<BinaryOp, number> = {
  '||': 2,
  '&&': 3,
  '==': 4,
  '!=': 4,
  '<': 5,
  '>': 5,
  '<=': 5,
  '>=': 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  '%': 7,
};
const CONDITIONAL_POWER = 1;
const UNARY_POWER = 8;

/** Parses one EL expression (the inside of `${…}`). */
export function parseJuelExpression(src: string): JuelNode {
  const tokens = tokenize(src);
  let i = 0;
  const peek = (): Token => tokens[i]!;
  const next = (): Token => tokens[i++]!;
  const isOp = (tok: Token, v: string) => tok.t === 'op' && tok.v === v;
  const expectOp = (v: string) => {
    const tok = next();
    if (!isOp(tok, v)) throw new JuelSyntaxError(`expected '${v}'`, tok.pos);
  };

  const binaryOf = (tok: Token): BinaryOp | undefined => {
    if (tok.t === 'op' && tok.v in BINARY_POWER) return tok.v as BinaryOp;
    if (tok.t === 'kw' && tok.v in KEYWORD_OPS) return KEYWORD_OPS[tok.v];
    return undefined;
  };

  function prefix(): JuelNode {
    const tok = next();
    switch (tok.t) {
      case 'num':
        return { k: 'lit', v: tok.v };
      case 'str':
        return { k: 'lit', v: tok.v };
      case 'id':
        return { k: 'id', name: tok.v };
      case 'kw':
        if (tok.v === 'true' || tok.v === 'false') return { k: 'lit', v: tok.v === 'true' };
        if (tok.v === 'null') return { k: 'lit', v: null };
        if (tok.v === 'not') return { k: 'unary', op: '!', arg: expression(UNARY_POWER) };
        if (tok.v === 'empty') return { k: 'unary', op: 'empty', arg: expression(UNARY_POWER) };
        throw new JuelSyntaxError(`unexpected '${tok.v}'`, tok.pos);
      case 'op':
        if (tok.v === '(') {
          const inner = expression(0);
          expectOp(')');
          return inner;
        }
        if (tok.v === '-' || tok.v === '!') return { k: 'unary', op: tok.v, arg: expression(UNARY_POWER) };
        throw new JuelSyntaxError(`unexpected '${tok.v}'`, tok.pos);
      case 'eof':
        throw new JuelSyntaxError('unexpected end of expression', tok.pos);
    }
  }

  /** `.name`, `[index]`, `(args)` after a value */
  function postfix(left: JuelNode): JuelNode {
    for (;;) {
      const tok = peek();
      if (isOp(tok, '.')) {
        next();
        const name = next();
        if (name.t !== 'id' && name.t !== 'kw')
          throw new JuelSyntaxError("expected a property name after '.'", name.pos);
        left = { k: 'prop', obj: left, name: name.v };
      } else if (isOp(tok, '[')) {
        next();
        const index = expression(0);
        expectOp(']');
        left = { k: 'index', obj: left, index };
      } else if (isOp(tok, '(')) {
        next();
        const args: JuelNode[] = [];
        if (!isOp(peek(), ')')) {
          for (;;) {
            args.push(expression(0));
            if (isOp(peek(), ',')) {
              next();
              continue;
            }
            break;
          }
        }
        expectOp(')');
        left = { k: 'call', callee: left, args };
      } else return left;
    }
  }

  function expression(minPower: number): JuelNode {
    let left = postfix(prefix());
    for (;;) {
      const tok = peek();
      if (isOp(tok, '?') && CONDITIONAL_POWER >= minPower) {
        next();
        const then = expression(0);
        expectOp(':');
        const otherwise = expression(CONDITIONAL_POWER);
        left = { k: 'cond', test: left, then, else: otherwise };
        continue;
      }
      const op = binaryOf(tok);
      if (op === undefined) return left;
      const power = BINARY_POWER[op];
      if (power <= minPower) return left;
      next();
      const right = expression(power);
      left = { k: 'binary', op, left, right };
    }
  }

  const node = expression(0);
  const end = peek();
  if (end.t !== 'eof')
    throw new JuelSyntaxError(
      `unexpected '${end.t === 'op' || end.t === 'id' || end.t === 'kw' ? end.v : String((end as { v?: unknown }).v)}'`,
      end.pos,
    );
  return node;
}

/**
 * Parses a composite expression: literal text with `${…}` and `#{…}` parts (`\${` is a literal `${`).
 * The text around a single part is usually whitespace (a condition body wrapped in newlines): it is
 * trimmed, so `\n  ${input == 1}\n` is the one part `input == 1`.
 */
export function parseJuel(source: string): JuelComposite {
  const text = source.trim();
  const parts: Array<string | JuelNode> = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && (text[i + 1] === '$' || text[i + 1] === '#') && text[i + 2] === '{') {
      literal += text.slice(i + 1, i + 3);
      i += 3;
      continue;
    }
    if ((c === '$' || c === '#') && text[i + 1] === '{') {
      const end = closingBrace(text, i + 2);
      if (end < 0) throw new JuelSyntaxError(`unterminated '${c}{'`, i);
      if (literal !== '') parts.push(literal);
      literal = '';
      try {
        parts.push(parseJuelExpression(text.slice(i + 2, end)));
      } catch (err) {
        if (err instanceof JuelSyntaxError) throw new JuelSyntaxError(err.message, err.position + i + 2);
        throw err;
      }
      i = end + 1;
      continue;
    }
    literal += c;
    i++;
  }
  if (literal !== '' || parts.length === 0) parts.push(literal);
  return { parts, source };
}

/** the `}` closing an expression that starts at `from`, skipping string literals */
function closingBrace(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '}') return i;
  }
  return -1;
}
