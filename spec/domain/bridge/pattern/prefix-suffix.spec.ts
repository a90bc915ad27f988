// prefix and suffix: strings only, compared as sequences of code points.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: prefix and suffix');

test('prefix', () => {
  matches({ time: [{ prefix: '2020-08-17' }] }, { time: '2020-08-17T18:23:00' });
  misses({ time: [{ prefix: '2020-08-17' }] }, { time: '2020-08-18T18:23:00' });
  matches({ a: [{ prefix: 'zoo' }] }, { a: 'zoo' });
  misses({ a: [{ prefix: 'zoo' }] }, { a: 'zo' });
  misses({ a: [{ prefix: 'Zoo' }] }, { a: 'zookeeper' });
});

test('suffix', () => {
  matches({ key: [{ suffix: '.csv' }, { suffix: '.CSV' }] }, { key: 'report.CSV' });
  misses({ key: [{ suffix: '.csv' }] }, { key: 'report.csv.gz' });
  matches({ w: [{ suffix: '统治者' }] }, { w: '事件统治者' });
});

test('prefix and suffix never match non-strings', () => {
  misses({ n: [{ prefix: '3' }] }, { n: 300 });
  misses({ n: [{ suffix: '0' }] }, { n: 300 });
  misses({ b: [{ prefix: 't' }] }, { b: true });
  misses({ z: [{ prefix: 'n' }] }, { z: null });
});

test('the empty prefix or suffix matches every string, and only strings', () => {
  matches({ s: [{ prefix: '' }] }, { s: '' });
  matches({ s: [{ suffix: '' }] }, { s: 'x' });
  misses({ s: [{ prefix: '' }] }, { s: 0 });
  misses({ s: [{ prefix: '' }] }, {});
});

test('code points: an emoji is one character, never half of one', () => {
  matches({ s: [{ prefix: '😀' }] }, { s: '😀!' });
  misses({ s: [{ prefix: '\ud83d' }] }, { s: '😀' }); // a lone high surrogate is not a prefix of the pair
  misses({ s: [{ suffix: '\ude00' }] }, { s: '😀' });
});

test('arrays: any element', () => {
  matches({ s: [{ prefix: 'ab' }] }, { s: ['x', 'abc'] });
  misses({ s: [{ prefix: 'ab' }] }, { s: ['x', 'a'] });
});

test.run();
