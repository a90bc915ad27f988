// exists: only leaves count. false matches an absent field, an empty array and a key holding an object.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: exists');
const yes = { a: [{ exists: true }] };
const no = { a: [{ exists: false }] };

test('a leaf exists, null and the empty string included', () => {
  for (const v of ['x', '', 0, false, null, ['x'], [[1]], [{ b: 1 }, 2]]) {
    matches(yes, { a: v });
    misses(no, { a: v });
  }
});

test('absent, an empty array, an object, an array of objects only: no leaf', () => {
  for (const event of [{}, { a: [] }, { a: [[]] }, { a: { b: 'x' } }, { a: [{ b: 'x' }] }, { b: 'x' }]) {
    misses(yes, event);
    matches(no, event);
  }
});

test('nested: exists:false on a path whose parent is absent, a leaf or an object', () => {
  const p = { detail: { state: [{ exists: false }] } };
  matches(p, {});
  matches(p, { detail: 'x' });
  matches(p, { detail: { other: 1 } });
  misses(p, { detail: { state: 'up' } });
  matches({ detail: { 'c-count': [{ exists: false }] }, 'd-count': [{ exists: false }] }, {});
});

test('exists:false with other keys: AND', () => {
  matches({ foo: ['a'], bar: [{ exists: false }] }, { foo: 'a' });
  misses({ foo: ['b'], bar: [{ exists: false }] }, { foo: 'a' });
  misses({ foo: ['a'], bar: [{ exists: false }] }, { foo: 'a', bar: '1' });
});

test('exists combined with values in one array: OR', () => {
  const p = { bar: [{ exists: false }, '1'] };
  matches(p, {});
  matches(p, { bar: '1' });
  misses(p, { bar: '2' });
  matches({ bar: [{ exists: true }, '1'] }, { bar: '2' });
  matches({ bar: [{ exists: true }, { exists: false }] }, {});
});

test.run();
