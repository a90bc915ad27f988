import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDefinitionCatalog } from '../../../commands/workflow/definition.catalog.ts';
import { createDeployCommands } from '../../../commands/workflow/deploy.commands.ts';
import { createInstanceCommands } from '../../../commands/workflow/instance.commands.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createLogReader } from '../../../infra/core/log-reader.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { createProjectionGroup } from '../../../projections/core/projection-group.ts';
import { createInstanceQueries, instancesProjection } from '../../../projections/workflow/instances.projection.ts';
import { createTimerQueries, timersProjection } from '../../../projections/workflow/timers.projection.ts';

// The instance list and the pending timers from the log: a called instance is listed with its parent,
// both end together; each tenant sees its own; timers come soonest first and leave when canceled.

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="spec">
  <process id="parent" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="p1" sourceRef="s" targetRef="call"/>
    <callActivity id="call" calledElement="child"/><sequenceFlow id="p2" sourceRef="call" targetRef="e"/>
    <endEvent id="e"/>
  </process>
  <process id="child" isExecutable="true">
    <startEvent id="cs"/><sequenceFlow id="c1" sourceRef="cs" targetRef="work"/>
    <userTask id="work"/>
    <boundaryEvent id="late" attachedToRef="work" cancelActivity="true"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="c2" sourceRef="work" targetRef="ce"/><sequenceFlow id="c3" sourceRef="late" targetRef="ce"/>
    <endEvent id="ce"/>
  </process>
</definitions>`;

test('called instances are listed with their parent and end with it; timers per tenant, soonest first', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wf-lists-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  const group = createProjectionGroup({
    eventStore,
    readStore,
    projections: [instancesProjection, timersProjection],
    clock,
  });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  reader.start();
  const settle = async () => reader.reached(await eventStore.headPosition());
  try {
    const catalog = createDefinitionCatalog({ eventStore });
    const instances = createInstanceCommands({ eventStore, clock, catalog });
    const start = (tenant: string, bk: string) =>
      instances.start(
        { processDefinitionKey: 'parent', queryVariables: { TaskType: 't', WorkflowBusinessKey: bk } },
        { tenant, actor: 'spec' },
        `${tenant}/${bk}`,
      );
    for (const tenant of ['acme', 'beta'])
      await createDeployCommands({ eventStore, clock, catalog }).deploy(
        [{ name: 'p.bpmn', content: xml }],
        { tenant, actor: 'spec' },
        `d/${tenant}`,
      );
    const first = await start('acme', 'one');
    clock.advance(10 * 60_000);
    const second = await start('acme', 'two');
    await start('beta', 'three');
    await settle();

    const list = createInstanceQueries(readStore);
    const all = await list.list('acme', { limit: 50, offset: 0 });
    assert.is(all.total, 4);
    const childOf = (root: string) => all.items.find((i) => i.parentInstanceId === root);
    assert.equal(
      all.items.filter((i) => i.parentInstanceId === null).map((i) => i.businessKey),
      ['two', 'one'],
    );
    assert.equal([childOf(first.instanceId)?.processKey, childOf(first.instanceId)?.businessKey], ['child', 'one']);
    assert.is(childOf(first.instanceId)?.rootInstanceId, first.instanceId);

    const timers = createTimerQueries(readStore);
    const pending = await timers.list('acme', { limit: 50, offset: 0 });
    assert.equal(
      pending.items.map((t) => [t.instanceId, t.elementId, t.boundary, t.dueAt]),
      [
        [childOf(first.instanceId)!.id, 'late', true, '2026-03-01T11:00:00.000Z'],
        [childOf(second.instanceId)!.id, 'late', true, '2026-03-01T11:10:00.000Z'],
      ],
    );
    assert.is((await timers.list('beta', { limit: 50, offset: 0 })).total, 1);
    assert.is((await timers.list('acme', { limit: 50, offset: 0, dueBefore: '2026-03-01T11:05:00.000Z' })).total, 1);

    // the child's task completed: its timer is canceled, the child and its parent complete
    await instances.complete(first.tasks[0]!.task.id, {}, { tenant: 'acme', actor: 'spec' }, 'c1');
    await settle();
    assert.equal(
      (await timers.list('acme', { limit: 50, offset: 0 })).items.map((t) => t.instanceId),
      [childOf(second.instanceId)!.id],
    );
    const completed = await list.list('acme', { state: 'COMPLETED', limit: 50, offset: 0 });
    assert.equal(completed.items.map((i) => i.processKey).sort(), ['child', 'parent']);
    assert.ok(completed.items.every((i) => i.endedAt === '2026-03-01T10:10:00.000Z'));
    assert.equal(
      (await list.list('acme', { state: 'ACTIVE', processDefinitionKey: 'parent', limit: 50, offset: 0 })).items.map(
        (i) => i.businessKey,
      ),
      ['two'],
    );
    assert.is((await list.list('beta', { limit: 50, offset: 0 })).total, 2);
  } finally {
    await reader.stop();
    await eventStore.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
