// numeric: JSON numbers only, operators < <= = > >=, one or two pairs; doubles compared by value.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: numeric');
const num = (...pairs: Array<string | number>) => ({ n: [{ numeric: pairs }] });

test('each operator', () => {
  matches(num('<', 120), { n: 119 });
  misses(num('<', 120), { n: 120 });
  matches(num('<=', 120), { n: 120 });
  misses(num('<=', 120), { n: 120.0001 });
  matches(num('=', 120), { n: 120 });
  misses(num('=', 120), { n: 120.5 });
  matches(num('>', 120), { n: 122 });
  misses(num('>', 120), { n: 120 });
  matches(num('>=', 120), { n: 120 });
  misses(num('>=', 120), { n: 119.999 });
});

test('two pairs: both hold, in either order, bounds open or closed', () => {
  matches(num('>', 0, '<=', 5), { n: 5 });
  misses(num('>', 0, '<=', 5), { n: 0 });
  matches(num('<', 4e-6, '>', 2e-6), { n: 3e-6 });
  misses(num('>', 2e-6, '<', 4e-6), { n: 4e-6 });
  matches(num('>=', 2e-6, '<=', 4e-6), { n: 4e-6 });
  misses(num('>=', 0, '<', 1e9), { n: 1e9 });
});

test('= compares doubles exactly and ignores notation', () => {
  matches('{"n":[{"numeric":["=",3.0e2]}]}', '{"n":300.000}');
  misses(num('=', 1.1234567), { n: 1.12345678 });
  matches(num('=', 0), { n: -0 });
});

test('matches only JSON numbers: not numeric strings, booleans or null', () => {
  misses(num('>', 0, '<=', 5), { n: '3' });
  misses(num('>', 0, '<=', 5), { n: '10.0.1.200' });
  misses(num('>=', 0), { n: true });
  misses(num('>=', 0), { n: null });
  misses(num('>=', 0), {});
});

test('arrays: any element in range', () => {
  matches(num('>', 10), { n: [1, 2, 30] });
  misses(num('>', 10), { n: [1, 2, 3] });
  matches(num('>', 0, '<', 1), { n: [[0.5]] });
});

test('OR of several numeric matchers, AND with other keys', () => {
  const p = { m: ['abc'], x: [{ numeric: ['>', 0, '<', 30] }, { numeric: ['>', 100, '<', 120] }] };
  matches(p, { m: 'abc', x: 23 });
  matches(p, { m: 'abc', x: 110 });
  misses(p, { m: 'abc', x: 50 });
  misses(p, { m: 'abd', x: 23 });
});

test('large and tiny magnitudes', () => {
  matches(num('>', 1e21), { n: 1e22 });
  matches(num('<', -1e300), { n: -1e301 });
  matches(num('>', 0, '<', 1e-300), { n: 1e-301 });
});

test.run();
