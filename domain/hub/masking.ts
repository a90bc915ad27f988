import type { MaskMethod, SensitiveField } from './config.model.ts';
import { parsePath, replaceAt } from './json-path.ts';

/**
 * Declaration-based masking (spec "Context definition": SensitiveFields of Path and Method; undeclared
 * fields stay visible). The masked payload keeps its structure: every key and array element stays, a
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

const stars = (n: number) => '*'.repeat(n);

function maskString(value: string, method: MaskMethod, pattern: RegExp | undefined): string {
  switch (method) {
    case 'FULL':
      return stars(value.length);
    case 'KEEP_EDGES':
      return value.length <= 2 ? stars(value.length) : `${value[0]}${stars(value.length - 2)}${value[value.length - 1]}`;
    case 'EMAIL': {
      const at = value.lastIndexOf('@');
      if (at <= 0) return maskString(value, 'KEEP_EDGES', undefined);
      return `${value[0]}${stars(at - 1)}${value.slice(at)}`;
    }
    case 'NAME':
      return value.replace(/\S+/g, (word) => `${word[0]}${stars(word.length - 1)}`);
    case 'REGEX':
      return pattern === undefined ? stars(value.length) : value.replace(pattern, (m) => stars(m.length));
  }
}

function maskValue(value: unknown, method: MaskMethod, pattern: RegExp | undefined): unknown {
  if (typeof value === 'string') return maskString(value, method, pattern);
  if (Array.isArray(value)) return value.map((v) => maskValue(v, method, pattern));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v, method, pattern)]));
  if (value === null) return null;
  return MASK;
}

/**
 * null when `pattern` is an acceptable REGEX mask pattern, else why not. Refused: backreferences,
 * lookaround, a quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|aa)*`:
 * the shapes that backtrack exponentially), and patterns that do not compile.
 */
export function checkMaskPattern(pattern: unknown): string | null {
  if (typeof pattern !== 'string' || pattern.length === 0) return 'REGEX needs a Pattern';
  if (pattern.length > MAX_MASK_PATTERN_LENGTH) return `Pattern must be at most ${MAX_MASK_PATTERN_LENGTH} characters`;
  if (/\\[1-9]|\\k</.test(pattern)) return 'Pattern must not use backreferences';
  if (/\(\?<?[=!]/.test(pattern)) return 'Pattern must not use lookaround';
  // a group followed by a quantifier whose body holds a quantifier or an alternation
  const groups: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close > 0) i = close;
      continue;
    }
    if (c === '(') groups.push(i);
    else if (c === ')') {
      const open = groups.pop();
      if (open === undefined) continue;
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      const body = pattern.slice(open + 1, i).replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
      if (quantified && next !== '?' && /[*+{|?]/.test(body.replace(/^\?:/, ''))) return 'Pattern must not repeat a group that itself repeats or alternates (catastrophic backtracking)';
    }
  }
  try {
    new RegExp(pattern, 'g');
  } catch (err) {
    return `Pattern does not compile: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

/** violations of one sensitive-field declaration (field names relative to the declaration) */
export function checkSensitiveField(f: SensitiveField): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  const path = parsePath(f.Path);
  if (!path.ok) out.push({ field: 'Path', message: path.error });
  if (f.Method === 'REGEX') {
    const why = checkMaskPattern(f.Pattern);
    if (why !== null) out.push({ field: 'Pattern', message: why });
  } else if (f.Pattern !== undefined) out.push({ field: 'Pattern', message: 'is only for Method REGEX' });
  return out;
}

/** `payload` with every declared sensitive field masked (declarations that do not parse are skipped: they were refused at save) */
export function maskPayload(payload: Record<string, unknown>, fields: readonly SensitiveField[]): Record<string, unknown> {
  let masked: unknown = payload;
  for (const f of fields) {
    const path = parsePath(f.Path);
    if (!path.ok) continue;
    const pattern = f.Method === 'REGEX' && f.Pattern !== undefined && checkMaskPattern(f.Pattern) === null ? new RegExp(f.Pattern, 'g') : undefined;
    masked = replaceAt(masked, path.steps, (v) => maskValue(v, f.Method, pattern));
  }
  return masked as Record<string, unknown>;
}

/** one value masked with a method (recipient addresses in listings) */
export const maskText = (value: string, method: MaskMethod): string => maskString(value, method, undefined);
