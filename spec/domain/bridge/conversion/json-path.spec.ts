import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkJsonPath, queryPath } from '../../../../domain/bridge/conversion/index.ts';
import { event } from './fixtures.ts';

test('one match is that value, an array value stays one value', () => {
  assert.equal(queryPath(event, '$.data.job'), { status: 'found', value: 'nightly-settlement' });
  assert.equal(queryPath(event, '$.data.tags'), { status: 'found', value: ['a', 'b'] });
  assert.equal(queryPath(event, '$.data.detail'), { status: 'found', value: { step: 'load', codes: [1, 2] } });
  assert.equal(queryPath(event, '$.data.owner'), { status: 'found', value: null });
  assert.equal(queryPath(event, "$['data']['attempts']"), { status: 'found', value: 3 });
});

test('several matches are the array of matches', () => {
  assert.equal(queryPath(event, '$.data.items[*].id'), { status: 'found', value: [1, 2] });
});

test('no match is none (an empty array value is still a match)', () => {
  assert.equal(queryPath(event, '$.data.nothing'), { status: 'none' });
  assert.equal(queryPath(event, '$.data.job.deeper'), { status: 'none' });
  assert.equal(queryPath(event, '$.data.empty'), { status: 'found', value: [] });
});

test('bad paths are invalid, never thrown', () => {
  for (const p of [
    'data.job',
    '',
    '$.data[',
    '$.data.items[?(@.id==1)]',
    '$.data.items[(@.length-1)]',
    `$.${'a'.repeat(600)}`,
  ]) {
    const r = queryPath(event, p);
    assert.is(r.status, 'invalid', p);
    assert.ok(checkJsonPath(p) !== null, p);
  }
  assert.is(checkJsonPath('$.data.job'), null);
  assert.is(checkJsonPath('$'), null);
  assert.is(checkJsonPath(42), 'must be a JSONPath string starting with $');
});

test.run();
