import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pagingOf, type QueryRequest, recordQueryOf } from '../../../domain/audit/query.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';

const test = suite('audit query rules');
const base: QueryRequest = {
  module_name: 'policy',
  transaction_name: 'create',
  start_time: '2026-03-01T00:00:00.000Z',
  end_time: '2026-03-02T00:00:00.000Z',
};

const throws = (fn: () => unknown, code: string, field: string) => {
  try {
    fn();
    assert.unreachable(code);
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.ok(isDomainError(err));
    assert.is(err.code, code);
    assert.is(err.status, 400);
    assert.ok(
      (err.details as Array<{ field: string }>).some((d) => d.field === field),
      JSON.stringify(err.details),
    );
  }
};

test('times are normalized to UTC milliseconds; start must be before end', () => {
  const q = recordQueryOf({ ...base, start_time: '2026-03-01T01:00:00+01:00', end_time: '2026-03-01T00:00:00.5Z' });
  assert.is(q.start, '2026-03-01T00:00:00.000Z');
  assert.is(q.end, '2026-03-01T00:00:00.500Z');
  throws(() => recordQueryOf({ ...base, end_time: base.start_time }), 'AUDIT_QUERY.INVALID', 'end_time');
  throws(() => recordQueryOf({ ...base, start_time: '2026-03-03T00:00:00.000Z' }), 'AUDIT_QUERY.INVALID', 'end_time');
  throws(() => recordQueryOf({ ...base, start_time: 'yesterday' }), 'AUDIT_QUERY.INVALID', 'start_time');
});

test('optional filters are kept, empty tags dropped', () => {
  const q = recordQueryOf({ ...base, business_code: 'PolicyNo:1', tags: [], trace_id: 't' });
  assert.equal([q.business_code, q.tags, q.trace_id], ['PolicyNo:1', undefined, 't']);
});

test('paging: exactly one of page_num and scroll_id; page mode stops at 10,000 records', () => {
  assert.equal(pagingOf({ ...base, page_num: 1 }), { mode: 'page', page_num: 1, return_size: 20 });
  assert.equal(pagingOf({ ...base, scroll_id: '', return_size: 1000 }), {
    mode: 'scroll',
    scroll_id: '',
    return_size: 1000,
  });
  throws(() => pagingOf({ ...base, page_num: 1, scroll_id: '' }), 'AUDIT_QUERY.INVALID', 'scroll_id');
  throws(() => pagingOf({ ...base }), 'AUDIT_QUERY.INVALID', 'page_num');
  assert.equal(pagingOf({ ...base, page_num: 500, return_size: 20 }), { mode: 'page', page_num: 500, return_size: 20 });
  throws(() => pagingOf({ ...base, page_num: 501, return_size: 20 }), 'AUDIT_QUERY.PAGE_TOO_DEEP', 'page_num');
  throws(() => pagingOf({ ...base, page_num: 11, return_size: 1000 }), 'AUDIT_QUERY.PAGE_TOO_DEEP', 'page_num');
});

test.run();
