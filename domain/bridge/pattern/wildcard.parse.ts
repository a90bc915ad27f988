import type { WildcardPart } from './pattern.types.ts';

/**
 * Wildcard text: `*` is any run of characters (zero or more), `?` exactly one character (the spec's rule; AWS
 * reads `?` literally), and `\*` `\?` `\\` stand for the characters themselves. Two unescaped `*` in a row
 * are rejected, as the spec's limits say; any other backslash sequence is rejected too, so that a future
 * escape cannot silently change the meaning of a stored pattern.
 * Returns the parts (adjacent literal text merged) or the reason the text is not a wildcard.
 */
export function parseWildcard(source: string): WildcardPart[] | string {
  const parts: WildcardPart[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === '*' || next === '?' || next === '\\') {
        text += next;
        i++;
      } else if (next === undefined) return `wildcard "${source}" ends with a lone backslash (escape it as \\\\)`;
      else return `wildcard "${source}" has an unknown escape \\${next} at ${i} (only \\*, \\? and \\\\ are escapes)`;
    } else if (c === '*') {
      if (source[i + 1] === '*') return `wildcard "${source}" has two consecutive * at ${i} (unsupported)`;
      flush();
      parts.push({ kind: 'any' });
    } else if (c === '?') {
      flush();
      parts.push({ kind: 'one' });
    } else text += c;
  }
  flush();
  return parts;
}
