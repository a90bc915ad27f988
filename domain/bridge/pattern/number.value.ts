/**
 * Numbers compare by value. Events and patterns reach the domain decoded (JSON.parse), so a JSON number is an
 * IEEE-754 double: 300, 300.0 and 3.0e2 are the same double, and two literals that round to different doubles
 * differ (the numeric matchers of event-ruler compare doubles too). A number never equals a string: "300" is text.
 */

/** A JSON number: finite (NaN and the infinities are not JSON). */
export const isJsonNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The canonical decimal form of a number's value: ECMAScript's shortest round-trip text, which is unique per
 * double (so 300, 300.0 and 3e2 all give "300"); -0 gives "0" because -0 = 0.
 */
export const canonicalNumber = (n: number): string => (n === 0 ? '0' : String(n));

const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * The canonical form of a JSON number literal, exactly, before any rounding to a double: sign, significant digits
 * without leading or trailing zeros, and a decimal exponent ("300", "300.0", "3.0e2", "3E+2" all give "3e2";
 * "-0.0" gives "0"). For callers that hold raw JSON text; undefined when the text is not a JSON number.
 */
export function canonicalDecimal(text: string): string | undefined {
  const m = JSON_NUMBER.exec(text);
  if (!m) return undefined;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  let digits = (int + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = Number(exp) - frac.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return `${sign}${digits}${exponent === 0 ? '' : `e${exponent}`}`;
}
