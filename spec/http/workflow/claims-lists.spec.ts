import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../core/eventually.ts';
import { BASE, sequenceXml, startBody, startWorkflowPlatform, type WorkflowPlatform } from './workflow-harness.ts';

// Claim and unclaim without completing (the task index shows the assignee and claimedDate after a claim;
// of two concurrent claims one wins, the other is a 409), the tenant's instances by state (newest first,
// paged), and its pending timers (soonest first, each with its instance).

type Ctx = { p: WorkflowPlatform };
const test = suite<Ctx>('workflow claims, instance and timer lists', {} as Ctx);

const poolXml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="spec">
  <process id="pool" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
    <userTask id="review" name="Review" camunda:candidateUsers="kermit,gonzo"/>
    <sequenceFlow id="f2" sourceRef="review" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

const timedXml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="spec">
  <process id="timed" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="work"/>
    <userTask id="work" name="Work"/>
    <boundaryEvent id="late" attachedToRef="work" cancelActivity="true"><timerEventDefinition><timeDuration>PT2H</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="work" targetRef="wait"/>
    <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration>P30D</timeDuration></timerEventDefinition></intermediateCatchEvent>
    <sequenceFlow id="f3" sourceRef="wait" targetRef="end"/>
    <sequenceFlow id="f4" sourceRef="late" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

test.before(async (ctx) => {
  const p = (ctx.p = await startWorkflowPlatform());
  const r = await p.deploy('acme', [
    { name: 'pool.bpmn', xml: poolXml },
    { name: 'timed.bpmn', xml: timedXml },
    { name: 'one.bpmn', xml: sequenceXml('one', ['only']) },
  ]);
  assert.is(r.status, 201, JSON.stringify(r.body));
});
test.after(async ({ p }) => p.stop());

const search = (p: WorkflowPlatform, taskId: string) =>
  p.call('POST', `${BASE}/tasks`, { tenant: 'acme', body: { Conditions: { TaskId: taskId } } });
const esDoc = async (p: WorkflowPlatform, taskId: string) => {
  const r = await search(p, taskId);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.results[0].esDocs[0] as Record<string, unknown> | undefined;
};

test('claim sets the assignee (search and by business key show it), another claim is a 409, unclaim releases', async ({
  p,
}) => {
  const s = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('pool', 'claim-1') });
  assert.is(s.status, 200, JSON.stringify(s.body));
  const task = s.body.content[0];
  assert.equal([task.status, task.assignee, task.claimedDate], ['CREATED', null, null]);

  const c = await p.call('POST', `${BASE}/tasks/${task.id}/claim`, { tenant: 'acme', body: { assignee: 'kermit' } });
  assert.is(c.status, 200, JSON.stringify(c.body));
  assert.equal([c.body.content[0].status, c.body.content[0].assignee], ['ASSIGNED', 'kermit']);
  assert.match(c.body.content[0].claimedDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  // the holder claiming again changes nothing; another assignee is refused
  const again = await p.call('POST', `${BASE}/tasks/${task.id}/claim`, {
    tenant: 'acme',
    body: { assignee: 'kermit' },
  });
  assert.equal([again.status, again.body.content[0].claimedDate], [200, c.body.content[0].claimedDate]);
  const other = await p.call('POST', `${BASE}/tasks/${task.id}/claim`, { tenant: 'acme', body: { assignee: 'gonzo' } });
  assert.equal(
    [other.status, other.body.code, other.body.details.assignee],
    [409, 'TASK.CLAIMED_BY_ANOTHER', 'kermit'],
  );

  const byKey = await p.call(
    'GET',
    `${BASE}/tasks/byBusinessKey?processDefinitionKey=pool&workflowBusinessKey=claim-1`,
    {
      tenant: 'acme',
    },
  );
  assert.equal([byKey.body.content[0].assignee, byKey.body.content[0].status], ['kermit', 'ASSIGNED']);
  await eventually(async () => {
    const doc = await esDoc(p, task.id);
    assert.equal([doc?.Assignee, doc?.Status], ['kermit', 'ASSIGNED']);
    assert.is(doc?.ClaimedDate, c.body.content[0].claimedDate);
    return true;
  }, 'the claim in the task index');

  // an unclaim naming someone else is refused; a plain one releases the task
  const wrong = await p.call('POST', `${BASE}/tasks/${task.id}/unclaim`, {
    tenant: 'acme',
    body: { assignee: 'gonzo' },
  });
  assert.equal([wrong.status, wrong.body.code], [409, 'TASK.CLAIMED_BY_ANOTHER']);
  const u = await p.call('POST', `${BASE}/tasks/${task.id}/unclaim`, { tenant: 'acme', body: { assignee: 'kermit' } });
  assert.is(u.status, 200, JSON.stringify(u.body));
  assert.equal(
    [u.body.content[0].status, u.body.content[0].assignee, u.body.content[0].claimedDate],
    ['CREATED', null, null],
  );
  await eventually(async () => {
    const doc = await esDoc(p, task.id);
    assert.equal([doc?.Assignee, doc?.Status, doc?.ClaimedDate], [null, 'CREATED', null]);
    return true;
  }, 'the unclaim in the task index');

  // the other tenant does not see the task; unknown and completed tasks are 404 and 409
  const beta = await p.call('POST', `${BASE}/tasks/${task.id}/claim`, { tenant: 'beta', body: { assignee: 'kermit' } });
  assert.is(beta.status, 404);
  const done = await p.call('POST', `${BASE}/tasks/${task.id}/complete`, {
    tenant: 'acme',
    body: { assignee: 'gonzo' },
  });
  assert.is(done.status, 200, JSON.stringify(done.body));
  const late = await p.call('POST', `${BASE}/tasks/${task.id}/unclaim`, { tenant: 'acme', body: {} });
  assert.equal([late.status, late.body.code], [409, 'TASK.NOT_OPEN']);
  const none = await p.call('POST', `${BASE}/tasks/nope/claim`, { tenant: 'acme', body: { assignee: 'x' } });
  assert.is(none.status, 404);
  const bad = await p.call('POST', `${BASE}/tasks/${task.id}/claim`, { tenant: 'acme', body: {} });
  assert.is(bad.status, 400);
});

