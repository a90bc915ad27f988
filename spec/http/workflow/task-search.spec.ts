import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE, sequenceXml, startWorkflowPlatform, type WorkflowPlatform } from './workflow-harness.ts';

// Task search over configurable indexes: the spec's search condition (exact, fuzzy, ranges, paging,
// sorting, grouping) and result shape, index schemas as configuration, and an index rebuild while
// searches keep answering from the old generation.

type Ctx = { p: WorkflowPlatform; taskIds: string[] };
const test = suite<Ctx>('workflow task search and index schemas', {} as Ctx);

const CLAIMS = [
  { bk: 'c-1', Amount: 120, Region: 'eu', Opened: '2026-01-10', Extra: 'x' },
  { bk: 'c-2', Amount: 480, Region: 'eu', Opened: '2026-02-10', Extra: 'y' },
  { bk: 'c-3', Amount: 900, Region: 'eu', Opened: '2026-03-10', Extra: 'x' },
  { bk: 'c-4', Amount: 300, Region: 'us', Opened: '2026-01-20', Extra: 'x' },
  { bk: 'c-5', Amount: 50, Region: 'apac', Opened: '2026-04-01', Extra: 'z' },
];

test.before(async (ctx) => {
  const p = (ctx.p = await startWorkflowPlatform({ enable: ['acme'] }));
  const schema = await p.call('PUT', `${BASE}/admin/index-schemas/claims`, {
    tenant: 'acme',
    body: {
      fields: [
        { name: 'Amount', type: 'number' },
        { name: 'Region', type: 'string' },
        { name: 'Opened', type: 'date', includeAll: false },
      ],
    },
  });
  assert.is(schema.status, 200, JSON.stringify(schema.body));
  assert.is(schema.body.revision, 1);
  assert.is(
    (
      await p.deploy('acme', [
        { name: 'claim.bpmn', xml: sequenceXml('claim', ['reviewClaim'], { assignee: 'kermit' }) },
      ])
    ).status,
    201,
  );
  ctx.taskIds = [];
  for (const c of CLAIMS) {
    const r = await p.call('POST', `${BASE}/process-instances`, {
      tenant: 'acme',
      body: {
        processDefinitionKey: 'claim',
        indexSchema: 'claims',
        queryVariables: {
          TaskType: 'claimReview',
          WorkflowBusinessKey: c.bk,
          Amount: c.Amount,
          Region: c.Region,
          Opened: c.Opened,
          Extra: c.Extra,
        },
      },
    });
    assert.is(r.status, 200, JSON.stringify(r.body));
    ctx.taskIds.push(r.body.content[0].id);
  }
  await p.settled();
});
test.after(async (ctx) => {
  await ctx.p.stop();
});

const search = (p: WorkflowPlatform, body: Record<string, unknown>) =>
  p.call('POST', `${BASE}/tasks`, { tenant: 'acme', body: { Module: 'claims', ...body } });
const keysOf = (r: { body: any }) =>
  r.body.results.flatMap((g: { esDocs: Array<{ WorkflowBusinessKey: string }> }) =>
    g.esDocs.map((d) => d.WorkflowBusinessKey),
  );

