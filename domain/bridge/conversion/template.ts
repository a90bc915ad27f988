import { checkJsonPath, queryPath } from './json-path.ts';

/**
 * The spec's template conversion: a variable map (name → JSONPath or constant) and a template text that
 * references variables as `${name}`. Decisions (the spec is silent on them):
 *
 * - A variable whose value is a string starting with `$` is a JSONPath (`$.data.job`); `$$` at the start
 *   escapes it (`"$$5"` is the constant `$5`). Any other value (string, number, boolean, null, object,
 *   array) is a constant.
 * - Insertion: strings raw, numbers and booleans as text, objects and arrays as compact JSON, null as
 *   `null`. A JSONPath that matches nothing leaves the variable empty and lists it in `missing`; so does a
 *   `${name}` the map does not define.
 * - `$${` writes a literal `${` (no substitution). `${` not followed by `name}` is literal text. Names are
 *   letters, digits, `_`, `-` and `.`, starting with a letter or `_`.
 * - A template whose text starts with `{` or `[` (after leading white space) is JSON-shaped: the rendered
 *   text must parse as JSON and the payload is the parsed value; otherwise the result is an error (a
 *   delivery error for the trace), never an exception. Any other template renders to a string payload.
 * - Inside a JSON string literal of a JSON-shaped template (`"job": "${job}"`) the inserted text is
 *   JSON-escaped, so a `"` or `\` in event data can neither break the output nor inject fields; outside
 *   string literals (the nested style `"detail": ${obj}`) the value is inserted as described above.
 */
export type TemplateVariables = Record<string, unknown>;

export type TemplateRendering =
  | { ok: true; text: string; payload: unknown; missing: string[] }
  | { ok: false; error: string };

export const TEMPLATE_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
export const MAX_TEMPLATE_LENGTH = 64 * 1024;
export const MAX_TEMPLATE_VARIABLES = 100;

type Segment = { kind: 'text'; text: string } | { kind: 'var'; name: string; inString: boolean };

export const isJsonShaped = (template: string): boolean => /^\s*[[{]/.test(template);

/** Splits a template into literal text and `${name}` references (with their JSON string context). */
export function parseTemplate(template: string): Segment[] {
  const json = isJsonShaped(template);
  const segments: Segment[] = [];
  let text = '';
  // JSON string-literal tracking over the template's own text (inserted values do not move it)
  let inString = false;
  let escaped = false;
  const literal = (s: string) => {
    text += s;
    if (!json) return;
    for (const ch of s) {
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
    }
  };
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('$${', i)) {
      literal('${');
      i += 3;
      continue;
    }
    if (template.startsWith('${', i)) {
      const close = template.indexOf('}', i + 2);
      const name = close < 0 ? '' : template.slice(i + 2, close);
      if (close >= 0 && TEMPLATE_VARIABLE_NAME.test(name)) {
        if (text !== '') segments.push({ kind: 'text', text });
        text = '';
        segments.push({ kind: 'var', name, inString: json && inString });
        i = close + 1;
        continue;
      }
    }
    literal(template[i]!);
    i++;
  }
  if (text !== '') segments.push({ kind: 'text', text });
  return segments;
}

/** The names a template references, in order of first use. */
export const templateReferences = (template: string): string[] => [
  ...new Set(parseTemplate(template).flatMap((s) => (s.kind === 'var' ? [s.name] : []))),
];

type Resolved = { value: unknown } | { missing: true };

/** A variable map entry: the JSONPath it reads, or the constant it is. */
export function variableSource(value: unknown): { path: string } | { constant: unknown } {
  if (typeof value === 'string' && value.startsWith('$$')) return { constant: value.slice(1) };
  if (typeof value === 'string' && value.startsWith('$')) return { path: value };
  return { constant: value };
}

function resolve(event: unknown, variables: TemplateVariables): { values: Map<string, Resolved> } | { error: string } {
  const values = new Map<string, Resolved>();
  for (const [name, spec] of Object.entries(variables)) {
    const source = variableSource(spec);
    if ('constant' in source) {
      values.set(name, { value: source.constant });
      continue;
    }
    const q = queryPath(event, source.path);
    if (q.status === 'invalid') return { error: `variable ${name}: ${q.error}` };
    values.set(name, q.status === 'found' ? { value: q.value } : { missing: true });
  }
  return { values };
}

/** A value as template text: strings raw, numbers and booleans as text, objects and arrays as compact JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The body of a JSON string literal holding `s` (without the quotes). */
const jsonEscape = (s: string): string => JSON.stringify(s).slice(1, -1);

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

