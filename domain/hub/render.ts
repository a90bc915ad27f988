import type { ContentType } from './config.model.ts';

/**
 * Template rendering (spec "Template": Body using `${variable}`). A placeholder names one extracted
 * variable; `$${` writes a literal `${`. Values: strings as they are, numbers and booleans as text, null or
 * absent as nothing, objects and arrays as compact JSON. With ContentType HTML every inserted value is
 * HTML-escaped (the template's own markup is the administrator's); the subject is plain text always.
 * A placeholder naming a variable the context definition does not declare fails the render: the send
 * records it as that message's validation failure.
 */
export type RenderResult = { ok: true; text: string; missing: string[] } | { ok: false; error: string };

const PLACEHOLDER = /\$\$\{|\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const asText = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** the variable names a template text refers to */
export function placeholders(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) names.add(m[1]);
  return [...names];
}

/** null when every `${` starts a well-formed placeholder, else why not */
export function checkTemplateText(text: string): string | null {
  const stripped = text.replace(PLACEHOLDER, '');
  const bad = stripped.indexOf('${');
  return bad < 0
    ? null
    : `"\${" at character ${bad + 1} does not start a placeholder \${name} (write $\${ for a literal)`;
}

export function render(
  text: string,
  variables: Readonly<Record<string, unknown>>,
  declared: ReadonlySet<string>,
  contentType: ContentType,
): RenderResult {
  const unknown = placeholders(text).filter((n) => !declared.has(n));
  if (unknown.length > 0)
    return {
      ok: false,
      error: `the template names variables the context definition does not declare: ${unknown.join(', ')}`,
    };
  const missing: string[] = [];
  const out = text.replace(PLACEHOLDER, (_whole, name: string | undefined) => {
    if (name === undefined) return '${';
    const value = variables[name];
    if (value === undefined || value === null) missing.push(name);
    const t = asText(value);
    return contentType === 'HTML' ? escapeHtml(t) : t;
  });
  return { ok: true, text: out, missing };
}
