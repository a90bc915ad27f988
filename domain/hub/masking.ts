import safeRegex from 'safe-regex2';
import type { MaskMethod, SensitiveField } from './config.model.ts';
import { parseVariablePath } from './extraction.ts';
import { locateAll, memoizedParse, type PathStep, parsePath, replaceAt } from './json-path.ts';

/**
 * Declaration-based masking (spec "Context definition": SensitiveFields of Path and Method; undeclared
 * fields stay visible). A Path names a value of the payload the way the context definition's other paths
 * do: a JSONPath of the payload (`$.customer.email`), or as Variables name one (`Payload.customer.email`,
 * `Context.<alias>[.path]`, read through the alias's path in Contexts), so one definition names a value one
 * way. The masked payload keeps its structure: every key and array element stays, a
 * masked string stays a string of the same length (a masked number or boolean becomes the string
 * `******`), and a path reaching an object or array masks every scalar inside it.
 *
 * - FULL: every character `*`;
 * - KEEP_EDGES: the first and the last character kept (strings of 1–2 characters: all masked);
 * - EMAIL: the first character of the local part and the whole domain kept (`j*******@example.com`);
 *   a value without `@` is masked as KEEP_EDGES;
 * - NAME: the first letter of each word kept (`J*** S****`);
 * - REGEX: each match of the declared pattern replaced by `*`s; patterns are constrained (checkMaskPattern)
 *   so a tenant's pattern cannot backtrack catastrophically on a payload.
 */
export const MASK = '******';
export const MAX_MASK_PATTERN_LENGTH = 200;
/** REGEX masking runs on strings of at most this many characters; a longer string is masked FULL (over-masking is safe) */
export const MAX_REGEX_MASK_INPUT = 1024;
/** the most backtracking choices one match attempt of an accepted pattern may have (bounded repetitions × alternatives) */
export const MAX_PATTERN_CHOICES = 1000;

const stars = (n: number) => '*'.repeat(n);

function maskString(value: string, method: MaskMethod, pattern: RegExp | undefined): string {
  switch (method) {
    case 'FULL':
      return stars(value.length);
    case 'KEEP_EDGES':
      return value.length <= 2
        ? stars(value.length)
        : `${value[0]}${stars(value.length - 2)}${value[value.length - 1]}`;
    case 'EMAIL': {
      const at = value.lastIndexOf('@');
      if (at <= 0) return maskString(value, 'KEEP_EDGES', undefined);
      return `${value[0]}${stars(at - 1)}${value.slice(at)}`;
    }
    case 'NAME':
      return value.replace(/\S+/g, (word) => `${word[0]}${stars(word.length - 1)}`);
    case 'REGEX':
      return pattern === undefined || value.length > MAX_REGEX_MASK_INPUT
        ? stars(value.length)
        : value.replace(pattern, (m) => stars(m.length));
  }
}

function maskValue(value: unknown, method: MaskMethod, pattern: RegExp | undefined): unknown {
  if (typeof value === 'string') return maskString(value, method, pattern);
  if (Array.isArray(value)) return value.map((v) => maskValue(v, method, pattern));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v, method, pattern)]));
  if (value === null) return null;
  return MASK;
}

/**
 * null when `pattern` is an acceptable REGEX mask pattern, else why not. The pattern runs on tenant payloads
 * (every send), so it must not be able to backtrack catastrophically. Refused:
 * - backreferences and lookaround (not regular; lookaround also hides repetition);
 * - a quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|aa)*`: exponential);
 * - a star height above 1 as safe-regex2 measures it (a second opinion on nested repetition);
 * - more than one unbounded quantifier (`*`, `+`, `{n,}`): two of them over overlapping characters
 *   (`\d+\d+$`, `\s*\s*$`, `\w+@\w+`) backtrack polynomially; write the others bounded (`\w{1,64}@\w+`);
 * - more than MAX_PATTERN_CHOICES backtracking choices per match attempt (the product of the bounded
 *   repetitions' ranges and of the alternatives), so bounded repetition cannot multiply up either;
 * - patterns that do not compile.
 * With these, one match attempt is linear in the input times a constant, and REGEX masking runs on strings
 * of at most MAX_REGEX_MASK_INPUT characters (a longer value is masked FULL): at most quadratic in a small n.
 */
