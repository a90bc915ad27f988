// anything-but: a present leaf that is not excluded; values (strings, numbers) or a string matcher negated.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: anything-but');
const but = (x: unknown) => ({ s: [{ 'anything-but': x }] });

test('one value or a list of values', () => {
  matches(but('stopped'), { s: 'started' });
  misses(but('stopped'), { s: 'stopped' });
  misses(but(['stopped', 'started']), { s: 'started' });
  matches(but(['stopped', 'started']), { s: 'initializing' });
  misses(but(['tim', 'time', 'timed']), { s: 'time' });
  matches(but(['foot']), { s: 'foo' });
});

test('numbers by value; a number is never excluded by a string or the other way', () => {
  misses('{"s":[{"anything-but":[100,200,3e2]}]}', '{"s":300.0}');
  matches(but([100, 200, 300]), { s: 120 });
  matches(but([111, 222]), { s: '111' });
  matches(but('111'), { s: 111 });
});

test('never matches an absent field (nor one with no leaf)', () => {
  misses(but('x'), {});
  misses(but('x'), { s: [] });
  misses(but('x'), { s: { t: 'y' } });
  misses(but({ prefix: 'x' }), {});
});

test('other leaves are "anything but": true, false, null', () => {
  matches(but('x'), { s: null });
  matches(but(1), { s: true });
});

test('arrays: some element is not excluded', () => {
  matches(but('initializing'), { s: ['initializing', 'running'] });
  misses(but('initializing'), { s: ['initializing', 'initializing'] });
});

test('OR of two anything-but: one of them is enough', () => {
  matches({ s: [{ 'anything-but': 'a' }, { 'anything-but': 'b' }] }, { s: 'b' });
});

test('anything-but prefix / suffix / wildcard / equals-ignore-case', () => {
  misses(but({ prefix: 'init' }), { s: 'initializing' });
  matches(but({ prefix: 'init' }), { s: 'running' });
  misses(but({ suffix: '.tmp' }), { s: 'a.tmp' });
  matches(but({ suffix: ['.tmp', '~'] }), { s: 'a.txt' });
  misses(but({ suffix: ['.tmp', '~'] }), { s: 'a~' });
  misses(but({ wildcard: '*/tmp/*' }), { s: '/var/tmp/x' });
  matches(but({ wildcard: '*/tmp/*' }), { s: '/var/log/x' });
  misses(but({ 'equals-ignore-case': 'Stopped' }), { s: 'STOPPED' });
  matches(but({ 'equals-ignore-case': ['a', 'b'] }), { s: 'C' });
});

test('a negated string matcher lets non-strings through (they do not start with anything)', () => {
  matches(but({ prefix: '1' }), { s: 123 });
  matches(but({ wildcard: '*' }), { s: null });
  misses(but({ wildcard: '*' }), { s: '' });
});

test.run();
