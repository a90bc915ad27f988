import { compareStrings, kindOf, kindRank, sortRank } from './bson-order.ts';

/**
 * MongoDB's BSON comparison order for JSON values: null/missing < numbers < strings < objects < arrays <
 * booleans; numbers by value, strings in code point order, false < true; objects field by field (type of
 * the value, then field name, then value, the shorter object first), arrays element by element.
 * Arrays are compared as whole values: MongoDB's sort by an array field uses its smallest element
 * (ascending) or largest (descending), which this does not replicate — sort on scalar fields.
 */
export function compareForSort(a: unknown, b: unknown): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return kindRank(ka) < kindRank(kb) ? -1 : 1;
  switch (ka) {
    case 'null':
      return 0;
    case 'number':
    case 'boolean':
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 'string':
      return compareStrings(a as string, b as string);
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareForSort(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 'object': {
      const x = Object.entries(a as Record<string, unknown>);
      const y = Object.entries(b as Record<string, unknown>);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const [kx, vx] = x[i]!;
        const [ky, vy] = y[i]!;
        const c = Math.sign(sortRank(vx) - sortRank(vy)) || compareStrings(kx, ky) || compareForSort(vx, vy);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 'other':
      return compareStrings(String(a), String(b));
  }
}
