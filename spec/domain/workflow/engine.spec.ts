import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { C7, deployAll, flow, Instance, proc, ZEEBE } from './engine-driver.ts';

// The interpreter's element behaviours beyond the corpus: end events (terminate, error), joins, subprocess
// scopes, call activities with bindings and mappings, timers, the Zeebe dialect, and the safety limits.
const test = suite('workflow interpreter: element behaviours');

const expectError = (fn: () => unknown, code: string, message?: RegExp) => {
  try {
    fn();
    assert.unreachable(`expected ${code}`);
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.ok(isDomainError(err), String(err));
    assert.is(err.code, code);
    if (message) assert.match(err.message, message);
  }
};

test('a terminate end event ends every token of the process: open tasks CANCELED, the instance completes', async () => {
  const defs = await deployAll([
    {
      name: 't.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><parallelGateway id="fork"/><userTask id="a"/><userTask id="b"/><endEvent id="kill"><terminateEventDefinition/></endEvent><endEvent id="e"/>
        ${flow('f1', 's', 'fork')}${flow('f2', 'fork', 'a')}${flow('f3', 'fork', 'b')}${flow('f4', 'a', 'kill')}${flow('f5', 'b', 'e')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p');
  assert.equal(i.open(), ['a', 'b']);
  const events = i.complete('a');
  assert.ok(events.some((e) => e.type === 'TaskCanceled'));
  assert.equal(i.open(), []);
  assert.is(i.status, 'COMPLETED');
  assert.equal(i.state.elements, {});
});

test('a terminate end event inside a subprocess ends only the subprocess, which then leaves', async () => {
  const defs = await deployAll([
    {
      name: 'ts.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><subProcess id="sub"><startEvent id="ss"/><parallelGateway id="fork"/><userTask id="a"/><userTask id="b"/><endEvent id="kill"><terminateEventDefinition/></endEvent>
        ${flow('g1', 'ss', 'fork')}${flow('g2', 'fork', 'a')}${flow('g3', 'fork', 'b')}${flow('g4', 'a', 'kill')}</subProcess><userTask id="after"/><endEvent id="e"/>
        ${flow('f1', 's', 'sub')}${flow('f2', 'sub', 'after')}${flow('f3', 'after', 'e')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p');
  assert.equal(i.open(), ['a', 'b']);
  i.complete('a');
  assert.equal(i.open(), ['after']);
  assert.is(i.status, 'ACTIVE');
});

test('an error thrown in a called process is caught by a boundary event of the call activity; the called instance is terminated', async () => {
  const defs = await deployAll([
    {
      name: 'caller.bpmn',
      xml: `<?xml version="1.0"?><definitions ${C7}><error id="err" errorCode="E42"/><process id="caller" isExecutable="true"><startEvent id="s"/>
        <callActivity id="call" calledElement="callee"><extensionElements><camunda:in source="x" target="y"/><camunda:out source="result" target="result"/></extensionElements></callActivity>
        <boundaryEvent id="caught" attachedToRef="call"><errorEventDefinition errorRef="err"/></boundaryEvent><userTask id="handle"/><userTask id="normal"/><endEvent id="e"/>
        ${flow('f1', 's', 'call')}${flow('f2', 'call', 'normal')}${flow('f3', 'caught', 'handle')}${flow('f4', 'handle', 'e')}${flow('f5', 'normal', 'e')}</process></definitions>`,
    },
    {
      name: 'callee.bpmn',
      xml: `<?xml version="1.0"?><definitions ${C7}><error id="err2" errorCode="E42"/><process id="callee" isExecutable="true"><startEvent id="s"/><userTask id="work" camunda:assignee="\${y}"/><exclusiveGateway id="gw"/>
        <endEvent id="fail"><errorEventDefinition errorRef="err2"/></endEvent><endEvent id="ok"/>
        ${flow('f1', 's', 'work')}${flow('f2', 'work', 'gw')}${flow('f3', 'gw', 'fail', '${bad}')}${flow('f4', 'gw', 'ok', '${!bad}')}</process></definitions>`,
    },
  ]);
  const i = new Instance(defs);
  i.start('caller', { x: 'piggy' });
  assert.equal(i.open(), ['callee:work']);
  assert.is(i.task('work').assignee, 'piggy', 'camunda:in mapped x to y');
  i.complete('work', { bad: true, result: 'lost' });
  assert.equal(i.open(), ['handle']);
  const callee = Object.values(i.state.instances).find((x) => x.processKey === 'callee')!;
  assert.is(callee.status, 'TERMINATED', 'the called instance ended by the error is terminated');
  assert.is(i.state.instances.root!.variables.result, undefined, 'no output mapping on an error');

  const ok = new Instance(defs);
  ok.start('caller', { x: 'piggy' });
  ok.complete('work', { bad: false, result: 'done' });
  assert.equal(ok.open(), ['normal']);
  assert.is(ok.state.instances.root!.variables.result, 'done', 'camunda:out');
});

test('an uncaught error end event ends its path like a none end event', async () => {
  const defs = await deployAll([
    {
      name: 'u.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><userTask id="a"/><endEvent id="boom"><errorEventDefinition/></endEvent>${flow('f1', 's', 'a')}${flow('f2', 'a', 'boom')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p');
  i.complete('a');
  assert.is(i.status, 'COMPLETED');
});

test('an inclusive join waits only for the branches taken, and fires when a token that could reach it ends elsewhere', async () => {
  const defs = await deployAll([
    {
      name: 'inc.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><inclusiveGateway id="fork"/><userTask id="a"/><userTask id="b"/><userTask id="c"/><exclusiveGateway id="choice"/><inclusiveGateway id="join"/><userTask id="after"/><endEvent id="e"/><endEvent id="elsewhere"/>
        ${flow('f1', 's', 'fork')}${flow('f2', 'fork', 'a', '${useA}')}${flow('f3', 'fork', 'b', '${useB}')}${flow('f4', 'fork', 'c', '${useC}')}
        ${flow('f5', 'a', 'join')}${flow('f6', 'b', 'join')}${flow('f7', 'c', 'choice')}${flow('f8', 'choice', 'join', '${toJoin}')}${flow('f9', 'choice', 'elsewhere', '${!toJoin}')}
        ${flow('f10', 'join', 'after')}${flow('f11', 'after', 'e')}`,
      ),
    },
  ]);
  const two = new Instance(defs);
  two.start('p', { useA: true, useB: false, useC: true });
  assert.equal(two.open(), ['a', 'c']);
  two.complete('a');
  assert.equal(two.open(), ['c'], 'the join waits: c may still come');
  two.complete('c', { toJoin: false });
  assert.equal(two.open(), ['after'], 'c ended elsewhere: nothing can come, the join fires');

  const one = new Instance(defs);
  one.start('p', { useA: false, useB: true, useC: false });
  one.complete('b');
  assert.equal(one.open(), ['after']);
  expectError(
    () => new Instance(defs).start('p', { useA: false, useB: false, useC: false }),
    'GATEWAY.NO_OUTGOING_FLOW',
    /for the element with id 'fork'/,
  );
});

test('a parallel join in a loop waits for one token per incoming flow each round', async () => {
  const defs = await deployAll([
    {
      name: 'loop.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><exclusiveGateway id="merge"/><parallelGateway id="fork"/><userTask id="a"/><userTask id="b"/><parallelGateway id="join"/><exclusiveGateway id="again"/><endEvent id="e"/>
        ${flow('f1', 's', 'merge')}${flow('f2', 'merge', 'fork')}${flow('f3', 'fork', 'a')}${flow('f4', 'fork', 'b')}${flow('f5', 'a', 'join')}${flow('f6', 'b', 'join')}
        ${flow('f7', 'join', 'again')}${flow('f8', 'again', 'merge', '${more}')}${flow('f9', 'again', 'e', '${!more}')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p');
  i.complete('a', { more: true });
  i.complete('b');
  assert.equal(i.open(), ['a', 'b'], 'second round');
  i.complete('b', { more: false });
  assert.equal(i.open(), ['a']);
  i.complete('a');
  assert.is(i.status, 'COMPLETED');
});

test('timers: an interrupting boundary cancels its task; a non-interrupting cycle fires its repetitions and keeps it; catch events wait', async () => {
  const defs = await deployAll([
    {
      name: 'timers.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><userTask id="work"/>
        <boundaryEvent id="nag" attachedToRef="work" cancelActivity="false"><timerEventDefinition><timeCycle>R2/PT1H</timeCycle></timerEventDefinition></boundaryEvent>
        <boundaryEvent id="deadline" attachedToRef="work"><timerEventDefinition><timeDate>2026-03-05T00:00:00Z</timeDate></timerEventDefinition></boundaryEvent>
        <userTask id="remind"/><intermediateCatchEvent id="pause"><timerEventDefinition><timeDuration>\${wait}</timeDuration></timerEventDefinition></intermediateCatchEvent><userTask id="late"/><endEvent id="e1"/><endEvent id="e2"/>
        ${flow('f1', 's', 'work')}${flow('f2', 'work', 'e1')}${flow('f3', 'nag', 'remind')}${flow('f4', 'remind', 'e2')}${flow('f5', 'deadline', 'pause')}${flow('f6', 'pause', 'late')}${flow('f7', 'late', 'e1')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p', { wait: 'PT30M' });
  assert.equal(
    Object.values(i.state.timers)
      .map((t) => [t.elementId, t.dueAt])
      .sort(),
    [
      ['deadline', '2026-03-05T00:00:00.000Z'],
      ['nag', '2026-03-01T11:00:00.000Z'],
    ],
  );
  i.fire('nag');
  assert.equal(i.open(), ['remind', 'work']);
  assert.is(
    Object.values(i.state.timers).find((t) => t.elementId === 'nag')?.dueAt,
    '2026-03-01T12:00:00.000Z',
    'the next repetition',
  );
  i.fire('nag');
  assert.not.ok(
    Object.values(i.state.timers).some((t) => t.elementId === 'nag'),
    'R2: no third repetition',
  );
  assert.equal(i.open(), ['remind', 'remind', 'work']);
  i.fire('deadline');
  assert.equal(i.open(), ['remind', 'remind']);
  assert.equal(
    Object.values(i.state.timers).map((t) => [t.elementId, t.dueAt]),
    [['pause', '2026-03-05T00:30:00.000Z']],
  );
  i.fire('pause');
  assert.equal(i.open(), ['late', 'remind', 'remind']);

  const done = new Instance(defs);
  done.start('p', { wait: 'PT30M' });
  const events = done.complete('work');
  assert.equal(events.filter((e) => e.type === 'TimerCanceled').length, 2, 'completing the task cancels its timers');
  assert.equal(Object.keys(done.state.timers), []);
});

test('call activity bindings: latest by default, the deployment, a version', async () => {
  const callee = (task: string) =>
    proc(
      C7,
      `<startEvent id="s"/><userTask id="${task}"/><endEvent id="e"/>${flow('f1', 's', task)}${flow('f2', task, 'e')}`,
      'callee',
    );
  const caller = (attrs: string) =>
    proc(
      C7,
      `<startEvent id="s"/><callActivity id="call" calledElement="callee" ${attrs}/><endEvent id="e"/>${flow('f1', 's', 'call')}${flow('f2', 'call', 'e')}`,
      'caller',
    );
  const defs = await deployAll([
    { name: 'callee-v1', xml: callee('one'), deploymentId: 'd1' },
    { name: 'caller-d', xml: caller('camunda:calledElementBinding="deployment"'), deploymentId: 'd1' },
    { name: 'callee-v2', xml: callee('two'), deploymentId: 'd2' },
  ]);
  const byDeployment = new Instance(defs);
  byDeployment.start('caller');
  assert.equal(byDeployment.open(), ['callee:one'], 'deployment binding: the callee deployed with the caller');
  const latest = await deployAll([
    { name: 'a', xml: callee('one') },
    { name: 'b', xml: callee('two') },
    { name: 'c', xml: caller('') },
  ]);
  const i = new Instance(latest);
  i.start('caller');
  assert.equal(i.open(), ['callee:two'], 'latest by default');
  const pinned = await deployAll([
    { name: 'a', xml: callee('one') },
    { name: 'b', xml: callee('two') },
    { name: 'c', xml: caller('camunda:calledElementBinding="version" camunda:calledElementVersion="1"') },
  ]);
  const v = new Instance(pinned);
  v.start('caller');
  assert.equal(v.open(), ['callee:one']);
  v.complete('one');
  assert.is(v.status, 'COMPLETED', 'the call returns when the called instance ends');
  const missing = await deployAll([{ name: 'c', xml: caller('') }]);
  expectError(() => new Instance(missing).start('caller'), 'CALLED_PROCESS.NOT_FOUND', /callee/);
});

test('the Zeebe dialect: assignment, FEEL conditions, called element and variable mappings', async () => {
  const defs = await deployAll([
    {
      name: 'z.bpmn',
      xml: `<?xml version="1.0"?><definitions ${ZEEBE}><process id="zmain" isExecutable="true"><startEvent id="s"/>
        <userTask id="approve"><extensionElements><zeebe:assignmentDefinition assignee="=owner" candidateGroups="risk, audit"/><zeebe:taskSchedule dueDate="=due"/><zeebe:priorityDefinition priority="80"/><zeebe:formDefinition formKey="form-1"/></extensionElements></userTask>
        <exclusiveGateway id="gw" default="low"/>
        <callActivity id="call"><extensionElements><zeebe:calledElement processId="zsub" propagateAllChildVariables="false"/><zeebe:ioMapping><zeebe:input source="=amount * 2" target="doubled"/><zeebe:output source="=verdict" target="verdict"/></zeebe:ioMapping></extensionElements></callActivity>
        <userTask id="small"/><endEvent id="e"/>
        <sequenceFlow id="f1" sourceRef="s" targetRef="approve"/><sequenceFlow id="f2" sourceRef="approve" targetRef="gw"/>
        <sequenceFlow id="high" sourceRef="gw" targetRef="call"><conditionExpression>=amount &gt; 100</conditionExpression></sequenceFlow>
        <sequenceFlow id="low" sourceRef="gw" targetRef="small"/><sequenceFlow id="f3" sourceRef="call" targetRef="e"/><sequenceFlow id="f4" sourceRef="small" targetRef="e"/></process>
        <process id="zsub" isExecutable="true"><startEvent id="s2"/><userTask id="check"><extensionElements><zeebe:assignmentDefinition assignee="=string(doubled)"/></extensionElements></userTask><endEvent id="e2"/>
        <sequenceFlow id="g1" sourceRef="s2" targetRef="check"/><sequenceFlow id="g2" sourceRef="check" targetRef="e2"/></process></definitions>`,
    },
  ]);
  assert.is(defs[0]!.model.dialect, 'zeebe');
  const i = new Instance(defs);
  i.start('zmain', { owner: 'kermit', due: '2026-03-02T09:00:00Z', amount: 150 });
  const t = i.task('approve');
  assert.equal(
    { assignee: t.assignee, groups: t.candidateGroups, due: t.dueDate, priority: t.priority, form: t.formKey },
    { assignee: 'kermit', groups: ['risk', 'audit'], due: '2026-03-02T09:00:00.000Z', priority: 80, form: 'form-1' },
  );
  i.complete('approve');
  assert.equal(i.open(), ['zsub:check']);
  assert.is(i.task('check').assignee, '300', 'the input mapping computed doubled with FEEL');
  i.complete('check', { verdict: 'ok', noise: 1 });
  assert.is(i.status, 'COMPLETED');
  assert.is(i.state.instances.root!.variables.verdict, 'ok');
  assert.is(i.state.instances.root!.variables.noise, undefined, 'only the mapped output comes back');
  const low = new Instance(defs);
  low.start('zmain', { owner: 'x', due: 'P1D', amount: 10 });
  assert.is(low.task('approve').dueDate, '2026-03-02T10:00:00.000Z', 'a duration is from now');
  low.complete('approve');
  assert.equal(low.open(), ['small'], 'the default flow');
});

test('initiator, candidates, humanPerformer and potentialOwner; a CREATED task is claimed by who completes it', async () => {
  const defs = await deployAll([
    {
      name: 'people.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s" camunda:initiator="starter"/><userTask id="mine" camunda:assignee="\${starter}" camunda:priority="\${prio}"/>
        <userTask id="pool"><potentialOwner><resourceAssignmentExpression><formalExpression>user(kermit), group(management), accounting</formalExpression></resourceAssignmentExpression></potentialOwner></userTask>
        <userTask id="perf"><humanPerformer><resourceAssignmentExpression><formalExpression>\${starter}</formalExpression></resourceAssignmentExpression></humanPerformer></userTask><endEvent id="e"/>
        ${flow('f1', 's', 'mine')}${flow('f2', 'mine', 'pool')}${flow('f3', 'pool', 'perf')}${flow('f4', 'perf', 'e')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  i.start('p', { prio: 7 }, 'gonzo');
  assert.equal([i.task('mine').assignee, i.task('mine').priority, i.task('mine').status], ['gonzo', 7, 'ASSIGNED']);
  i.complete('mine');
  const pool = i.task('pool');
  assert.equal(
    [pool.status, pool.candidateUsers, pool.candidateGroups],
    ['CREATED', ['kermit'], ['management', 'accounting']],
  );
  const events = i.complete('pool', {}, 'kermit');
  assert.equal(
    events.slice(0, 2).map((e) => e.type),
    ['TaskClaimed', 'TaskCompleted'],
  );
  assert.is(i.task('perf').assignee, 'gonzo');
});

test('a loop without a wait state stops at the step limit; nothing is appended', async () => {
  const defs = await deployAll([
    {
      name: 'spin.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><exclusiveGateway id="a"/><task id="b"/>${flow('f1', 's', 'a')}${flow('f2', 'a', 'b')}${flow('f3', 'b', 'a')}`,
      ),
    },
  ]);
  const i = new Instance(defs);
  expectError(() => i.start('p'), 'PROCESS_INSTANCE.STEP_LIMIT');
  assert.equal(i.events, []);
});

test.run();