test('of concurrent claims by different assignees exactly one wins; the rest are 409', async ({ p }) => {
  const s = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('pool', 'claim-2') });
  const taskId = s.body.content[0].id as string;
  const who = ['kermit', 'gonzo', 'piggy', 'fozzie'];
  const answers = await Promise.all(
    who.map((assignee) => p.call('POST', `${BASE}/tasks/${taskId}/claim`, { tenant: 'acme', body: { assignee } })),
  );
  const won = answers.filter((a) => a.status === 200);
  assert.is(won.length, 1, JSON.stringify(answers.map((a) => [a.status, a.body.code])));
  assert.equal(
    answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.code]),
    who.slice(1).map(() => [409, 'TASK.CLAIMED_BY_ANOTHER']),
  );
  const inst = await p.call('GET', `${BASE}/process-instances/${s.body.content[0].processInstanceId}`, {
    tenant: 'acme',
  });
  assert.is(inst.body.tasks[0].assignee, won[0]!.body.content[0].assignee);
  assert.is(inst.body.history.filter((h: { type: string }) => h.type === 'TaskClaimed').length, 1);
});

test('instances by state alone: newest first, paged, per tenant', async ({ p }) => {
  const ids: string[] = [];
  for (const bk of ['list-1', 'list-2', 'list-3']) {
    p.clock.advance(1000); // distinct start times: newest first is by the start
    const r = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('one', bk) });
    assert.is(r.status, 200, JSON.stringify(r.body));
    ids.push(r.body.content[0].processInstanceId);
    if (bk === 'list-2') {
      const done = await p.call('POST', `${BASE}/tasks/${r.body.content[0].id}/complete`, { tenant: 'acme', body: {} });
      assert.is(done.status, 200);
    }
  }
  await p.settled();
  const list = (query: string, tenant = 'acme') => p.call('GET', `${BASE}/process-instances?${query}`, { tenant });
  const active = await list('state=ACTIVE&processDefinitionKey=one');
  assert.is(active.status, 200, JSON.stringify(active.body));
  assert.equal(
    active.body.items.map((i: { id: string }) => i.id),
    [ids[2], ids[0]],
  );
  assert.equal([active.body.total, active.body.limit, active.body.offset], [2, 50, 0]);
  const first = active.body.items[0];
  assert.equal(
    [first.state, first.businessKey, first.processDefinitionKey, first.processDefinitionVersion, first.endedDate],
    ['ACTIVE', 'list-3', 'one', 1, null],
  );
  assert.is(first.links[0].href, `${BASE}/process-instances/${ids[2]}`);

  const completed = await list('state=COMPLETED');
  assert.equal(
    completed.body.items
      .filter((i: { processDefinitionKey: string }) => i.processDefinitionKey === 'one')
      .map((i: { id: string }) => i.id),
    [ids[1]],
  );
  assert.match(completed.body.items[0].endedDate, /^\d{4}-/);
  // paging: one a page, the total over all of them; a business key narrows too
  const page2 = await list('state=ACTIVE&processDefinitionKey=one&limit=1&offset=1');
  assert.equal([page2.body.items.map((i: { id: string }) => i.id), page2.body.total], [[ids[0]], 2]);
  const byKey = await list('businessKey=list-2');
  assert.equal(
    byKey.body.items.map((i: { state: string }) => i.state),
    ['COMPLETED'],
  );
  // no state at all: every instance, newest first; the other tenant has none of them
  const all = await list('limit=200');
  assert.ok(all.body.items.length >= 3);
  assert.ok(
    all.body.items.every(
      (i: { startedDate: string }, n: number, xs: Array<{ startedDate: string }>) =>
        n === 0 || xs[n - 1]!.startedDate >= i.startedDate,
    ),
  );
  assert.is((await list('', 'beta')).body.total, 0);
  assert.is((await list('state=RUNNING')).status, 400);
});