export function checkMaskPattern(pattern: unknown): string | null {
  if (typeof pattern !== 'string' || pattern.length === 0) return 'REGEX needs a Pattern';
  if (pattern.length > MAX_MASK_PATTERN_LENGTH) return `Pattern must be at most ${MAX_MASK_PATTERN_LENGTH} characters`;
  if (/\\[1-9]|\\k</.test(pattern)) return 'Pattern must not use backreferences';
  if (/\(\?<?[=!]/.test(pattern)) return 'Pattern must not use lookaround';
  try {
    new RegExp(pattern, 'g');
  } catch (err) {
    return `Pattern does not compile: ${err instanceof Error ? err.message : String(err)}`;
  }
  // groups and quantifiers, scanning past escapes and character classes
  const groups: Array<{ open: number; branches: number }> = [{ open: -1, branches: 1 }];
  let unbounded = 0;
  let choices = 1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // a class: `]` right after `[` or `[^` is a literal
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c === '(') groups.push({ open: i, branches: 1 });
    else if (c === '|') groups[groups.length - 1]!.branches++;
    else if (c === ')') {
      const g = groups.pop();
      if (g === undefined || groups.length === 0) continue;
      choices *= g.branches;
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      const body = pattern
        .slice(g.open + 1, i)
        .replace(/\\./g, 'x')
        .replace(/\[[^\]]*\]/g, 'x');
      if (quantified && next !== '?' && /[*+{|?]/.test(body.replace(/^\?(?::|<[A-Za-z_][A-Za-z0-9_]*>)/, ''))) {
        return 'Pattern must not repeat a group that itself repeats or alternates (catastrophic backtracking)';
      }
    } else if (c === '*' || c === '+') {
      if (pattern[i - 1] !== '(') unbounded++;
      if (pattern[i + 1] === '?' || pattern[i + 1] === '+') i++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m === null) continue;
      if (m[2] !== undefined && (m[3] === undefined || m[3] === '')) unbounded++;
      else if (m[3] !== undefined) choices *= Number(m[3]) - Number(m[1]) + 1;
      i += m[0].length - 1;
    } else if (c === '?' && pattern[i - 1] !== '(') choices *= 2;
  }
  choices *= groups[0]!.branches;
  if (!safeRegex(pattern, { limit: 25 }))
    return 'Pattern nests repetition (star height above 1: catastrophic backtracking)';
  if (unbounded > 1)
    return 'Pattern may use at most one unbounded quantifier (*, +, {n,}); bound the others ({1,64}): two can backtrack polynomially';
  if (choices > MAX_PATTERN_CHOICES)
    return `Pattern has too many backtracking choices (${choices}; at most ${MAX_PATTERN_CHOICES}): narrow the bounded repetitions`;
  return null;
}

/** a value masked with a method (previewMasking): strings by the method, other scalars as MASK, structures inside */
export function maskWith(value: unknown, method: MaskMethod, pattern?: string): unknown {
  return maskValue(value, method, maskRegex(method, pattern));
}

const compiledPatterns = new Map<string, RegExp | null>();
/**
 * The RegExp of a REGEX method's acceptable Pattern (else undefined: the value is masked FULL). Checked and
 * compiled once per pattern, not on every send that masks with it; sharing the global RegExp is safe because
 * String.prototype.replace starts a global match from lastIndex 0.
 */
function maskRegex(method: MaskMethod, pattern: string | undefined): RegExp | undefined {
  if (method !== 'REGEX' || pattern === undefined) return undefined;
  let re = compiledPatterns.get(pattern);
  if (re === undefined) {
    re = checkMaskPattern(pattern) === null ? new RegExp(pattern, 'g') : null;
    if (compiledPatterns.size >= 1000) compiledPatterns.clear();
    compiledPatterns.set(pattern, re);
  }
  return re ?? undefined;
}

