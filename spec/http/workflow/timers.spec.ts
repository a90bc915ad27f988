import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { eventually } from '../../core/eventually.ts';
import { BASE, openWorkflowPlatform, startBody } from './workflow-harness.ts';

// BPMN timers are due items of the core's work engine: a boundary timer scheduled before a restart fires
// after it, in the new process, once the (injected) clock passes its due time; an intermediate timer catch
// event waits for its timer; a non-interrupting timer leaves its task open.

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="spec">
  <process id="timed" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="work"/>
    <userTask id="work" name="Work"/>
    <boundaryEvent id="late" attachedToRef="work" cancelActivity="true"><timerEventDefinition><timeDuration>PT10M</timeDuration></timerEventDefinition></boundaryEvent>
    <boundaryEvent id="reminder" attachedToRef="work" cancelActivity="false"><timerEventDefinition><timeDuration>PT5M</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="work" targetRef="end"/>
    <sequenceFlow id="f3" sourceRef="late" targetRef="wait"/>
    <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>
    <sequenceFlow id="f4" sourceRef="wait" targetRef="escalated"/>
    <userTask id="escalated" name="Escalated"/>
    <sequenceFlow id="f5" sourceRef="escalated" targetRef="end"/>
    <sequenceFlow id="f6" sourceRef="reminder" targetRef="remind"/>
    <userTask id="remind" name="Remind"/>
    <sequenceFlow id="f7" sourceRef="remind" targetRef="end2"/>
    <endEvent id="end"/>
    <endEvent id="end2"/>
  </process>
</definitions>`;

test('a timer scheduled before a restart fires after it; catch events wait; non-interrupting timers keep the task', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'workflow-timers-'));
  const clock = manualClock(new Date());
  try {
    const first = await openWorkflowPlatform({ dir, clock, setup: true });
    let instanceId: string;
    try {
      assert.is((await first.deploy('timed.bpmn', xml)).status, 201);
      const s = await first.call('POST', `${BASE}/process-instances`, startBody('timed', 'timed-1'));
      assert.is(s.status, 200, JSON.stringify(s.body));
      instanceId = s.body.content[0].processInstanceId;
      const inst = await first.call('GET', `${BASE}/process-instances/${instanceId}`);
      assert.equal(inst.body.timers.map((t: { elementId: string }) => t.elementId).sort(), ['late', 'reminder']);
    } finally {
      await first.stop();
    }

    // the clock passes both boundary timers while nothing runs; a new process on the same data fires them
    clock.advance(11 * 60_000);
    const second = await openWorkflowPlatform({ dir, clock, setup: false });
    try {
      const tasksOf = async () => {
        const r = await second.call('GET', `${BASE}/process-instances/${instanceId}`);
        return (r.body.tasks as Array<{ taskDefinitionKey: string }>).map((t) => t.taskDefinitionKey).sort();
      };
      // the interrupting timer (10 min) canceled `work`; the reminder (5 min) fired before it and left `remind`
      await eventually(
        async () => ((await tasksOf()).join() === 'remind' ? true : undefined),
        'the timers fired after the restart',
      );
      const inst = await second.call('GET', `${BASE}/process-instances/${instanceId}`);
      assert.equal(inst.body.tokens.map((t: { elementId: string }) => t.elementId).sort(), ['remind', 'wait']);
      assert.equal(
        inst.body.timers.map((t: { elementId: string }) => t.elementId),
        ['wait'],
        'the catch event waits for its hour',
      );
      const all = await second.call(
        'GET',
        `${BASE}/tasks/byBusinessKey?processDefinitionKey=timed&workflowBusinessKey=timed-1&includeCompleted=true`,
      );
      assert.is(
        all.body.content.find((t: { taskDefinitionKey: string }) => t.taskDefinitionKey === 'work').status,
        'CANCELED',
        'the interrupted task is CANCELED',
      );

      clock.advance(60 * 60_000);
      await eventually(
        async () => ((await tasksOf()).join() === 'escalated,remind' ? true : undefined),
        'the catch event fired',
      );
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
