// Numbers as values: canonical forms equal for 300, 300.0 and 3.0e2; never the string "300".
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { leafKey } from '../../../../domain/bridge/pattern/leaf.key.ts';
import { canonicalDecimal, canonicalNumber, isJsonNumber } from '../../../../domain/bridge/pattern/number.value.ts';

const test = suite('numbers as values');

test('canonicalNumber: one text per double', () => {
  for (const t of ['300', '300.0', '3.0e2', '3E+2', '30e1', '3000e-1'])
    assert.is(canonicalNumber(JSON.parse(t) as number), '300');
  assert.is(canonicalNumber(-0), '0');
  assert.is(canonicalNumber(1e21), '1e+21');
  assert.is.not(canonicalNumber(27.807807921694092), canonicalNumber(27.80780792169409));
});

test('canonicalDecimal: the exact value of the literal, without rounding to a double', () => {
  for (const t of ['300', '300.0', '3.0e2', '3E+2', '30e1', '3000e-1', '0.03e4']) assert.is(canonicalDecimal(t), '3e2');
  assert.is(canonicalDecimal('-0.0'), '0');
  assert.is(canonicalDecimal('0'), '0');
  assert.is(canonicalDecimal('-1.50'), '-15e-1');
  assert.is(canonicalDecimal('12345678901234567890123'), '12345678901234567890123');
  assert.is.not(canonicalDecimal('9007199254740993'), canonicalDecimal('9007199254740992'));
  for (const bad of ['', '01', '1.', '.5', '+1', '1e', 'NaN', '0x10', ' 1'])
    assert.is(canonicalDecimal(bad), undefined, bad);
});

test('canonicalDecimal is equal exactly when the decimal values are equal (scaled integers)', () => {
  const literal = fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: -4, max: 4 }), fc.nat({ max: 3 }))
    .map(([neg, digits, exp, pad]) => ({
      text: `${neg && digits !== 0 ? '-' : ''}${digits}${'0'.repeat(pad)}e${exp - pad}`,
      value: (neg && digits !== 0 ? -1 : 1) * digits,
      exp,
    }));
  fc.assert(
    fc.property(literal, literal, (a, b) => {
      // a.value * 10^a.exp vs b.value * 10^b.exp, compared on integers scaled to a common exponent
      const lo = Math.min(a.exp, b.exp);
      const same = BigInt(a.value) * 10n ** BigInt(a.exp - lo) === BigInt(b.value) * 10n ** BigInt(b.exp - lo);
      assert.is(canonicalDecimal(a.text) === canonicalDecimal(b.text), same, `${a.text} vs ${b.text}`);
    }),
    { seed: 3, numRuns: 500 },
  );
});

test('leafKey keeps the JSON types apart', () => {
  assert.is.not(leafKey(300), leafKey('300'));
  assert.is.not(leafKey(true), leafKey('true'));
  assert.is.not(leafKey(null), leafKey('null'));
  assert.is(leafKey(300), leafKey(3e2));
});

test('isJsonNumber: finite numbers only', () => {
  assert.ok(isJsonNumber(0));
  assert.not.ok(isJsonNumber(Number.NaN));
  assert.not.ok(isJsonNumber(Number.POSITIVE_INFINITY));
  assert.not.ok(isJsonNumber('1'));
});

test.run();
