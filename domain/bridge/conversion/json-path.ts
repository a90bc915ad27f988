import { JSONPath } from 'jsonpath-plus';

/**
 * JSONPath over an event (jsonpath-plus). Script and filter expressions (`[?(…)]`, `[(…)]`) are turned off:
 * paths are written by tenant administrators and evaluated on the routing path, and the spec only needs
 * member and index access (`$.data.<field>`). A path must start with `$`.
 */
export type PathQuery = { status: 'found'; value: unknown } | { status: 'none' } | { status: 'invalid'; error: string };

export const MAX_JSON_PATH_LENGTH = 512;

/** null when `path` is acceptable, else why not. Syntax only: whether it matches is the event's business. */
export function checkJsonPath(path: unknown): string | null {
  if (typeof path !== 'string' || path.length === 0) return 'must be a JSONPath string starting with $';
  if (path.length > MAX_JSON_PATH_LENGTH) return `must be at most ${MAX_JSON_PATH_LENGTH} characters`;
  if (!path.startsWith('$')) return 'must be a JSONPath starting with $';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (depth === 0) return `quote at ${i} outside brackets`;
      quote = ch;
    } else if (ch === '[') {
      depth++;
      if (path[i + 1] === '?' || path[i + 1] === '(')
        return 'filter and script expressions ([?(…)], [(…)]) are not supported';
    } else if (ch === ']') {
      depth--;
      if (depth < 0) return `unbalanced ] at ${i}`;
    }
  }
  if (quote !== null) return 'unterminated quoted name';
  if (depth !== 0) return 'unbalanced [';
  try {
    JSONPath({ path, json: {}, wrap: true, eval: false });
  } catch (err) {
    return `is not a usable JSONPath: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

/**
 * Evaluates `path` on `json`: one match is that value (an array value stays one value), several are
 * the array of matches, none is `none`. Never throws.
 */
export function queryPath(json: unknown, path: string): PathQuery {
  const problem = checkJsonPath(path);
  if (problem !== null) return { status: 'invalid', error: `JSONPath ${JSON.stringify(path)} ${problem}` };
  let results: unknown[];
  try {
    // wrap: true (always an array of matches) keeps "one match that is an array" apart from "several matches"
    results = JSONPath({ path, json: json as object, wrap: true, eval: false }) as unknown[];
  } catch (err) {
    return {
      status: 'invalid',
      error: `JSONPath ${JSON.stringify(path)} failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (!Array.isArray(results) || results.length === 0) return { status: 'none' };
  return { status: 'found', value: results.length === 1 ? results[0] : results };
}