test('exact, range and sort, one page: the result shape', async ({ p }) => {
  const r = await search(p, {
    Conditions: { Region: 'eu', TaskType: 'claimReview' },
    FromRangeConditions: { Amount: 100 },
    ToRangeConditions: { Amount: '500' },
    SortField: 'Amount',
    SortType: 'asc',
    PageNo: 1,
    PageSize: 1,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(
    {
      pageNo: r.body.pageNo,
      pageSize: r.body.pageSize,
      total: r.body.total,
      groupField: r.body.groupField,
      maxPageCount: r.body.maxPageCount,
    },
    { pageNo: 1, pageSize: 1, total: 2, groupField: null, maxPageCount: 2 },
  );
  const doc = r.body.results[0].esDocs[0];
  assert.is(doc.WorkflowBusinessKey, 'c-1');
  assert.is(doc.Amount, 120);
  assert.is(doc.Region, 'eu');
  assert.is(doc.Opened, '2026-01-10T00:00:00.000');
  for (const k of [
    'entity_id',
    'entity_type',
    'id',
    'index_time',
    'index_timestamp',
    'tenant_code',
    'TaskId',
    'Status',
    'Assignee',
    'CreatedDate',
    'ProcessDefinitionId',
    'ProcessInstanceId',
    'TaskDefinitionKey',
    'TaskType',
    'Priority',
    'ProcessDefinitionVersion',
  ]) {
    assert.ok(k in doc, `esDoc has ${k}`);
  }
  assert.equal(
    {
      type: doc.entity_type,
      tenant: doc.tenant_code,
      status: doc.Status,
      assignee: doc.Assignee,
      priority: doc.Priority,
    },
    { type: 'task', tenant: 'acme', status: 'ASSIGNED', assignee: 'kermit', priority: '50' },
  );
  assert.not.ok('Extra' in doc, 'a query variable that is no field of the index is not indexed');
  assert.not.ok('_all' in doc);
  const page2 = await search(p, {
    Conditions: { Region: 'eu' },
    FromRangeConditions: { Amount: 100 },
    ToRangeConditions: { Amount: 500 },
    SortField: 'Amount',
    SortType: 'asc',
    PageNo: 2,
    PageSize: 1,
  });
  assert.equal(keysOf(page2), ['c-2']);
  const dates = await search(p, {
    FromRangeConditions: { Opened: '2026-01-15' },
    ToRangeConditions: { Opened: '2026-03-31T23:59:59' },
    SortField: 'Opened',
    SortType: 'desc',
  });
  assert.equal(keysOf(dates), ['c-3', 'c-2', 'c-4']);
});

test('fuzzy conditions (contains, any case), on a field and on _all (the INCLUDE_ALL fields)', async ({ p }) => {
  assert.equal(
    keysOf(
      await search(p, {
        FuzzyConditions: { WorkflowBusinessKey: 'C-' },
        SortField: 'WorkflowBusinessKey',
        SortType: 'asc',
      }),
    ),
    ['c-1', 'c-2', 'c-3', 'c-4', 'c-5'],
  );
  assert.equal(keysOf(await search(p, { FuzzyConditions: { _all: 'APAC' } })), ['c-5']);
  assert.equal(keysOf(await search(p, { FuzzyConditions: { _all: '2026-04' } })), [], 'Opened is not INCLUDE_ALL');
  assert.equal(keysOf(await search(p, { FuzzyConditions: { TaskName: 'VIEWCL' } })).length, 5);
});

test('grouping: one group per value, with its count, first document and the others', async ({ p }) => {
  const r = await search(p, { GroupField: 'Region', SortField: 'Amount', SortType: 'desc' });
  assert.is(r.body.groupField, 'Region');
  assert.is(r.body.total, 5);
  const groups = r.body.results.map(
    (g: {
      groupValue: string;
      groupTotalNum: number;
      esDocs: Array<{ Amount: number }>;
      innerDocs: Array<{ Amount: number }>;
    }) => [g.groupValue, g.groupTotalNum, g.esDocs.map((d) => d.Amount), g.innerDocs.map((d) => d.Amount)],
  );
  assert.equal(groups, [
    ['eu', 3, [900], [480, 120]],
    ['apac', 1, [50], []],
    ['us', 1, [300], []],
  ]);
});

test('a bad search names the field: 400', async ({ p }) => {
  const unknown = await search(p, { Conditions: { Nope: 1 } });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.code, 'SEARCH.INVALID');
  assert.is(unknown.body.details.field, 'Nope');
  assert.is((await search(p, { FromRangeConditions: { Region: 'a' } })).status, 400);
  assert.is((await search(p, { Conditions: { Amount: 'lots' } })).status, 400);
  assert.is((await search(p, { PageSize: 0 })).status, 400);
  assert.is((await search(p, { Module: 'bad name' })).status, 400);
  assert.is(
    (
      await p.call('PUT', `${BASE}/admin/index-schemas/claims`, {
        tenant: 'acme',
        body: { fields: [{ name: 'Status', type: 'string' }] },
      })
    ).status,
    400,
    'a minimum field cannot be redefined',
  );
});

test('adding a field rebuilds the index beside the live one; searches answer from the old one until the switch', async ({
  p,
  taskIds,
}) => {
  // the rebuild runs when this test says (runDue), not when the engine wakes up
  for (const e of p.platform.services.find((s) => s.name === 'workflow')!.engines) await e.stop();
  const changed = await p.call('PUT', `${BASE}/admin/index-schemas/claims`, {
    tenant: 'acme',
    body: {
      fields: [
        { name: 'Amount', type: 'number' },
        { name: 'Region', type: 'string' },
        { name: 'Opened', type: 'date', includeAll: false },
        { name: 'Extra', type: 'string' },
      ],
    },
  });
  assert.is(changed.body.revision, 2);
  await p.settled();
  const during = await p.call('GET', `${BASE}/admin/index-schemas/claims`, { tenant: 'acme' });
  assert.equal(
    {
      generation: during.body.generation,
      revision: during.body.revision,
      rebuilding: during.body.rebuilding?.generation,
    },
    { generation: 1, revision: 1, rebuilding: 2 },
  );
  assert.is((await search(p, { Conditions: { Extra: 'x' } })).status, 400, 'not a field of the live generation yet');

  // complete one task, then run the rebuild while searches keep coming
  assert.is((await p.call('POST', `${BASE}/tasks/${taskIds[0]}/complete`, { tenant: 'acme', body: {} })).status, 200);
  await p.settled();
  let searching = true;
  const answers: number[] = [];
  const searches = (async () => {
    while (searching) {
      const r = await search(p, { Conditions: { Region: 'eu' } });
      assert.is(r.status, 200, JSON.stringify(r.body));
      answers.push(r.body.total);
    }
  })();
  const ran = await p.runDue();
  searching = false;
  await searches;
  assert.ok(ran >= 1, 'the rebuild job ran');
  assert.ok(
    answers.length > 0 && answers.every((t) => t === 3),
    `every search answered from a complete index: ${answers.join(',')}`,
  );

  const after = await p.call('GET', `${BASE}/admin/index-schemas/claims`, { tenant: 'acme' });
  assert.equal(
    { generation: after.body.generation, revision: after.body.revision, rebuilding: after.body.rebuilding },
    { generation: 2, revision: 2, rebuilding: null },
  );
  const extra = await search(p, { Conditions: { Extra: 'x' }, SortField: 'WorkflowBusinessKey', SortType: 'asc' });
  assert.is(extra.status, 200);
  assert.equal(
    keysOf(extra),
    ['c-1', 'c-3', 'c-4'],
    'the new field, from the events of tasks started before the change',
  );
  assert.is(extra.body.results[0].esDocs[0].Status, 'COMPLETED');
  // live updates go to the new generation
  assert.is((await p.call('POST', `${BASE}/tasks/${taskIds[2]}/complete`, { tenant: 'acme', body: {} })).status, 200);
  await p.settled();
  const completed = await search(p, {
    Conditions: { Status: 'COMPLETED' },
    SortField: 'WorkflowBusinessKey',
    SortType: 'asc',
  });
  assert.equal(keysOf(completed), ['c-1', 'c-3']);
  const list = await p.call('GET', `${BASE}/admin/index-schemas`, { tenant: 'acme' });
  assert.equal(
    list.body.content.map((i: { name: string }) => i.name),
    ['claims'],
  );
});

test.run();
