// The segment tree of numeric ranges answers exactly what testing every range would.
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildNumericIntervals } from '../../../../domain/bridge/pattern/numeric.intervals.ts';
import type { NumericMatcher } from '../../../../domain/bridge/pattern/pattern.types.ts';

const test = suite('numeric intervals');
const point = fc.constantFrom(-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 1e9);
const bound = fc.option(fc.record({ value: point, inclusive: fc.boolean() }), { nil: undefined });
const range = fc
  .tuple(bound, bound)
  .map(
    ([lower, upper]): NumericMatcher => ({ kind: 'numeric', ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) }),
  );
const holds = (r: NumericMatcher, x: number) =>
  (!r.lower || (r.lower.inclusive ? x >= r.lower.value : x > r.lower.value)) &&
  (!r.upper || (r.upper.inclusive ? x <= r.upper.value : x < r.upper.value));

test('stabbing query == every range tested', () => {
  fc.assert(
    fc.property(
      fc.array(range, { maxLength: 30 }),
      fc.array(fc.oneof(point, fc.double({ noNaN: true, noDefaultInfinity: true })), { maxLength: 10 }),
      (ranges, xs) => {
        const index = buildNumericIntervals(ranges.map((r, i) => ({ range: r, target: i })));
        for (const x of xs) {
          const got: number[] = [];
          index.collect(x, (t) => got.push(t));
          const want = ranges.flatMap((r, i) => (holds(r, x) ? [i] : []));
          assert.equal(
            got.sort((a, b) => a - b),
            want,
            `x=${x} ranges=${JSON.stringify(ranges)}`,
          );
        }
      },
    ),
    { seed: 11, numRuns: 500 },
  );
});

test('no range, one unbounded range', () => {
  const none = buildNumericIntervals<number>([]);
  none.collect(1, () => assert.unreachable());
  const all = buildNumericIntervals([{ range: { kind: 'numeric' }, target: 'x' }]);
  const hits: string[] = [];
  all.collect(-1e300, (t) => hits.push(t));
  assert.equal(hits, ['x']);
});

test.run();
