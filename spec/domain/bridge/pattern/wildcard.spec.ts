// wildcard: * any run, ? exactly one character (not literal as in AWS), \* \? \\ escapes; strings only.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: wildcard');
const w = (s: string) => ({ x: [{ wildcard: s }] });

test('* is any run of characters, the empty run included', () => {
  matches(w('*'), { x: '' });
  matches(w('he*o'), { x: 'heo' });
  matches(w('he*o'), { x: 'hello' });
  misses(w('he*o'), { x: 'hellox' });
  matches(w('*BSC_*.csv'), { x: 'BSC_report.csv' });
  matches(w('h*l*o'), { x: 'hlo' });
  misses(w('h*l*o'), { x: 'hexxo' });
  matches(w('*'), { x: 'line\nbreak' });
});

test('? is exactly one character (a code point), never zero and never two', () => {
  matches(w('h?llo'), { x: 'hello' });
  misses(w('h?llo'), { x: 'hllo' });
  misses(w('h?llo'), { x: 'heello' });
  matches(w('h?llo'), { x: 'h😀llo' });
  matches(w('??'), { x: 'é😀' });
  misses(w('??'), { x: '😀' });
});

test('? is a wildcard here, not a literal question mark as in AWS', () => {
  matches(w('what?'), { x: 'whats' });
  matches(w('what\\?'), { x: 'what?' });
  misses(w('what\\?'), { x: 'whats' });
});

test('escapes: \\* and \\? and \\\\ stand for themselves', () => {
  matches(w('he\\**o'), { x: 'he*llo' });
  misses(w('he\\**o'), { x: 'hello' });
  matches(w('he\\\\*llo'), { x: 'he\\xxllo' });
  matches(w('he\\\\\\*llo'), { x: 'he\\*llo' });
  misses(w('he\\\\\\*llo'), { x: 'he\\\\llo' });
});

test('*? and ?* are allowed: at least one character', () => {
  matches(w('a*?'), { x: 'ab' });
  misses(w('a*?'), { x: 'a' });
  matches(w('?*b'), { x: 'xb' });
  misses(w('?*b'), { x: 'b' });
});

test('never matches non-strings', () => {
  misses(w('*'), { x: 1 });
  misses(w('*'), { x: true });
  misses(w('*'), { x: null });
  misses(w('*'), {});
  misses(w('*'), { x: { y: 'a' } });
});

test('arrays: any element', () => {
  matches(w('*.log'), { x: ['a.txt', 'b.log'] });
  misses(w('*.log'), { x: ['a.txt', 'b.lo'] });
});

test.run();
