import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusAvailable, corpusXml } from '../../domain/workflow/corpus.ts';
import {
  BASE,
  EXTERNAL,
  sequenceXml,
  startBody,
  startWorkflowPlatform,
  type WorkflowPlatform,
} from './workflow-harness.ts';

// The workflow API end to end: deployment and versioning, start and completion with the spec's
// request shapes and errors, concurrent completion, by business key, definitions, tenant enablement and
// separation, scopes.

type Ctx = { p: WorkflowPlatform };
const test = suite<Ctx>('workflow HTTP API', {} as Ctx);
test.before(async (ctx) => {
  ctx.p = await startWorkflowPlatform({ enable: ['acme', 'beta'] });
});
test.after(async (ctx) => {
  await ctx.p.stop();
});

const xmlWithAssignee = (key: string, task: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="spec">
  <process id="${key}" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="${task}"/>
    <userTask id="${task}" name="Review" camunda:assignee="\${assignee}"/>
    <sequenceFlow id="f2" sourceRef="${task}" targetRef="gw"/>
    <exclusiveGateway id="gw"/>
    <sequenceFlow id="bind" sourceRef="gw" targetRef="bound"><conditionExpression xsi:type="tFormalExpression">\${action == 'bind'}</conditionExpression></sequenceFlow>
    <sequenceFlow id="reject" sourceRef="gw" targetRef="end"><conditionExpression xsi:type="tFormalExpression">\${action == 'reject'}</conditionExpression></sequenceFlow>
    <userTask id="bound" name="Bound"/>
    <sequenceFlow id="f3" sourceRef="bound" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

const byKey = (p: WorkflowPlatform, tenant: string, key: string, bk: string, extra = '') =>
  p.call('GET', `${BASE}/tasks/byBusinessKey?processDefinitionKey=${key}&workflowBusinessKey=${bk}${extra}`, {
    tenant,
  });

test('deploy: versions per key; an identical redeploy creates none; running instances keep their version', async ({
  p,
}) => {
  const v1 = await p.deploy('acme', [{ name: 'versioned.bpmn', xml: sequenceXml('versioned', ['first']) }]);
  assert.is(v1.status, 201, JSON.stringify(v1.body));
  const d1 = v1.body.deployedProcessDefinitions[0];
  assert.is(d1.version, 1);
  assert.match(d1.id, /^versioned:1:[0-9a-f-]{36}$/);
  assert.is(d1.new, true);

  const again = await p.deploy('acme', [
    { name: 'versioned.bpmn', xml: `${sequenceXml('versioned', ['first'])}\n\n<!-- a comment -->\r\n` },
  ]);
  assert.is(again.status, 201);
  assert.equal(
    again.body.deployedProcessDefinitions[0],
    { ...d1, new: false },
    'normalized-identical: the latest version is answered',
  );

  const started = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: startBody('versioned', 'v-old'),
  });
  assert.is(started.status, 200);
  assert.is(started.body.content[0].processDefinitionId, d1.id);

  const v2 = await p.deploy('acme', [{ name: 'versioned.bpmn', xml: sequenceXml('versioned', ['first', 'second']) }]);
  assert.is(v2.body.deployedProcessDefinitions[0].version, 2);
  // the running instance keeps version 1: completing its task ends it (v1 has no second task)
  const done = await p.call('POST', `${BASE}/tasks/${started.body.content[0].id}/complete`, {
    tenant: 'acme',
    body: {},
  });
  assert.is(done.status, 200);
  assert.equal(done.body.content, []);
  // a new instance gets version 2
  const fresh = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: startBody('versioned', 'v-new'),
  });
  assert.is(fresh.body.content[0].processDefinitionId, v2.body.deployedProcessDefinitions[0].id);
  const next = await p.call('POST', `${BASE}/tasks/${fresh.body.content[0].id}/complete`, { tenant: 'acme', body: {} });
  assert.is(next.body.content[0].taskDefinitionKey, 'second');

  await p.settled();
  const defs = await p.call('GET', `${EXTERNAL}/process-definitions`, { tenant: 'acme' });
  const versioned = defs.body.content.find((d: { key: string }) => d.key === 'versioned');
  assert.equal(
    versioned.versions.map((v: { version: number }) => v.version),
    [1, 2],
  );
  assert.is(versioned.latestVersion, 2);
  assert.match(versioned.versions[0].deploymentTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  const xml = await p.call('GET', `${BASE}/process-definitions/${encodeURIComponent(d1.id)}/xml`, { tenant: 'acme' });
  assert.is(xml.status, 200);
  assert.match(xml.headers.get('content-type') ?? '', /xml/);
  assert.is(xml.body, sequenceXml('versioned', ['first']));
});

