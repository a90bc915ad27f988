import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizedHash, parseBpmn } from '../../../commands/workflow/bpmn/bpmn.parse.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { C7, flow, proc, ZEEBE } from '../../domain/workflow/engine-driver.ts';

// The parse step of a deployment: BPMN XML (bpmn-moddle plus the dialect's extension) to the engine's
// process model, with 400s that name the file, the element, its id and its line.
const PLAIN =
  'xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:activiti="http://activiti.org/bpmn" targetNamespace="spec"';

async function refused(xml: string, code: string): Promise<{ message: string; details: Record<string, unknown> }> {
  try {
    await parseBpmn(xml, 'f.bpmn');
  } catch (err) {
    assert.ok(isDomainError(err), String(err));
    assert.is(err.code, code, err.message);
    assert.is(err.status, 400);
    return { message: err.message, details: err.details as Record<string, unknown> };
  }
  return assert.unreachable(`expected ${code}`) as never;
}

test('every element outside the supported list is a 400 naming it, its id and its line', async () => {
  const cases: Array<[string, string, string]> = [
    ['<receiveTask id="x"/>', 'receiveTask', ''],
    ['<eventBasedGateway id="x"/>', 'eventBasedGateway', ''],
    ['<complexGateway id="x"/>', 'complexGateway', ''],
    ['<transaction id="x"><startEvent id="i"/></transaction>', 'transaction', ''],
    ['<subProcess id="x" triggeredByEvent="true"><startEvent id="i"/></subProcess>', 'subProcess', 'triggeredByEvent'],
    ['<userTask id="x"><multiInstanceLoopCharacteristics/></userTask>', 'userTask', 'multi-instance'],
    [
      '<intermediateCatchEvent id="x"><messageEventDefinition/></intermediateCatchEvent>',
      'intermediateCatchEvent',
      'messageEventDefinition',
    ],
    [
      '<intermediateThrowEvent id="x"><signalEventDefinition/></intermediateThrowEvent>',
      'intermediateThrowEvent',
      'signalEventDefinition',
    ],
    [
      '<userTask id="t"/><boundaryEvent id="x" attachedToRef="t"><messageEventDefinition/></boundaryEvent>',
      'boundaryEvent',
      'messageEventDefinition',
    ],
    ['<endEvent id="x"><messageEventDefinition/></endEvent>', 'endEvent', 'messageEventDefinition'],
  ];
  for (const [element, type, detail] of cases) {
    const r = await refused(proc(C7, `<startEvent id="s"/>\n${element}`), 'DEPLOYMENT.UNSUPPORTED_ELEMENT');
    assert.equal([r.details.element, r.details.id, r.details.line], [type, 'x', 2], element);
    assert.ok(
      r.message.includes(`<${type}> 'x'`) && r.message.includes('line 2') && r.message.includes(detail),
      r.message,
    );
  }
  const startedByMessage = await refused(
    proc(C7, '\n\n<startEvent id="s"><messageEventDefinition/></startEvent>'),
    'DEPLOYMENT.UNSUPPORTED_ELEMENT',
  );
  assert.is(startedByMessage.details.line, 3, 'the line in the file');
  const unknown = await refused(proc(C7, '<startEvent id="s"/>\n<fooTask id="y"/>'), 'DEPLOYMENT.UNSUPPORTED_ELEMENT');
  assert.is(unknown.details.element, 'fooTask');
  assert.is(unknown.details.line, 2);
});

test('XML that is not well-formed: 400 with line and column (1-based)', async () => {
  const r = await refused(
    '<?xml version="1.0"?>\n<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">\n  <process id="p"></proces>\n</definitions>',
    'DEPLOYMENT.INVALID_XML',
  );
  assert.is(r.details.line, 3);
  assert.is(r.details.column, 19, 'where </proces> starts');
  assert.match(r.message, /line 3, column 19/);
  await refused('just text', 'DEPLOYMENT.INVALID_XML');
  await refused('<notBpmn xmlns="urn:x"/>', 'DEPLOYMENT.INVALID_XML');
});

