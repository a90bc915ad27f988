// Specified values: exact, case-sensitive strings; numbers by value, never equal to strings; true, false, null.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: specified values');

test('strings are exact and case-sensitive, not normalised', () => {
  matches({ source: ['acs.ecs'] }, { source: 'acs.ecs' });
  misses({ source: ['acs.ecs'] }, { source: 'ACS.ECS' });
  misses({ source: ['acs.ecs'] }, { source: 'acs.ecs ' });
  misses({ s: ['é'] }, { s: 'e\u0301' }); // NFC vs NFD: no normalisation
});

test('several values in one array combine with OR, several keys with AND', () => {
  matches({ a: ['x', 'y'], b: [1, 2] }, { a: 'y', b: 2 });
  misses({ a: ['x', 'y'], b: [1, 2] }, { a: 'y', b: 3 });
  misses({ a: ['x'], b: [1] }, { a: 'x' });
});

test('numbers compare by value whatever the notation: 300 = 300.0 = 3.0e2 = 30E+1', () => {
  for (const p of ['300', '300.0', '3.0e2', '30E+1', '3000e-1'])
    for (const e of ['300', '300.0', '3e2', '0.3e3']) matches(`{"n":[${p}]}`, `{"n":${e}}`);
  matches('{"n":[0]}', '{"n":-0.0}');
  misses('{"n":[300]}', '{"n":300.0000001}');
  misses('{"x":[27.807807921694092]}', '{"x":27.80780792169409}');
});

test('a number never equals a string, either way', () => {
  misses('{"n":[300]}', '{"n":"300"}');
  misses('{"n":["300"]}', '{"n":300}');
  misses('{"b":[true]}', '{"b":"true"}');
  misses('{"z":[null]}', '{"z":"null"}');
});

test('true, false and null are literals of their own', () => {
  matches({ b: [true] }, { b: true });
  misses({ b: [true] }, { b: false });
  matches({ b: [false] }, { b: false });
  misses({ b: [false] }, { b: null });
  matches({ z: [null] }, { z: null });
  misses({ z: [null] }, {});
  misses({ z: [null] }, { z: [] });
  misses({ z: [0] }, { z: false });
});

test('the empty string is a value: it matches only the empty string', () => {
  matches({ s: [''] }, { s: '' });
  misses({ s: [''] }, { s: ' ' });
  misses({ s: [''] }, {});
  misses({ s: [''] }, { s: null });
});

test('an array value matches when it shares one element with the pattern array', () => {
  matches({ ids: ['i3', 'i9'] }, { ids: ['i1', 'i3'] });
  misses({ ids: ['i3', 'i9'] }, { ids: ['i1', 'i2'] });
  matches({ n: [3] }, { n: [[1], [2, [3.0]]] });
  misses({ n: [3] }, { n: [] });
  misses({ n: [3] }, { n: [{ x: 3 }] });
});

test('an object never equals a literal', () => {
  misses({ a: ['x'] }, { a: { b: 'x' } });
});

test.run();