test('deploy refuses bad files with a 400 naming the problem, and stores nothing', async ({ p }) => {
  const broken = await p.deploy('acme', [
    {
      name: 'broken.bpmn',
      xml: '<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">\n<process id="x">\n<startEvent id="s"></task></process></definitions>',
    },
  ]);
  assert.is(broken.status, 400);
  assert.is(broken.body.code, 'DEPLOYMENT.INVALID_XML');
  assert.is(broken.body.details.line, 3);
  assert.is(typeof broken.body.details.column, 'number');
  const receive = `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="rx">\n<startEvent id="s"/>\n<receiveTask id="waitForPayment"/>\n<sequenceFlow sourceRef="s" targetRef="waitForPayment"/></process></definitions>`;
  const unsupported = await p.deploy('acme', [{ name: 'rx.bpmn', xml: receive }]);
  assert.is(unsupported.status, 400);
  assert.is(unsupported.body.code, 'DEPLOYMENT.UNSUPPORTED_ELEMENT');
  assert.equal(
    { element: unsupported.body.details.element, id: unsupported.body.details.id, line: unsupported.body.details.line },
    { element: 'receiveTask', id: 'waitForPayment', line: 3 },
  );
  assert.match(unsupported.body.message, /receiveTask.*waitForPayment.*line 3/);
  const notMultipart = await p.call('POST', `${BASE}/deployment`, { tenant: 'acme', body: { files: [] } });
  assert.is(notMultipart.status, 400);
  await p.settled();
  const defs = await p.call('GET', `${BASE}/process-definitions`, { tenant: 'acme' });
  assert.not.ok(defs.body.content.some((d: { key: string }) => d.key === 'rx' || d.key === 'x'));
});

