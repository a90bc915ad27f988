import { isConfigKey } from './config-entry.decider.ts';
import { checkJsonPath, queryPath } from './conversion/json-path.ts';
import { parseTemplate, TEMPLATE_VARIABLE_NAME } from './conversion/template.ts';
import { at, type Violation } from './violation.ts';

/**
 * An API destination's URL (spec: "The destination URL may be assembled from configuration parameters or
 * JSONPath values, for example `${param_a}${param_b}`"). Shaped like the conversion templates:
 *
 *   { url: 'https://api.example/${region}/claims/${claimId}',
 *     variables: { region: 'config:claims.region', claimId: '$.data.claimId' } }
 *
 * A variable is a JSONPath into the event when it starts with `$` (`$$` escapes a constant `$…`), a
 * configuration-center key when it starts with `config:`, else a constant. Decisions:
 * - every `${name}` must be in the map; a variable without a value at delivery (a path that matches
 *   nothing, an unset key, an object value) fails the delivery: a URL with a hole is never called;
 * - constants and configuration values are inserted as they are (administrators write them: they may be
 *   a whole origin, as in the spec's `${param_a}${param_b}`); event values (JSONPath) too while the
 *   origin is being built, but once the URL has a path (`scheme://host/…` rendered so far) an event value
 *   is percent-encoded as one segment (encodeURIComponent), so event data cannot add path segments, a
 *   query or a fragment;
 * - the result must be an absolute http(s) URL without credentials (secrets belong in connections).
 */
export type UrlTemplate = { url: string; variables: Record<string, string> };

export const MAX_URL_LENGTH = 2048;
export const MAX_URL_VARIABLES = 20;
export const CONFIG_PREFIX = 'config:';

export type UrlVariableSource = { path: string } | { config: string } | { constant: string };

export function urlVariableSource(value: string): UrlVariableSource {
  if (value.startsWith('$$')) return { constant: value.slice(1) };
  if (value.startsWith('$')) return { path: value };
  if (value.startsWith(CONFIG_PREFIX)) return { config: value.slice(CONFIG_PREFIX.length) };
  return { constant: value };
}

const ORIGIN_DONE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*[/?#]/;

/** An absolute http(s) URL without credentials, or why not. */
export function checkHttpUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (use a connection)';
  return null;
}

/** Problems with a URL template found before any event arrives (fields under `base`). */
export function checkUrlTemplate(t: unknown, base = 'urlTemplate'): Violation[] {
  const v: Violation[] = [];
  if (typeof t !== 'object' || t === null || Array.isArray(t))
    return [{ field: base, message: 'must be an object {url, variables}' }];
  const { url, variables } = t as { url?: unknown; variables?: unknown };
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH || /\s/.test(url)) {
    v.push({
      field: at(base, 'url'),
      message: `must be a URL (template) of 1-${MAX_URL_LENGTH} characters without white space`,
    });
  }
  const vars = variables ?? {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) {
    v.push({
      field: at(base, 'variables'),
      message: 'must be an object mapping names to $.paths, config:keys or constants',
    });
    return v;
  }
  const entries = Object.entries(vars as Record<string, unknown>);
  if (entries.length > MAX_URL_VARIABLES)
    v.push({ field: at(base, 'variables'), message: `at most ${MAX_URL_VARIABLES} variables` });
  for (const [name, value] of entries) {
    const field = at(at(base, 'variables'), name);
    if (!TEMPLATE_VARIABLE_NAME.test(name)) {
      v.push({ field, message: 'variable names are letters, digits, _ - . starting with a letter or _ (at most 64)' });
      continue;
    }
    if (typeof value !== 'string' || value.length > 512) {
      v.push({ field, message: 'must be a string of at most 512 characters: a $.path, a config:key or a constant' });
      continue;
    }
    const source = urlVariableSource(value);
    if ('path' in source) {
      const p = checkJsonPath(source.path);
      if (p !== null) v.push({ field, message: p });
    } else if ('config' in source && !isConfigKey(source.config)) {
      v.push({ field, message: 'config: must be followed by a configuration key (alert.token)' });
    }
  }
  if (typeof url !== 'string' || v.length > 0) return v;
  const segments = parseTemplate(url);
  const defined = new Set(entries.map(([n]) => n));
  const undefinedNames = [
    ...new Set(segments.flatMap((s) => (s.kind === 'var' && !defined.has(s.name) ? [s.name] : []))),
  ];
  if (undefinedNames.length > 0) {
    v.push({ field: at(base, 'url'), message: `references variables not in the map: ${undefinedNames.join(', ')}` });
    return v;
  }
  const first = segments[0];
  if (
    segments.every(
      (s) => s.kind === 'text' || 'constant' in urlVariableSource((vars as Record<string, string>)[s.name] ?? ''),
    )
  ) {
    // nothing comes from outside: the URL is known now
    const text = segments
      .map((s) =>
        s.kind === 'text'
          ? s.text
          : (urlVariableSource((vars as Record<string, string>)[s.name]!) as { constant: string }).constant,
      )
      .join('');
    const problem = checkHttpUrl(text);
    if (problem !== null) v.push({ field: at(base, 'url'), message: problem });
  } else if (first?.kind === 'text' && first.text.includes('://')) {
    const scheme = first.text.slice(0, first.text.indexOf('://')).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https')
      v.push({ field: at(base, 'url'), message: 'must be an http or https URL' });
  }
  return v;
}

export type UrlRendering = { ok: true; url: string } | { ok: false; error: string };

/**
 * Renders the URL for one event. `config` reads a configuration-center key (the delivery's tenant, then
 * the rule's). Never throws for bad content; an exception of `config` itself (store down) is passed on.
 */
export async function renderDestinationUrl(
  event: unknown,
  template: UrlTemplate,
  config: (key: string) => Promise<string | undefined>,
): Promise<UrlRendering> {
  let text = '';
  for (const s of parseTemplate(template.url)) {
    if (s.kind === 'text') {
      text += s.text;
      continue;
    }
    const spec = template.variables[s.name];
    if (spec === undefined) return { ok: false, error: `URL variable ${s.name} is not defined` };
    const source = urlVariableSource(spec);
    let value: unknown;
    if ('constant' in source) value = source.constant;
    else if ('config' in source) {
      value = await config(source.config);
      if (value === undefined)
        return { ok: false, error: `URL variable ${s.name}: configuration key ${source.config} is not set` };
    } else {
      const q = queryPath(event, source.path);
      if (q.status === 'invalid') return { ok: false, error: `URL variable ${s.name}: ${q.error}` };
      if (q.status === 'none')
        return { ok: false, error: `URL variable ${s.name}: JSONPath ${source.path} matched nothing` };
      value = q.value;
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      return { ok: false, error: `URL variable ${s.name} is not a string, number or boolean` };
    }
    const inserted = String(value);
    text += 'path' in source && ORIGIN_DONE.test(text) ? encodeURIComponent(inserted) : inserted;
  }
  if (text.length > MAX_URL_LENGTH * 4) return { ok: false, error: 'the rendered URL is too long' };
  const problem = checkHttpUrl(text);
  if (problem !== null) return { ok: false, error: `the rendered URL ${problem}` };
  return { ok: true, url: text };
}