type SensitiveSource =
  | { from: 'Payload'; steps: readonly PathStep[] }
  | { from: 'Context'; alias: string; steps: readonly PathStep[] };

/** what a sensitive field's Path names (`$…`, `Payload.…` or `Context.<alias>…`), or why it is not a path */
export const parseSensitivePath = memoizedParse(
  (path: string): { ok: true; source: SensitiveSource } | { ok: false; error: string } => {
    if (typeof path === 'string' && path.startsWith('$')) {
      const p = parsePath(path);
      return p.ok ? { ok: true, source: { from: 'Payload', steps: p.steps } } : { ok: false, error: p.error };
    }
    if (typeof path === 'string' && (path === 'Payload' || path.startsWith('Payload.') || path.startsWith('Context.')))
      return parseVariablePath(path);
    return { ok: false, error: 'must be a path starting with $, Payload. or Context.' };
  },
);

/**
 * The payload paths a sensitive field masks: what extraction reads for the same path. A `Context.` path
 * goes on from where its alias points; an alias whose path has a wildcard stands for the array of its
 * matches (as in extraction), so the step after it picks among the matches.
 */
function maskedPaths(
  source: SensitiveSource,
  contexts: Readonly<Record<string, string>>,
  payload: unknown,
): Array<readonly PathStep[]> {
  if (source.from === 'Payload') return [source.steps];
  const aliasPath = Object.hasOwn(contexts, source.alias) ? parsePath(contexts[source.alias]!) : undefined;
  if (aliasPath === undefined || !aliasPath.ok) return [];
  const alias = aliasPath.steps;
  if (!alias.some((s) => s.kind === 'wildcard')) return [[...alias, ...source.steps]];
  const [first, ...rest] = source.steps;
  if (first === undefined) return [alias];
  switch (first.kind) {
    case 'wildcard':
      return [[...alias, ...rest]];
    case 'index': {
      const at = locateAll(payload, alias)[first.index];
      return at === undefined ? [] : [[...at, ...rest]];
    }
    case 'member':
      return [];
    default: {
      const never: never = first;
      return never;
    }
  }
}

/** violations of one sensitive-field declaration (field names relative to the declaration); `contexts`: the definition's aliases */
export function checkSensitiveField(
  f: SensitiveField,
  contexts: Readonly<Record<string, string>>,
): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  const path = parseSensitivePath(f.Path);
  if (!path.ok) out.push({ field: 'Path', message: path.error });
  else if (path.source.from === 'Context' && !Object.hasOwn(contexts, path.source.alias)) {
    out.push({
      field: 'Path',
      message: `names the context alias ${path.source.alias}, which Contexts does not declare`,
    });
  }
  if (f.Method === 'REGEX') {
    const why = checkMaskPattern(f.Pattern);
    if (why !== null) out.push({ field: 'Pattern', message: why });
  } else if (f.Pattern !== undefined) out.push({ field: 'Pattern', message: 'is only for Method REGEX' });
  return out;
}

/**
 * `payload` with every declared sensitive field masked (declarations that do not parse are skipped: they were
 * refused at save); `contexts`: the definition's aliases, which `Context.` paths read through
 */
export function maskPayload(
  payload: Record<string, unknown>,
  fields: readonly SensitiveField[],
  contexts: Readonly<Record<string, string>>,
): Record<string, unknown> {
  let masked: unknown = payload;
  for (const f of fields) {
    const path = parseSensitivePath(f.Path);
    if (!path.ok) continue;
    const pattern = maskRegex(f.Method, f.Pattern);
    const mask = (v: unknown) => maskValue(v, f.Method, pattern);
    // masking keeps the structure, so the paths are the same in the partly masked payload
    for (const steps of maskedPaths(path.source, contexts, masked)) masked = replaceAt(masked, steps, mask);
  }
  return masked as Record<string, unknown>;
}

/** one value masked with a method (recipient addresses in listings) */
export const maskText = (value: string, method: MaskMethod): string => maskString(value, method, undefined);