test("start and complete: the spec's errors, assignee from controlVariables, the gateway's no-flow error leaves the task ASSIGNED", async ({
  p,
}) => {
  assert.is(
    (await p.deploy('acme', [{ name: 'review.bpmn', xml: xmlWithAssignee('review', 'reviewTask') }])).status,
    201,
  );
  const noAssignee = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: {
      ...startBody('review', 'r-1'),
      assignee: 'kermit',
      queryVariables: { TaskType: 't', WorkflowBusinessKey: 'r-1', assignee: 'kermit' },
    },
  });
  assert.is(noAssignee.status, 422, 'assignee at the root and in queryVariables only is not enough');
  assert.is(noAssignee.body.code, 'EXPRESSION.EVALUATION_FAILED');
  assert.match(noAssignee.body.message, /^Error while evaluating expression: \$\{assignee\}/);
  assert.equal((await byKey(p, 'acme', 'review', 'r-1')).body.content, [], 'a failed start stores nothing');

  const mismatch = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { ...startBody('review', 'r-2'), businessKey: 'other' },
  });
  assert.is(mismatch.status, 400);
  assert.is(mismatch.body.code, 'START.INVALID');
  const noType = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { processDefinitionKey: 'review', businessKey: 'r-3', queryVariables: { WorkflowBusinessKey: 'r-3' } },
  });
  assert.is(noType.status, 400);
  assert.match(noType.body.message, /TaskType/);
  const noKey = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { processDefinitionKey: 'review', queryVariables: { TaskType: 't' } },
  });
  assert.is(noKey.status, 400);
  assert.match(noKey.body.message, /WorkflowBusinessKey/);
  const unknown = await p.call('POST', `${BASE}/process-instances`, { tenant: 'acme', body: startBody('nope', 'r-4') });
  assert.is(unknown.status, 404);
  const extra = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { ...startBody('review', 'r-5'), surprise: 1 },
  });
  assert.is(extra.status, 400);
  assert.is(extra.body.code, 'REQUEST.INVALID');

  const ok = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { ...startBody('review', 'r-6', { assignee: 'kermit' }), assignee: 'kermit' },
  });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  const [task] = ok.body.content;
  assert.equal(
    { assignee: task.assignee, status: task.status, name: task.name, key: task.taskDefinitionKey },
    { assignee: 'kermit', status: 'ASSIGNED', name: 'Review', key: 'reviewTask' },
  );
  assert.equal(task.queryVariables, { TaskType: 'spec', WorkflowBusinessKey: 'r-6' });
  assert.ok(Array.isArray(ok.body.links));

  const wrong = await p.call('POST', `${BASE}/tasks/${task.id}/complete`, {
    tenant: 'acme',
    body: { assignee: 'kermit', controlVariables: { action: 'Bind' } },
  });
  assert.is(wrong.status, 422);
  assert.is(wrong.body.code, 'GATEWAY.NO_OUTGOING_FLOW');
  assert.is(
    wrong.body.message,
    "No outgoing sequence flow of the exclusive gateway 'gw' could be selected for continuing the process",
  );
  const still = await byKey(p, 'acme', 'review', 'r-6');
  assert.equal(
    still.body.content.map((t: { id: string; status: string }) => [t.id, t.status]),
    [[task.id, 'ASSIGNED']],
    'no move: the task stays ASSIGNED',
  );

  const bodyId = await p.call('POST', `${BASE}/tasks/${task.id}/complete`, {
    tenant: 'acme',
    body: { taskId: 'another', controlVariables: { action: 'bind' } },
  });
  assert.is(bodyId.status, 400);
  const bound = await p.call('POST', `${EXTERNAL}/tasks/${task.id}/complete`, {
    tenant: 'acme',
    body: { assignee: 'kermit', controlVariables: { action: 'bind' }, queryVariables: { Stage: 'bound' } },
  });
  assert.is(bound.status, 200, JSON.stringify(bound.body));
  assert.is(bound.body.content[0].taskDefinitionKey, 'bound');
  assert.is(bound.body.content[0].status, 'CREATED', 'no assignee, no candidates: CREATED');
  assert.equal(bound.body.content[0].queryVariables, { TaskType: 'spec', WorkflowBusinessKey: 'r-6', Stage: 'bound' });
  assert.match(bound.body.content[0].links[0].href, /^\/api\/platform\/workflow\/workflow\/v1\/tasks\/.+\/complete$/);

  const duplicate = await p.call('POST', `${BASE}/tasks/${task.id}/complete`, {
    tenant: 'acme',
    body: { controlVariables: { action: 'bind' } },
  });
  assert.is(duplicate.status, 409);
  assert.is(duplicate.body.code, 'TASK.NOT_OPEN');
  const missing = await p.call('POST', `${BASE}/tasks/00000000-0000-0000-0000-000000000000.t1/complete`, {
    tenant: 'acme',
    body: {},
  });
  assert.is(missing.status, 404);

  // by business key: the open task, read your writes; with includeCompleted the history too
  const open = await byKey(p, 'acme', 'review', 'r-6');
  assert.equal(
    open.body.content.map((t: { taskDefinitionKey: string }) => t.taskDefinitionKey),
    ['bound'],
  );
  const all = await byKey(p, 'acme', 'review', 'r-6', '&includeCompleted=true');
  const first = all.body.content.find((t: { taskDefinitionKey: string }) => t.taskDefinitionKey === 'reviewTask');
  assert.equal(
    {
      status: first.status,
      businessKey: first.businessKey,
      version: first.processDefinitionVersion,
      docId: first.docId,
    },
    { status: 'COMPLETED', businessKey: 'r-6', version: 1, docId: task.id },
  );
  assert.ok(first.completedDate !== null && typeof first.duration === 'number');

  // the CREATED task is claimed by whoever completes it
  const claimed = await p.call('POST', `${BASE}/tasks/${bound.body.content[0].id}/complete`, {
    tenant: 'acme',
    body: { assignee: 'gonzo' },
  });
  assert.equal(claimed.body.content, []);
  const history = await byKey(p, 'acme', 'review', 'r-6', '&includeCompleted=true');
  const last = history.body.content.find((t: { taskDefinitionKey: string }) => t.taskDefinitionKey === 'bound');
  assert.equal({ assignee: last.assignee, status: last.status }, { assignee: 'gonzo', status: 'COMPLETED' });
  assert.ok(last.claimedDate !== null);
  const inst = await p.call('GET', `${BASE}/process-instances/${task.processInstanceId}`, { tenant: 'acme' });
  assert.is(inst.body.state, 'COMPLETED');
  const passed = inst.body.history
    .filter((h: { type: string }) => h.type === 'ElementsPassed')
    .flatMap((h: { elements: Array<{ elementId: string }> }) => h.elements.map((e) => e.elementId));
  assert.ok(passed.includes('gw') && passed.includes('start'), `the history shows the path: ${passed.join(', ')}`);
  assert.ok(
    inst.body.history.some(
      (h: { type: string; taskId?: string }) => h.type === 'TaskCompleted' && h.taskId === task.id,
    ),
  );
});

