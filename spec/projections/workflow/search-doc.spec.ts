import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { orderedText, searchDocOf, searchIndexes } from '../../../projections/workflow/search-doc.ts';
import type { TaskDoc } from '../../../projections/workflow/task-doc.ts';

// The search document of a task and the text twins that let the read store compare numbers exactly in SQL.

test('the text twin of a number orders as the number does', () => {
  fc.assert(
    fc.property(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      (a, b) => {
        const x = orderedText(a)!;
        const y = orderedText(b)!;
        const numeric = a < b ? -1 : a > b ? 1 : 0;
        const text = x < y ? -1 : x > y ? 1 : 0;
        return numeric === text;
      },
    ),
  );
  assert.is(orderedText(0), orderedText(-0));
  assert.is(orderedText(Number.NaN), null);
  assert.is(orderedText('12'), null);
  assert.is(orderedText(true), 'true');
});

test('a task document: the minimum fields, typed business fields, the meta fields', () => {
  const task: TaskDoc = {
    id: 'r.t2',
    instanceId: 'r',
    rootInstanceId: 'r',
    processDefinitionId: 'k:1:x',
    processKey: 'k',
    version: 1,
    businessKey: 'bk',
    taskDefinitionKey: 'review',
    name: 'Review',
    status: 'ASSIGNED',
    assignee: 'kermit',
    owner: null,
    candidateUsers: [],
    candidateGroups: [],
    priority: 50,
    dueDate: null,
    followUpDate: null,
    formKey: null,
    description: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    claimedAt: null,
    completedAt: null,
    canceledAt: null,
    completedBy: null,
    duration: null,
    queryVariables: { TaskType: 'claim', Amount: '12.5', Open: 'true', When: '2026-03-02', Region: 'EU' },
    index: 'claims',
    pos: '1',
  };
  const doc = searchDocOf(
    task,
    [
      { name: 'Amount', type: 'number', includeAll: false },
      { name: 'Open', type: 'boolean', includeAll: false },
      { name: 'When', type: 'date', includeAll: false },
      { name: 'Region', type: 'string', includeAll: true },
      { name: 'Missing', type: 'number', includeAll: false },
    ],
    'acme',
    '2026-03-01T10:00:01.000Z',
  );
  assert.equal(
    [doc.Amount, doc.Open, doc.When, doc.Region, doc.Missing],
    [12.5, true, '2026-03-02T00:00:00.000', 'EU', null],
  );
  assert.equal(
    [doc.TaskType, doc.WorkflowBusinessKey, doc.Priority, doc.ProcessDefinitionVersion, doc.CreatedDate],
    ['claim', 'bk', '50', '1', '2026-03-01T10:00:00.000'],
  );
  assert.equal(
    [doc.entity_id, doc.entity_type, doc.id, doc.tenant_code, doc.index_time, doc.index_timestamp],
    ['r.t2', 'task', 'r.t2', 'acme', '2026-03-01T10:00:01.000', Date.parse('2026-03-01T10:00:01.000Z')],
  );
  assert.is(doc.Amount__k, orderedText(12.5));
  assert.match(doc._all, /\beu\b/);
  assert.not.match(doc._all, /2026-03-02/);
  assert.ok(
    searchIndexes([{ name: 'Amount', type: 'number', includeAll: false }]).some((i) => 'Amount__k' in i.fields),
  );
});

test.run();
