import { fieldProblems } from '../../api/errors.ts';
import {
  type ContextDefinition,
  isObject,
  type JsonText,
  type MaskMethod,
  parseJson,
  pretty,
  type SensitiveField,
} from './hub-defs-api.ts';

/**
 * A context definition as its form edits it: the maps as rows (a row may be half typed: an alias
 * without its path yet), the sample payload as text. Rows carry a stable key for React.
 */
export type MapRow = { key: number; name: string; path: string };
export type SensitiveRow = { key: number; Path: string; Method: MaskMethod; Pattern: string };
export type ContextDraft = {
  id: string;
  name: string;
  contexts: MapRow[];
  variables: MapRow[];
  sensitive: SensitiveRow[];
  sample: string;
};

let nextKey = 1;
export const rowKey = (): number => nextKey++;
export const mapRow = (name = '', path = ''): MapRow => ({ key: rowKey(), name, path });
export const sensitiveRow = (f?: SensitiveField): SensitiveRow => ({
  key: rowKey(),
  Path: f?.Path ?? '',
  Method: f?.Method ?? 'FULL',
  Pattern: f?.Pattern ?? '',
});

export function draftOf(c: ContextDefinition | null): ContextDraft {
  return {
    id: c?.ContextDefinitionId ?? '',
    name: c?.Name ?? '',
    contexts: Object.entries(c?.Contexts ?? {}).map(([n, p]) => mapRow(n, p)),
    variables: Object.entries(c?.Variables ?? {}).map(([n, p]) => mapRow(n, p)),
    sensitive: (c?.SensitiveFields ?? []).map(sensitiveRow),
    sample: pretty(c?.SamplePayload ?? {}),
  };
}

/** the rows with a name, as the API's map (a later row of the same name wins, as JSON would) */
export const mapOf = (rows: readonly MapRow[]): Record<string, string> =>
  Object.fromEntries(rows.filter((r) => r.name.trim() !== '').map((r) => [r.name.trim(), r.path.trim()]));

export const sensitiveOf = (rows: readonly SensitiveRow[]): SensitiveField[] =>
  rows
    .filter((r) => r.Path.trim() !== '')
    .map((r) => ({
      Path: r.Path.trim(),
      Method: r.Method,
      ...(r.Method === 'REGEX' && { Pattern: r.Pattern }),
    }));

export type SampleState = { text: JsonText; payload: Record<string, unknown> | null };
export function sampleOf(text: string): SampleState {
  const parsed = parseJson(text);
  return { text: parsed, payload: parsed.ok && isObject(parsed.value) ? parsed.value : null };
}

/** the body of a create (with the id) or a replacement */
export function bodyOf(d: ContextDraft, payload: Record<string, unknown> | null) {
  return {
    ...(d.name.trim() !== '' && { Name: d.name.trim() }),
    Contexts: mapOf(d.contexts),
    Variables: mapOf(d.variables),
    SensitiveFields: sensitiveOf(d.sensitive),
    ...(payload !== null && { SamplePayload: payload }),
  };
}

/**
 * The messages of an error's details by the form's own places: `Contexts.<alias>` and `Variables.<name>`
 * go to the row of that name, `SensitiveFields.<n>.<field>` to the n-th sensitive row that has a path
 * (the ones the API was sent), other fields by their name.
 */
export type PlacedErrors = Record<string, string>;
export function placeErrors(details: unknown, d: ContextDraft): { placed: PlacedErrors; other: string[] } {
  const placed: PlacedErrors = {};
  const other: string[] = [];
  const sent = d.sensitive.filter((r) => r.Path.trim() !== '');
  for (const p of fieldProblems(details)) {
    const [head, second, third] = p.field.split('.');
    let place: string | null = null;
    if ((head === 'Contexts' || head === 'Variables') && second !== undefined) {
      const name = p.field.slice(head.length + 1);
      const rows = head === 'Contexts' ? d.contexts : d.variables;
      const row = [...rows].reverse().find((r) => r.name.trim() === name);
      if (row !== undefined) place = `${head}:${row.key}`;
    } else if (head === 'SensitiveFields' && second !== undefined && /^\d+$/.test(second)) {
      const row = sent[Number(second)];
      if (row !== undefined) place = `SensitiveFields:${row.key}:${third ?? 'Path'}`;
    } else if (head === 'ContextDefinitionId' || head === 'Name' || head === 'SamplePayload' || head === 'Payload') {
      place = head === 'Payload' ? 'SamplePayload' : head;
    }
    if (place === null) other.push(`${p.field} ${p.message}`);
    else placed[place] ??= p.message;
  }
  return { placed, other };
}

/**
 * The value a sensitive field's path names in the sample, where the path is a plain one (`$.a.b[0]`,
 * `Payload.a.b`, `Context.<alias>.x` through a plain alias path); wildcards and filters answer null (the
 * masked payload shows them).
 */
export function sampleValue(
  payload: Record<string, unknown>,
  path: string,
  contexts: Record<string, string>,
): { value: unknown } | null {
  let steps: string[] | null;
  if (path.startsWith('Context.')) {
    const [alias, ...rest] = splitSteps(path.slice('Context.'.length)) ?? [];
    const base = alias === undefined ? undefined : contexts[alias];
    const baseSteps = base === undefined ? null : jsonPathSteps(base);
    steps = baseSteps === null ? null : [...baseSteps, ...rest];
  } else if (path.startsWith('Payload.')) steps = splitSteps(path.slice('Payload.'.length));
  else steps = jsonPathSteps(path);
  if (steps === null) return null;
  let at: unknown = payload;
  for (const s of steps) {
    if (Array.isArray(at) && /^\d+$/.test(s)) at = at[Number(s)];
    else if (isObject(at) && Object.hasOwn(at, s)) at = at[s];
    else return null;
  }
  return at === undefined ? null : { value: at };
}

function jsonPathSteps(path: string): string[] | null {
  if (path === '$') return [];
  if (!path.startsWith('$.') && !path.startsWith('$[')) return null;
  return splitSteps(path.slice(path.startsWith('$.') ? 2 : 1));
}

/** `a.b[0].c` → a, b, 0, c; null for anything else (wildcards, quoted names, filters) */
function splitSteps(text: string): string[] | null {
  const out: string[] = [];
  for (const part of text.split('.')) {
    const m = /^([A-Za-z_$][\w$-]*)?((?:\[\d+\])*)$/.exec(part);
    if (m === null || (m[1] === undefined && m[2] === '')) return null;
    if (m[1] !== undefined) out.push(m[1]);
    for (const i of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(i[1]!);
  }
  return out;
}
