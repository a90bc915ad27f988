import type { Filter } from '../read-store.port.ts';
import { isOperatorObject } from './filter.literal.ts';
import { regexSource } from './filter.regex.ts';

/**
 * The filter as plain JSON, for transports that serialize it (the SQLite residual's parameter, the
 * MongoDB driver, whose BSON encoder maps the JavaScript `g` flag to PCRE `s`): RegExp values become
 * `{$regex, $options}`. Expects a valid filter.
 */
export function normalizeFilter(filter: Filter): Filter {
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      out[key] = (value as Filter[]).map(normalizeFilter);
    } else if (value instanceof RegExp) {
      const { source, options } = regexSource(value, undefined, key);
      out[key] = options ? { $regex: source, $options: options } : { $regex: source };
    } else if (isOperatorObject(value) && value.$regex instanceof RegExp) {
      const { source, options } = regexSource(value.$regex, value.$options, key);
      const { $regex: _r, $options: _o, ...rest } = value;
      out[key] = { ...rest, $regex: source, ...(options ? { $options: options } : {}) };
    } else {
      out[key] = value;
    }
  }
  return out;
}