test('concurrent completion of one task: one wins, the other is a 409 and changes nothing', async ({ p }) => {
  await p.deploy('acme', [{ name: 'race.bpmn', xml: sequenceXml('race', ['one', 'two']) }]);
  for (let round = 0; round < 5; round++) {
    const s = await p.call('POST', `${BASE}/process-instances`, {
      tenant: 'acme',
      body: startBody('race', `race-${round}`),
    });
    const id = s.body.content[0].id;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => p.call('POST', `${BASE}/tasks/${id}/complete`, { tenant: 'acme', body: {} })),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses, [200, 409, 409, 409], JSON.stringify(results.map((r) => r.body)));
    const open = await byKey(p, 'acme', 'race', `race-${round}`);
    assert.equal(
      open.body.content.map((t: { taskDefinitionKey: string }) => t.taskDefinitionKey),
      ['two'],
      'exactly one next task',
    );
  }
});

test('the same Idempotency-Key starts one instance', async ({ p }) => {
  await p.deploy('acme', [{ name: 'idem.bpmn', xml: sequenceXml('idem', ['only']) }]);
  const headers = { 'idempotency-key': 'start-idem-1' };
  const a = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: startBody('idem', 'idem-1'),
    headers,
  });
  const b = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: startBody('idem', 'idem-1'),
    headers,
  });
  assert.is(a.status, 200);
  assert.equal(
    b.body.content.map((t: { id: string }) => t.id),
    a.body.content.map((t: { id: string }) => t.id),
  );
  assert.is((await byKey(p, 'acme', 'idem', 'idem-1')).body.content.length, 1);
});

test('tenant separation: beta never sees acme tasks, instances or definitions', async ({ p }) => {
  await p.deploy('acme', [{ name: 'secret.bpmn', xml: sequenceXml('secret', ['classified']) }]);
  const s = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: startBody('secret', 'shared-key'),
  });
  const task = s.body.content[0];
  await p.settled();
  assert.is(
    (await p.call('POST', `${BASE}/process-instances`, { tenant: 'beta', body: startBody('secret', 'shared-key') }))
      .status,
    404,
    'no such key for beta',
  );
  assert.equal((await byKey(p, 'beta', 'secret', 'shared-key')).body.content, []);
  assert.is(
    (await p.call('GET', `${BASE}/process-instances/${task.processInstanceId}`, { tenant: 'beta' })).status,
    404,
  );
  assert.is((await p.call('POST', `${BASE}/tasks/${task.id}/complete`, { tenant: 'beta', body: {} })).status, 404);
  assert.equal((await p.call('GET', `${BASE}/process-definitions`, { tenant: 'beta' })).body.content, []);
  assert.is(
    (
      await p.call('GET', `${BASE}/process-definitions/${encodeURIComponent(task.processDefinitionId)}/xml`, {
        tenant: 'beta',
      })
    ).status,
    404,
  );
  const search = await p.call('POST', `${BASE}/tasks`, {
    tenant: 'beta',
    body: { Conditions: { WorkflowBusinessKey: 'shared-key' } },
  });
  assert.is(search.body.total, 0);
  const acmeSearch = await p.call('POST', `${BASE}/tasks`, {
    tenant: 'acme',
    body: { Conditions: { WorkflowBusinessKey: 'shared-key' } },
  });
  assert.is(acmeSearch.body.total, 1);
  assert.is(acmeSearch.body.results[0].esDocs[0].tenant_code, 'acme');
  // each tenant's data lives in collections of its own
  const names = await p.platform.stores.readStore.listCollections();
  assert.ok(names.some((n) => n.startsWith('workflow.tasks__acme__tasks__')));
  assert.ok(names.some((n) => n.startsWith('workflow.definitions__acme__definitions__')));
  assert.not.ok(
    names.some((n) => n.startsWith('workflow.definitions__beta__')),
    'beta deployed nothing: no collection of its own yet',
  );
});

