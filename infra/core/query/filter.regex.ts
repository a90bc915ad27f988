import { failFilter } from './filter.literal.ts';

/*
 * `$regex` in MongoDB's terms (a PCRE source and option letters i, m, s, x) mapped onto JavaScript's
 * RegExp, which lacks `x`.
 */

const REGEX_OPTIONS = /^[imsx]*$/;

/** `x` (extended) mode of PCRE, which JavaScript lacks: drop unescaped whitespace and `#` comments. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** `{$regex, $options}` in MongoDB's string form; RegExp flags other than i, m, s (and g, y, dropped) are rejected. */
export function regexSource(value: unknown, options: unknown, where: string): { source: string; options: string } {
  if (options !== undefined && (typeof options !== 'string' || !REGEX_OPTIONS.test(options))) {
    failFilter(`${where}: $options must be a string of the letters i, m, s, x`);
  }
  if (typeof value === 'string') return { source: value, options: (options as string | undefined) ?? '' };
  if (value instanceof RegExp) {
    const flags = value.flags.replace(/[gy]/g, '');
    if (!/^[ims]*$/.test(flags)) failFilter(`${where}: RegExp flag(s) "${flags}" unsupported (use i, m, s)`);
    if (flags !== '' && options !== undefined) failFilter(`${where}: options set both in the RegExp and in $options`);
    return { source: value.source, options: flags || ((options as string | undefined) ?? '') };
  }
  return failFilter(`${where}: $regex must be a string or a RegExp`);
}

export function compileRegex(source: string, options: string, where: string): RegExp {
  const flags = [...new Set(options.replace(/x/g, ''))].join('');
  try {
    return new RegExp(options.includes('x') ? stripExtended(source) : source, flags);
  } catch (e) {
    return failFilter(`${where}: invalid regular expression: ${(e as Error).message}`);
  }
}
