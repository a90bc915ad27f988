import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createOwnCommits } from '../../../infra/sqlite/event-store.own-commits.ts';

const committed = (...ranges: Array<[number, number, string, string[]?]>) => {
  const own = createOwnCommits();
  for (const [first, last, category, types] of ranges) own.stage(first, last, category, types ?? ['Recorded'], 0);
  own.commit();
  return own;
};

test('contiguous own commits outside the filter: the reader moves to the last; nothing after it: stays', () => {
  const own = committed([11, 12, 'audit'], [13, 13, 'audit']);
  assert.is(own.skipTo(10, { categories: ['rule'] }), 13);
  assert.is(own.skipTo(12, { categories: ['rule'] }), 13);
  assert.is(own.skipTo(13, { categories: ['rule'] }), 13);
});

test('the reader must read: a wanted commit, a gap, a commit it is inside of, forgotten commits, no filter', () => {
  assert.is(committed([11, 12, 'audit'], [13, 13, 'rule']).skipTo(10, { categories: ['rule'] }), undefined);
  assert.is(committed([11, 12, 'audit'], [14, 14, 'audit']).skipTo(10, { categories: ['rule'] }), undefined);
  assert.is(committed([11, 14, 'audit']).skipTo(12, { categories: ['rule'] }), undefined);
  assert.is(committed([20, 21, 'audit']).skipTo(10, { categories: ['rule'] }), undefined);
  assert.is(committed([11, 12, 'audit']).skipTo(10, undefined), undefined);
  assert.is(committed([11, 12, 'audit']).skipTo(10, { categories: [] }), undefined);
});

test('event types count: a wanted type in an unfiltered category is read, other types are passed over', () => {
  const own = committed([11, 12, 'audit', ['Recorded', 'Purged']]);
  assert.is(own.skipTo(10, { eventTypes: ['Purged'] }), undefined);
  assert.is(own.skipTo(10, { eventTypes: ['RuleCreated'] }), 12);
  assert.is(own.skipTo(10, { categories: ['audit'], eventTypes: ['RuleCreated'] }), 12);
});

test('a rolled-back transaction leaves nothing; old commits are forgotten (at least the newest 256 are kept)', () => {
  const own = createOwnCommits();
  own.stage(11, 11, 'audit', ['Recorded'], 0);
  own.discard();
  own.commit();
  assert.is(own.skipTo(10, { categories: ['rule'] }), 10);
  for (let p = 11; p <= 1010; p++) {
    own.stage(p, p, 'audit', ['Recorded'], 0);
    own.commit();
  }
  assert.is(own.skipTo(10, { categories: ['rule'] }), undefined, 'the first commits after 10 are forgotten');
  assert.is(own.skipTo(1010 - 256, { categories: ['rule'] }), 1010);
});

test.run();
