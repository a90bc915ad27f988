// The Audit area's logic apart from React: the query in the URL's search parameters, the body it makes,
// the numbered pages offered, and a record's data as shown.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pretty } from '../src/areas/audit/record-text.ts';
import { isComplete, pageWindow, recordsSearchOf, selectionOf, tagsOf } from '../src/areas/audit/records-search.ts';

const test = suite('the Audit area: query, pages, record text');

test('the search parameters: known fields kept, others and bad values dropped, sizes bounded', () => {
  const s = recordsSearchOf({
    module_name: 'policy',
    transaction_name: 'createPolicy',
    start_time: '2026-01-01T00:00:00.000Z',
    end_time: '',
    return_size: '5000',
    page: '0',
    mode: 'sideways',
    tenant: 'demo',
    other: 'x',
  });
  assert.equal(s, {
    module_name: 'policy',
    transaction_name: 'createPolicy',
    start_time: '2026-01-01T00:00:00.000Z',
    return_size: 1000,
  });
  assert.is(isComplete(s), false, 'no end_time: nothing is queried');
  assert.equal(recordsSearchOf({ page: '3', mode: 'scroll', return_size: 20 }), {
    page: 3,
    mode: 'scroll',
    return_size: 20,
  });
});

test("the query's body: the API's names, optional fields only when given, tags split", () => {
  const body = selectionOf({
    module_name: 'm',
    transaction_name: 't',
    start_time: 'a',
    end_time: 'b',
    tags: ' web, ,eu ',
    warning_type: 'WARN',
    page: 2,
    mode: 'page',
  });
  assert.equal(body, {
    module_name: 'm',
    transaction_name: 't',
    start_time: 'a',
    end_time: 'b',
    warning_type: 'WARN',
    tags: ['web', 'eu'],
  });
  assert.equal(tagsOf(undefined), []);
  assert.not.ok('tags' in selectionOf({ tags: ' , ' }));
});

test('the numbered pages: first, last and two either side of the current one, gaps between', () => {
  assert.equal(pageWindow(1, 1), [1]);
  assert.equal(pageWindow(1, 5), [1, 2, 3, 'gap', 5]);
  assert.equal(pageWindow(6, 12), [1, 'gap', 4, 5, 6, 7, 8, 'gap', 12]);
  assert.equal(pageWindow(12, 12), [1, 'gap', 10, 11, 12]);
  assert.equal(pageWindow(3, 5), [1, 2, 3, 4, 5]);
});

test("a record's data: JSON text indented, other text as it is, empty said so", () => {
  assert.is(pretty('{"a":1,"b":[2]}'), '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
  assert.is(pretty('not json'), 'not json');
  assert.is(pretty(''), '(empty)');
});

test.run();