test('tenant enablement: a tenant not enabled gets 409; enabling takes effect at once; scopes are checked', async ({
  p,
}) => {
  // the platform tenant is not enabled
  const refused = await p.call('GET', `${BASE}/process-definitions`, { tenant: 'platform' });
  assert.is(refused.status, 409);
  assert.is(refused.body.code, 'WORKFLOW.TENANT_NOT_ENABLED');
  assert.match(refused.body.message, /not enabled for the workflow/);
  assert.is((await p.call('GET', `${BASE}/admin/tenants/platform`, { tenant: 'platform' })).body.enabled, false);
  const enabled = await p.call('POST', `${BASE}/admin/tenants/platform/enable`, { tenant: 'platform' });
  assert.is(enabled.status, 200);
  assert.is(
    (await p.call('GET', `${BASE}/process-definitions`, { tenant: 'platform' })).status,
    200,
    'no restart needed',
  );
  await p.call('POST', `${BASE}/admin/tenants/platform/disable`, { tenant: 'platform' });
  assert.is((await p.call('GET', `${BASE}/process-definitions`, { tenant: 'platform' })).status, 409);

  // acme's admin may not enable beta
  assert.is((await p.call('POST', `${BASE}/admin/tenants/beta/enable`, { tenant: 'acme' })).status, 403);
  const userOnly = await p.token('acme', ['workflow:user']);
  assert.is(
    (await p.deploy('acme', [{ name: 'x.bpmn', xml: sequenceXml('x', ['a']) }], { token: userOnly })).status,
    403,
  );
  assert.is((await p.call('GET', `${BASE}/process-definitions`, { token: userOnly })).status, 200);
  const adminOnly = await p.token('acme', ['workflow:admin']);
  assert.is((await p.call('GET', `${BASE}/process-definitions`, { token: adminOnly })).status, 403);
  assert.is((await p.call('GET', `${BASE}/process-definitions`)).status, 401);
  const openapi = await p.call('GET', `${BASE}/openapi.json`);
  assert.is(openapi.status, 200);
  assert.ok(openapi.body.paths['/workflow/v1/process-instances']);
  assert.ok(openapi.body.paths['/api/platform/workflow/workflow/v1/tasks/{taskId}/complete']);
});

const initiatorXml = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="spec">
  <process id="${key}" isExecutable="true">
    <startEvent id="start" camunda:initiator="employeeName"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="adjust"/>
    <userTask id="adjust" name="Adjust" camunda:assignee="\${employeeName}"/>
    <sequenceFlow id="f2" sourceRef="adjust" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

test("the start event's initiator: a variable given at start wins over the request's assignee; without it the assignee is the initiator", async ({
  p,
}) => {
  assert.is((await p.deploy('acme', [{ name: 'initiated.bpmn', xml: initiatorXml('initiated') }])).status, 201);
  const given = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { ...startBody('initiated', 'i-1', { employeeName: 'kermit' }), assignee: 'gonzo' },
  });
  assert.is(given.status, 200, JSON.stringify(given.body));
  assert.is(given.body.content[0].assignee, 'kermit');
  const inst = await p.call('GET', `${BASE}/process-instances/${given.body.content[0].processInstanceId}`, {
    tenant: 'acme',
  });
  assert.is(inst.body.variables.employeeName, 'kermit');
  const caller = await p.call('POST', `${BASE}/process-instances`, {
    tenant: 'acme',
    body: { ...startBody('initiated', 'i-2'), assignee: 'gonzo' },
  });
  assert.is(caller.status, 200, JSON.stringify(caller.body));
  assert.is(caller.body.content[0].assignee, 'gonzo');
});

if (corpusAvailable()) {
  test("the start event's initiator in Camunda 7's reviewSalesLead and VacationRequest: the start variable wins", async ({
    p,
  }) => {
    const files = ['c7_reviewSalesLead.bpmn20.xml', 'c7_VacationRequest.bpmn20.xml'];
    assert.is(
      (
        await p.deploy(
          'acme',
          files.map((f) => ({ name: f, xml: corpusXml(f) })),
        )
      ).status,
      201,
    );
    const lead = await p.call('POST', `${BASE}/process-instances`, {
      tenant: 'acme',
      body: {
        ...startBody('reviewSaledLead', 'i-3', { initiator: 'kermit', customerName: 'Alfresco', details: 'x' }),
        assignee: 'gonzo',
      },
    });
    assert.equal(
      lead.body.content.map((t: { taskDefinitionKey: string; assignee: string }) => [t.taskDefinitionKey, t.assignee]),
      [['provideNewSalesLead', 'kermit']],
    );
    const vacation = await p.call('POST', `${BASE}/process-instances`, {
      tenant: 'acme',
      body: { ...startBody('vacationRequest', 'i-4', { employeeName: 'kermit', numberOfDays: 4 }), assignee: 'gonzo' },
    });
    const [handle] = vacation.body.content;
    const rejected = await p.call('POST', `${BASE}/tasks/${handle.id}/complete`, {
      tenant: 'acme',
      body: { assignee: 'fozzie', controlVariables: { vacationApproved: 'false' } },
    });
    assert.equal(
      rejected.body.content.map((t: { taskDefinitionKey: string; assignee: string }) => [
        t.taskDefinitionKey,
        t.assignee,
      ]),
      [['adjustVacationRequestTask', 'kermit']],
    );
  });
}

test.run();
