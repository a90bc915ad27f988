import { canonicalNumber } from './number.value.ts';
import type { Leaf } from './pattern.types.ts';

/**
 * The key a leaf is looked up by for equality: tagged by JSON type so that the number 300 and the string
 * "300" never meet, numbers in canonical form so that 300, 300.0 and 3e2 do.
 */
export function leafKey(v: Leaf): string {
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'number':
      return `n${canonicalNumber(v)}`;
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return 'null';
  }
}
