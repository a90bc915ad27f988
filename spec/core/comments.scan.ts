// Test helper (not a spec): lists the comments of source files, line by line, and the names given to tests
// and suites, so comments.scan.spec.ts can refuse issue numbers, "stop N" and times of day in them. The
// parsing is deliberately small: strings, template literals and regular expression literals are skipped so
// that `//` or `/*` inside them is not taken for a comment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export type Text = { file: string; line: number; text: string };

const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** every source file under the given folders (relative to the repository root), minus the excluded prefixes */
export function sourceFiles(dirs: string[], exclude: string[] = []): string[] {
  const walk = (dir: string): string[] => {
    const abs = join(ROOT, dir);
    let entries: string[];
    try {
      entries = readdirSync(abs);
    } catch {
      return [];
    }
    return entries.flatMap((name) => {
      const path = relative(ROOT, join(abs, name));
      if (exclude.some((x) => path === x || path.startsWith(`${x}/`))) return [];
      if (statSync(join(ROOT, path)).isDirectory()) return walk(path);
      return SOURCE.test(name) ? [path] : [];
    });
  };
  return dirs.flatMap(walk);
}

const KEYWORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'in',
  'of',
  'delete',
  'void',
  'throw',
  'new',
  'else',
  'do',
  'yield',
  'await',
]);

/** the comments of one source text, one entry per line of comment (a block comment gives one per line) */
export function commentsOf(file: string, text: string): Text[] {
  const out: Text[] = [];
  let line = 1;
  let i = 0;
  // what a `}` closes: a block of code, or the `${…}` of a template literal
  const braces: ('code' | 'template')[] = [];
  let last = ''; // the last significant character or word of code, to tell a regex literal from a division

  const push = (start: number, end: number, startLine: number) => {
    text
      .slice(start, end)
      .split('\n')
      .forEach((t, k) => {
        out.push({ file, line: startLine + k, text: t });
      });
  };
  const skipString = (quote: string) => {
    i++;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') line++;
      i++;
    }
    i++;
  };
  /** from inside a template literal to its end or to a `${` (then the template is on the brace stack) */
  const skipTemplate = () => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        braces.push('template');
        return;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
      push(i + 2, end, line);
      i = end;
    } else if (c === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close;
      push(i + 2, end, line);
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 2;
    } else if (c === '#' && next === '!' && i === 0) {
      i = text.indexOf('\n');
    } else if (c === "'" || c === '"') {
      skipString(c);
      last = 'a';
    } else if (c === '`') {
      i++;
      skipTemplate();
      last = 'a';
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last) || KEYWORDS_BEFORE_REGEX.has(last))) {
      // a regular expression literal
      i++;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (/[a-z]/.test(text[i] ?? '')) i++;
      last = 'a';
    } else if (c === '{') {
      braces.push('code');
      last = c;
      i++;
    } else if (c === '}') {
      i++;
      if (braces.pop() === 'template') {
        skipTemplate();
        last = 'a';
      } else last = c;
    } else if (/[A-Za-z0-9_$]/.test(c)) {
      const m = /^[A-Za-z0-9_$]+/.exec(text.slice(i, i + 64))!;
      last = m[0];
      i += m[0].length;
    } else {
      // `)` and `]` end an expression: a `/` after them divides
      last = c === ')' || c === ']' ? 'a' : c;
      i++;
    }
  }
  return out;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * the names given to tests and suites in one spec text: the first string argument of `suite(`, `test(`, `it(`,
 * and of every suite made in the file (`const rule = suite('…')` makes `rule('…', …)` a test)
 */
export function testNamesOf(file: string, text: string): Text[] {
  const callers = new Set(['suite', 'test', 'it', 'describe']);
  for (const m of text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*suite\b/g)) callers.add(m[1]!);
  const names = [...callers].join('|');
  const call = new RegExp(
    `(?<![\\w.])(?:${names})(?:\\.(?:only|skip))?\\(\\s*(['"\`])((?:\\\\.|(?!\\1)[\\s\\S])*)\\1`,
    'g',
  );
  return [...text.matchAll(call)].map((m) => ({ file, line: lineAt(text, m.index), text: m[2]! }));
}

export function readSource(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}
