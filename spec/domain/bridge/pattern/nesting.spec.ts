// A pattern mirrors the event's nesting; a dotted key is a literal key name, never a path.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: nesting and key names');

test('nested objects mirror the event', () => {
  matches({ data: { risk: { score: [80] } } }, { data: { risk: { score: 80 }, other: 1 } });
  misses({ data: { 'risk-score': [80], trigger: { risk: [8] } } }, { data: { 'risk-score': 80, risk: 8 } });
});

test('a dotted key is one key', () => {
  matches({ 'a.b': ['x'] }, { 'a.b': 'x' });
  misses({ 'a.b': ['x'] }, { a: { b: 'x' } });
  misses({ a: { b: ['x'] } }, { 'a.b': 'x' });
  matches({ detail: { 'c.count': [{ numeric: ['>', 0, '<=', 5] }] } }, { detail: { 'c.count': 5 } });
});

test('a nested pattern against a leaf or a missing parent', () => {
  misses({ a: { b: ['x'] } }, { a: 'x' });
  misses({ a: { b: ['x'] } }, {});
  matches({ a: { b: [{ exists: false }] } }, { a: 'x' });
});

test('a leaf pattern against an object', () => {
  misses({ a: [{ prefix: '' }] }, { a: { b: 'x' } });
});

test('keys that look like JavaScript internals are plain keys', () => {
  matches(JSON.parse('{"__proto__":["x"]}'), JSON.parse('{"__proto__":"x"}'));
  misses({ constructor: [{ exists: true }] }, {});
  misses({ toString: [{ exists: true }] }, {});
  matches({ hasOwnProperty: ['y'] }, { hasOwnProperty: 'y' });
});

test('non-JSON values in an event count as absent', () => {
  matches({ a: [{ exists: false }] }, { a: undefined });
  matches({ a: [{ exists: false }] }, { a: Number.NaN });
  misses({ a: [{ exists: true }] }, { a: () => 1 });
});

test('an event that is not an object matches only absence', () => {
  matches({ a: [{ exists: false }] }, '"text"'); // JSON text of a string event
  misses({ a: ['text'] }, '"text"');
  misses({ a: [{ exists: true }] }, null);
});

test.run();
