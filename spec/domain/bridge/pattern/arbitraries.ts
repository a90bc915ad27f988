/**
 * fast-check arbitraries for the property tests: patterns and events as JSON *text* trees, so that numbers are
 * written in several notations (300, 300.0, 3e2, 30E+1) and go through JSON.parse like real input; strings from
 * small alphabets that sit near the prefixes, suffixes and wildcards; nested objects, arrays of objects and
 * nested arrays; and events derived from a pattern (values built to satisfy its matchers, objects wrapped in
 * arrays) so that a good share of the runs match.
 */
import fc from 'fast-check';

/** A number written as given in the JSON text. */
export class NumberText {
  constructor(readonly text: string) {}
}
export type JsonTree = string | boolean | null | NumberText | JsonTree[] | { [key: string]: JsonTree };

export function toJsonText(t: JsonTree): string {
  if (t instanceof NumberText) return t.text;
  if (Array.isArray(t)) return `[${t.map(toJsonText).join(',')}]`;
  if (t !== null && typeof t === 'object')
    return `{${Object.entries(t)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(t);
}
export const decode = (t: JsonTree): unknown => JSON.parse(toJsonText(t));

// Several notations of a few values, plus neighbours that differ by little.
const NOTATIONS: string[][] = [
  ['0', '-0', '0.0', '0e5'],
  ['1', '1.0', '10e-1', '0.1E1'],
  ['2', '2.00', '2e0'],
  ['2.5', '25e-1', '0.25E+1'],
  ['-1', '-1.0', '-1e0'],
  ['300', '300.0', '3e2', '3.0e2', '30E+1'],
  ['301'],
  ['1e-6', '0.000001', '10e-7'],
  ['1e21', '1000000000000000000000'],
  ['37.8078', '3.78078e1'],
  ['37.80780792169409'],
];
export const numberText = fc.constantFrom(...NOTATIONS.flat()).map((t) => new NumberText(t));
const sameValueText = (t: NumberText) =>
  fc.constantFrom(...(NOTATIONS.find((n) => n.includes(t.text)) ?? [t.text])).map((x) => new NumberText(x));

const CHARS = ['a', 'b', 'A', 'B', '*', '?', '\\', '.', 'é', 'ß', 'S', '😀'];
export const shortString = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 4 });
const IPS = [
  '10.0.0.1',
  '10.0.1.5',
  '10.0.0.255',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '2001:db8::1',
  '2001:db8:0:0:0:0:0:2',
  '2001:db9::1',
  '10.0.0.256',
  '::',
  '192.168.1.1',
];
const CIDRS = [
  '10.0.0.0/24',
  '10.0.0.1',
  '10.0.0.0/8',
  '0.0.0.0/0',
  '::/0',
  '2001:db8::/32',
  '::ffff:10.0.0.0/120',
  '2001:db8::1',
  '192.168.0.0/16',
  '10.0.0.1/31',
];
export const leaf: fc.Arbitrary<JsonTree> = fc.oneof(
  { weight: 4, arbitrary: shortString },
  { weight: 3, arbitrary: numberText },
  { weight: 1, arbitrary: fc.constantFrom('300', '2.5', '0') },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom(...IPS) },
);

export const KEYS = ['a', 'b', 'c', 'a.b'];
const key = fc.constantFrom(...KEYS);
const objectOf = <T extends JsonTree>(value: fc.Arbitrary<T>, minLength = 0) =>
  fc
    .uniqueArray(fc.tuple(key, value), { selector: (e) => e[0], minLength, maxLength: 3 })
    .map((entries) => Object.fromEntries(entries) as { [k: string]: JsonTree });

/** Any event: leaves, objects, arrays (of objects, of arrays), a few levels deep. */
export const event: fc.Arbitrary<JsonTree> = fc.letrec<{ value: JsonTree; obj: JsonTree; arr: JsonTree }>((tie) => ({
  value: fc.oneof({ maxDepth: 4, depthIdentifier: 'event' }, leaf, tie('obj'), tie('arr')),
  obj: objectOf(tie('value')),
  arr: fc.array(tie('value'), { maxLength: 3 }),
})).obj;

// Wildcards: tokens joined, never two * in a row.
const wildcardText = fc
  .array(fc.constantFrom('a', 'b', 'é', '*', '?', '\\*', '\\?', '\\\\'), { maxLength: 5 })
  .filter((ts) => !ts.some((t, i) => t === '*' && ts[i + 1] === '*'))
  .map((ts) => ts.join(''));

const numericBody: fc.Arbitrary<JsonTree[]> = fc.oneof(
  fc.tuple(fc.constantFrom('<', '<=', '=', '>', '>='), numberText).map(([op, n]) => [op, n]),
  fc
    .tuple(fc.constantFrom('>', '>='), numberText, fc.constantFrom('<', '<='), numberText)
    .filter(([, lo, , hi]) => Number(lo.text) < Number(hi.text))
    .chain(([a, lo, b, hi]) => fc.boolean().map((swap) => (swap ? [b, hi, a, lo] : [a, lo, b, hi]))),
);

export const matcher: fc.Arbitrary<JsonTree> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 2, arbitrary: shortString.map((s) => ({ prefix: s })) },
  { weight: 2, arbitrary: shortString.map((s) => ({ suffix: s })) },
  { weight: 1, arbitrary: shortString.map((s) => ({ 'equals-ignore-case': s })) },
  { weight: 3, arbitrary: wildcardText.map((w) => ({ wildcard: w })) },
  { weight: 3, arbitrary: numericBody.map((n) => ({ numeric: n })) },
  { weight: 1, arbitrary: fc.constantFrom(...CIDRS).map((c) => ({ cidr: c })) },
  { weight: 3, arbitrary: fc.boolean().map((b) => ({ exists: b })) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        shortString,
        numberText,
        fc.array(fc.oneof(shortString, numberText), { minLength: 1, maxLength: 3 }),
        shortString.map((s) => ({ prefix: s })),
        shortString.map((s) => ({ suffix: s })),
        wildcardText.map((w) => ({ wildcard: w })),
        shortString.map((s) => ({ 'equals-ignore-case': s })),
        fc.array(shortString, { minLength: 1, maxLength: 2 }).map((s) => ({ 'equals-ignore-case': s })),
      )
      .map((x) => ({ 'anything-but': x as JsonTree })),
  },
);

/** A valid pattern as JSON text tree: non-empty objects, non-empty matcher arrays, up to three levels. */
export const pattern: fc.Arbitrary<{ [k: string]: JsonTree }> = fc.letrec<{
  obj: { [k: string]: JsonTree };
  field: JsonTree;
}>((tie) => ({
  obj: objectOf(tie('field'), 1),
  field: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'pattern' },
    fc.array(matcher, { minLength: 1, maxLength: 3 }),
    tie('obj'),
  ),
})).obj;

const instantiateWildcard = (w: string) => {
  const parts: fc.Arbitrary<string>[] = [];
  for (let i = 0; i < w.length; i++) {
    const c = w[i] ?? '';
    if (c === '\\') parts.push(fc.constant(w[++i] ?? ''));
    else if (c === '*') parts.push(shortString);
    else if (c === '?') parts.push(fc.constantFrom('a', 'é', '😀', '*'));
    else parts.push(fc.constant(c));
  }
  return fc.tuple(...parts).map((ps) => ps.join(''));
};

/** A value meant to satisfy the matcher (sometimes it cannot: exists:false, anything-but). */
function candidate(m: JsonTree): fc.Arbitrary<JsonTree> {
  if (m instanceof NumberText) return sameValueText(m);
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return fc.constant(m);
  const [k, v] = Object.entries(m)[0] ?? ['', ''];
  const s = typeof v === 'string' ? v : '';
  switch (k) {
    case 'prefix':
      return shortString.map((x) => s + x);
    case 'suffix':
      return shortString.map((x) => x + s);
    case 'equals-ignore-case':
      return fc.constantFrom(s, s.toUpperCase(), s.toLowerCase());
    case 'wildcard':
      return instantiateWildcard(s);
    case 'numeric':
      return Array.isArray(v)
        ? fc.oneof(...v.filter((x): x is NumberText => x instanceof NumberText).map(sameValueText), numberText)
        : numberText;
    case 'cidr':
      return fc.constantFrom(...IPS, s.split('/')[0] ?? '');
    case 'anything-but': {
      // half the time a value the exclusion catches, to exercise both sides
      const caught =
        v instanceof NumberText || typeof v === 'string'
          ? candidate(v)
          : Array.isArray(v)
            ? fc.oneof(...v.map(candidate))
            : butInner(v);
      return fc.oneof(caught, leaf);
    }
    default:
      return leaf;
  }
}

function butInner(v: JsonTree): fc.Arbitrary<JsonTree> {
  const [k, inner] = Object.entries(v as { [k: string]: JsonTree })[0] ?? ['', ''];
  const first = Array.isArray(inner) ? fc.constantFrom(...inner) : fc.constant(inner);
  return first.chain((x) => candidate({ [k]: x }));
}

/** An event shaped by the pattern: its fields filled with candidates, sometimes inside arrays, sometimes left out. */
export function eventFor(p: { [k: string]: JsonTree }): fc.Arbitrary<JsonTree> {
  const OMIT = Symbol('omit');
  const fieldValue = (sub: JsonTree): fc.Arbitrary<JsonTree> => {
    const one: fc.Arbitrary<JsonTree> = Array.isArray(sub)
      ? fc.oneof(...sub.map(candidate), leaf)
      : eventFor(sub as { [k: string]: JsonTree });
    return fc.oneof(
      { weight: 5, arbitrary: one },
      { weight: 2, arbitrary: fc.array(one, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fc.array(one, { maxLength: 2 }), { maxLength: 2 }) },
      { weight: 1, arbitrary: fc.oneof(leaf, fc.constant<JsonTree>({}), fc.constant<JsonTree>([])) },
    );
  };
  const fields = Object.entries(p).map(([k, sub]) =>
    fc
      .oneof({ weight: 6, arbitrary: fieldValue(sub) }, { weight: 1, arbitrary: fc.constant(OMIT) })
      .map((v) => [k, v] as const),
  );
  return fc
    .tuple(fc.tuple(...fields), objectOf(leaf))
    .map(
      ([entries, extra]) =>
        ({ ...extra, ...Object.fromEntries(entries.filter(([, v]) => v !== OMIT)) }) as { [k: string]: JsonTree },
    );
}