test('structure: one none start per scope, known flow ends, defaults that leave their gateway, conditions that parse', async () => {
  await refused(proc(C7, '<userTask id="t"/>'), 'DEPLOYMENT.INVALID');
  await refused(proc(C7, '<startEvent id="a"/><startEvent id="b"/>'), 'DEPLOYMENT.INVALID');
  await refused(proc(C7, `<startEvent id="s"/>${flow('f', 's', 'nowhere')}`), 'DEPLOYMENT.INVALID');
  await refused(
    proc(
      C7,
      `<startEvent id="s"/><subProcess id="sub"><startEvent id="in"/><task id="x"/></subProcess>${flow('f', 's', 'x')}`,
    ),
    'DEPLOYMENT.INVALID',
  );
  await refused(
    proc(
      C7,
      `<startEvent id="s"/><exclusiveGateway id="g" default="other"/><task id="a"/><task id="b"/>${flow('f1', 's', 'g')}${flow('f2', 'g', 'a')}${flow('other', 'a', 'b')}`,
    ),
    'DEPLOYMENT.INVALID',
  );
  const bad = await refused(
    proc(C7, `<startEvent id="s"/><task id="a"/>${flow('f1', 's', 'a', '${x ==}')}`),
    'DEPLOYMENT.INVALID',
  );
  assert.match(bad.message, /condition of 'f1' does not parse/);
  await refused(
    proc(
      C7,
      `<startEvent id="s"/><userTask id="t"/><boundaryEvent id="b" attachedToRef="t"><timerEventDefinition><timeDuration>ten minutes</timeDuration></timerEventDefinition></boundaryEvent>`,
    ),
    'DEPLOYMENT.INVALID',
  );
  await refused(
    `<definitions ${C7}><process id="p" isExecutable="false"><startEvent id="s"/></process></definitions>`,
    'DEPLOYMENT.INVALID',
  );
});

test('the graph comes from sourceRef/targetRef: flows without ids, no <incoming>/<outgoing>, data and annotations ignored', async () => {
  const parsed = await parseBpmn(
    proc(
      C7,
      `<startEvent id="s"/><dataObject id="d"/><textAnnotation id="n"><text>note</text></textAnnotation><userTask id="t"/><endEvent id="e"/><sequenceFlow sourceRef="s" targetRef="t"/><sequenceFlow sourceRef="t" targetRef="e"/>`,
    ),
    'f.bpmn',
  );
  const m = parsed.models[0]!;
  assert.equal(Object.keys(m.flows), ['flow#1', 'flow#2']);
  assert.equal(m.elements.t!.incoming, ['flow#1']);
  assert.equal(m.elements.t!.outgoing, ['flow#2']);
  assert.equal(Object.keys(m.elements).sort(), ['e', 's', 't']);
});

test('dialects by namespace: Camunda 7, Zeebe, plain with Activiti attributes; a collaboration with two processes', async () => {
  assert.is((await parseBpmn(proc(C7, '<startEvent id="s"/>'), 'a')).dialect, 'camunda7');
  assert.is((await parseBpmn(proc(ZEEBE, '<startEvent id="s"/>'), 'b')).dialect, 'zeebe');
  const plain = await parseBpmn(
    proc(PLAIN, '<startEvent id="s"/><userTask id="t" activiti:assignee="${who}" activiti:candidateGroups="g1,g2"/>'),
    'c',
  );
  assert.is(plain.dialect, 'plain');
  const t = plain.models[0]!.elements.t;
  assert.ok(t?.type === 'userTask');
  assert.equal(
    [t.assignee, t.candidateGroups],
    [
      { language: 'juel', text: '${who}' },
      { language: 'literal', text: 'g1,g2' },
    ],
  );
  const two = await parseBpmn(
    `<definitions ${C7}><collaboration id="c"><participant id="p1" processRef="a"/><participant id="p2" processRef="b"/></collaboration><process id="a" isExecutable="true"><startEvent id="s1"/></process><process id="b" isExecutable="true"><startEvent id="s2"/></process></definitions>`,
    'd',
  );
  assert.equal(
    two.models.map((m) => m.key),
    ['a', 'b'],
  );
});

test('due dates computed by code are dropped with a warning; the normalized hash ignores what XML does not mean', async () => {
  const r = await parseBpmn(
    proc(C7, '<startEvent id="s"/><userTask id="t" camunda:dueDate="${dateTime().plusDays(1).toDate()}"/>'),
    'w.bpmn',
  );
  assert.is((r.models[0]!.elements.t as { dueDate?: unknown }).dueDate, undefined);
  assert.match(r.warnings[0]!, /due date of 't'.*calls code and is ignored/);
  const xml = proc(C7, '<startEvent id="s"/><userTask id="t"/>');
  assert.is(normalizedHash(xml), normalizedHash(`\uFEFF${xml.replace(/></g, '>\r\n  <')}<!-- edited -->\n`));
  assert.is.not(normalizedHash(xml), normalizedHash(xml.replace('id="t"', 'id="u"')));
});

test.run();