function assemble(segments: Segment[], lookup: (name: string) => Resolved): { text: string; missing: string[] } {
  const missing: string[] = [];
  let text = '';
  for (const s of segments) {
    if (s.kind === 'text') {
      text += s.text;
      continue;
    }
    const r = lookup(s.name);
    if ('missing' in r) {
      if (!missing.includes(s.name)) missing.push(s.name);
      continue;
    }
    const inserted = valueText(r.value);
    text += s.inString ? jsonEscape(inserted) : inserted;
  }
  return { text, missing };
}

/** Renders `template` over `event`. Never throws: bad output is an `{ ok: false, error }`. */
export function renderTemplate(event: unknown, variables: TemplateVariables, template: string): TemplateRendering {
  const resolved = resolve(event, variables);
  if ('error' in resolved) return { ok: false, error: resolved.error };
  const segments = parseTemplate(template);
  const { text, missing } = assemble(segments, (name) => resolved.values.get(name) ?? { missing: true });
  if (!isJsonShaped(template)) return { ok: true, text, payload: text, missing };
  try {
    return { ok: true, text, payload: JSON.parse(text) as unknown, missing };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const without = missing.length > 0 ? ` (variables without a value: ${missing.join(', ')})` : '';
    return { ok: false, error: clip(`template output is not valid JSON${without}: ${why}`) };
  }
}

/** Parses a TEMPLATE parameter's Value: a JSON object string mapping names to JSONPaths or constants. */
export function parseVariableMap(value: unknown): { variables: TemplateVariables } | { error: string } {
  if (typeof value !== 'string')
    return { error: 'must be a JSON object (as a string) mapping variable names to JSONPaths or constants' };
  let parsed: unknown;
  try {
    parsed = value.trim() === '' ? {} : JSON.parse(value);
  } catch {
    return {
      error: 'must be a JSON object (as a string) mapping variable names to JSONPaths or constants; it does not parse',
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'must be a JSON object (as a string) mapping variable names to JSONPaths or constants' };
  }
  return { variables: parsed as TemplateVariables };
}

/**
 * Problems with a variable map and template, found before any event arrives: bad names, bad JSONPaths,
 * references to undefined variables, and a JSON-shaped template that cannot produce JSON (checked with
 * each constant in place and `null` for each JSONPath variable). Empty when fine.
 */
export function checkTemplate(
  variables: unknown,
  template: unknown,
): Array<{ where: 'variables' | 'template'; key?: string; message: string }> {
  const problems: Array<{ where: 'variables' | 'template'; key?: string; message: string }> = [];
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    problems.push({
      where: 'variables',
      message: 'must be an object mapping variable names to JSONPaths or constants',
    });
    return problems;
  }
  const entries = Object.entries(variables as Record<string, unknown>);
  if (entries.length > MAX_TEMPLATE_VARIABLES)
    problems.push({ where: 'variables', message: `at most ${MAX_TEMPLATE_VARIABLES} variables` });
  for (const [name, spec] of entries) {
    if (!TEMPLATE_VARIABLE_NAME.test(name)) {
      problems.push({
        where: 'variables',
        key: name,
        message: 'variable names are letters, digits, _ - . starting with a letter or _ (at most 64)',
      });
      continue;
    }
    const source = variableSource(spec);
    if ('path' in source) {
      const p = checkJsonPath(source.path);
      if (p !== null) problems.push({ where: 'variables', key: name, message: p });
    }
  }
  if (typeof template !== 'string') {
    problems.push({ where: 'template', message: 'must be a string' });
    return problems;
  }
  if (template.length > MAX_TEMPLATE_LENGTH) {
    problems.push({ where: 'template', message: `must be at most ${MAX_TEMPLATE_LENGTH} characters` });
    return problems;
  }
  const defined = new Set(entries.map(([n]) => n));
  const undefinedNames = templateReferences(template).filter((n) => !defined.has(n));
  if (undefinedNames.length > 0) {
    problems.push({ where: 'template', message: `references variables not in the map: ${undefinedNames.join(', ')}` });
  }
  if (problems.length === 0 && isJsonShaped(template)) {
    const map = variables as Record<string, unknown>;
    const { text } = assemble(parseTemplate(template), (name) => {
      const source = variableSource(map[name]);
      return { value: 'constant' in source ? source.constant : null };
    });
    try {
      JSON.parse(text);
    } catch (err) {
      problems.push({
        where: 'template',
        message: clip(
          `is JSON-shaped but does not render to JSON (checked with null for each JSONPath variable): ${err instanceof Error ? err.message : String(err)}`,
        ),
      });
    }
  }
  return problems;
}