test('pending timers: soonest first with due time and instance; gone when they fire or their activity ends', async ({
  p,
}) => {
  const s = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('timed', 'timer-1') });
  assert.is(s.status, 200, JSON.stringify(s.body));
  const instanceId = s.body.content[0].processInstanceId as string;
  const startedAt = p.clock.now().getTime();
  await p.settled();
  let token: string | undefined;
  const timers = async (query = '', tenant = 'acme') => {
    const r = await p.call('GET', `${BASE}/timers?${query}`, token === undefined ? { tenant } : { token });
    assert.is(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const mine = (body: { items: any[] }) => body.items.filter((t) => t.processInstanceId === instanceId);
  const one = mine(await timers());
  assert.equal(
    one.map((t: any) => [t.elementId, t.boundary, t.processDefinitionKey, t.businessKey]),
    [['late', true, 'timed', 'timer-1']],
  );
  assert.is(one[0]!.dueDate, new Date(startedAt + 2 * 3600_000).toISOString().slice(0, 23));
  assert.is(one[0]!.links[0].href, `${BASE}/process-instances/${instanceId}`);
  assert.is((await timers('', 'beta')).total, 0);

  // completing the task cancels its boundary timer and schedules the 30-day catch event
  const done = await p.call('POST', `${BASE}/tasks/${s.body.content[0].id}/complete`, { tenant: 'acme', body: {} });
  assert.is(done.status, 200);
  await p.settled();
  const after = mine(await timers());
  assert.equal(
    after.map((t: any) => [t.elementId, t.boundary]),
    [['wait', false]],
  );
  // a second instance's boundary timer (2 hours) comes before the 30-day one
  const s2 = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('timed', 'timer-2') });
  await p.settled();
  const listed = (await timers()).items as Array<{ dueDate: string; processInstanceId: string }>;
  assert.ok(listed.every((t, n) => n === 0 || listed[n - 1]!.dueDate <= t.dueDate));
  assert.is(
    listed.findIndex((t) => t.processInstanceId === s2.body.content[0].processInstanceId) <
      listed.findIndex((t) => t.processInstanceId === instanceId),
    true,
  );
  const soon = await timers(`dueBefore=${new Date(startedAt + 3 * 3600_000).toISOString()}`);
  assert.ok(
    soon.items.every((t: { dueDate: string }) => t.dueDate <= new Date(startedAt + 3 * 3600_000).toISOString()),
  );
  assert.is(mine(soon).length, 0);
  assert.is((await p.call('GET', `${BASE}/timers?dueBefore=soon`, { tenant: 'acme' })).status, 400);
  // the lists are workflow:user's: an admin-only token is refused
  const adminOnly = await p.token('acme', ['workflow:admin']);
  assert.is((await p.call('GET', `${BASE}/timers`, { token: adminOnly })).status, 403);
  assert.is((await p.call('GET', `${BASE}/process-instances`, { token: adminOnly })).status, 403);

  // the clock passes the 30 days: the timer fires and leaves the list; the instance ends
  p.clock.advance(31 * 24 * 3600_000);
  await p.runDue();
  // the cached tokens expired with the 30 days: a fresh one (another scope order is another cache entry)
  token = await p.token('acme', ['workflow:admin', 'workflow:user']);
  assert.is(mine(await timers()).length, 0);
  const inst = await p.call('GET', `${BASE}/process-instances/${instanceId}`, { token });
  assert.is(inst.body.state, 'COMPLETED');
});

test.run();
