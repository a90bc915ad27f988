/**
 * The JUEL tokenizer: the inside of one `${…}` / `#{…}` (identifiers, numbers, strings, operators and the
 * EL keyword operators). Hand-written; the parser (juel.parser.ts) is a Pratt parser over these tokens.
 */

export type Token =
  | { t: 'num'; v: number; pos: number }
  | { t: 'str'; v: string; pos: number }
  | { t: 'id'; v: string; pos: number }
  | { t: 'kw'; v: Keyword; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'eof'; pos: number };

export const KEYWORDS = [
  'true',
  'false',
  'null',
  'empty',
  'not',
  'div',
  'mod',
  'and',
  'or',
  'eq',
  'ne',
  'lt',
  'gt',
  'le',
  'ge',
  'instanceof',
] as const;
export type Keyword = (typeof KEYWORDS)[number];
const isKeyword = (s: string): s is Keyword => (KEYWORDS as readonly string[]).includes(s);

/** longest first */
const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '?',
  ':',
  '.',
  '[',
  ']',
  '(',
  ')',
  ',',
];

export class JuelSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'JuelSyntaxError';
  }
}

const isIdentStart = (c: string) => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const pos = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      let j = i;
      while (isDigit(src[j] ?? '')) j++;
      if (src[j] === '.' && isDigit(src[j + 1] ?? '')) {
        j++;
        while (isDigit(src[j] ?? '')) j++;
      } else if (src[j] === '.' && !isIdentStart(src[j + 1] ?? '')) j++; // `1.` is a float in EL
      if (src[j] === 'e' || src[j] === 'E') {
        let k = j + 1;
        if (src[k] === '+' || src[k] === '-') k++;
        if (isDigit(src[k] ?? '')) {
          while (isDigit(src[k] ?? '')) k++;
          j = k;
        }
      }
      tokens.push({ t: 'num', v: Number(src.slice(i, j)), pos });
      i = j;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= src.length) throw new JuelSyntaxError('unterminated string literal', pos);
        const d = src[j]!;
        if (d === '\\' && (src[j + 1] === c || src[j + 1] === '\\')) {
          value += src[j + 1];
          j += 2;
          continue;
        }
        if (d === c) break;
        value += d;
        j++;
      }
      tokens.push({ t: 'str', v: value, pos });
      i = j + 1;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (isIdentPart(src[j] ?? '')) j++;
      const word = src.slice(i, j);
      tokens.push(isKeyword(word) ? { t: 'kw', v: word, pos } : { t: 'id', v: word, pos });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op === undefined) throw new JuelSyntaxError(`unexpected character '${c}'`, pos);
    tokens.push({ t: 'op', v: op, pos });
    i += op.length;
  }
  tokens.push({ t: 'eof', pos: src.length });
  return tokens;
}
