import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDefinitionCatalog } from '../../../commands/workflow/definition.catalog.ts';
import { createDeployCommands } from '../../../commands/workflow/deploy.commands.ts';
import { createIndexSchemaCommands } from '../../../commands/workflow/index-schemas.commands.ts';
import { createInstanceCommands } from '../../../commands/workflow/instance.commands.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { createLogReader } from '../../../infra/core/log-reader.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { createProjectionGroup } from '../../../projections/core/projection-group.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { rebuildSearchIndex } from '../../../projections/workflow/index-rebuild.ts';
import { createTaskQueries } from '../../../projections/workflow/task.queries.ts';
import { type IndexJob, TASKS_PROJECTION, tasksProjection } from '../../../projections/workflow/tasks.projection.ts';
import { sequenceXml } from '../../http/workflow/workflow-harness.ts';

// An index rebuild copies the task documents into the next generation in pages, then switches in one
// transaction that also copies the documents changed during the copy: nothing that happens meanwhile is lost.

test('changes made while the index is being rebuilt are in the new generation after the switch', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wf-rebuild-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  const group = createProjectionGroup({ eventStore, readStore, projections: [tasksProjection], clock: systemClock });
  const reader = createLogReader({ eventStore, consumers: group.consumers, retryDelayMs: 5 });
  reader.start();
  const settle = async () => reader.reached(await eventStore.headPosition());
  try {
    const catalog = createDefinitionCatalog({ eventStore });
    const ctx = { tenant: 'acme', actor: 'spec' };
    await createDeployCommands({ eventStore, clock: systemClock, catalog }).deploy(
      [{ name: 'k.bpmn', content: sequenceXml('k', ['a', 'b']) }],
      ctx,
      'd1',
    );
    const instances = createInstanceCommands({ eventStore, clock: systemClock, catalog });
    const started: Array<Awaited<ReturnType<typeof instances.start>>> = [];
    for (let i = 0; i < 7; i++) {
      started.push(
        await instances.start(
          {
            processDefinitionKey: 'k',
            indexSchema: 'idx',
            queryVariables: { TaskType: 't', WorkflowBusinessKey: `bk-${i}`, Score: i },
          },
          ctx,
          `s${i}`,
        ),
      );
    }
    const schemas = createIndexSchemaCommands({ eventStore, clock: systemClock });
    await schemas.define('idx', [{ name: 'Score', type: 'number', includeAll: false }], ctx, 'schema-1');
    await settle();
    const queries = createTaskQueries({ readStore, eventStore });
    assert.equal(
      (await queries.index('acme', 'idx')).building?.generation,
      2,
      'tasks exist: the first schema is built beside',
    );

    const jobs = await readModel<IndexJob>(readStore, TASKS_PROJECTION, 'jobs').find({});
    assert.is(jobs.length, 1);
    const outcome = await rebuildSearchIndex({
      readStore,
      job: jobs[0]!,
      now: new Date().toISOString(),
      pageSize: 3,
      // a completion lands after the bulk copy read its task, before the switch
      afterBulk: async () => {
        await instances.complete(started[0]!.tasks[0]!.task.id, { controlVariables: {} }, ctx, 'c0');
        await settle();
      },
    });
    assert.equal(outcome, { kind: 'switched', generation: 2, revision: 1, documents: 7 });
    const state = await queries.index('acme', 'idx');
    assert.equal([state.generation, state.building], [2, undefined]);
    const r = await queries.search('acme', {
      Module: 'idx',
      FromRangeConditions: { Score: 0 },
      SortField: 'Score',
      SortType: 'asc',
      PageSize: 20,
    });
    const docs = r.results[0]!.esDocs as Array<{ Score: number; TaskDefinitionKey: string; Status: string }>;
    assert.is(r.total, 8, '7 first tasks and the one the completion created');
    assert.equal(
      docs
        .filter((d) => d.Score === 0)
        .map((d) => [d.TaskDefinitionKey, d.Status])
        .sort(),
      [
        ['a', 'COMPLETED'],
        ['b', 'CREATED'],
      ],
      'the change made during the rebuild is there',
    );
    assert.is((await readModel<IndexJob>(readStore, TASKS_PROJECTION, 'jobs').find({})).length, 0, 'the job is done');
    const names = await readStore.listCollections();
    assert.ok(names.includes('workflow.tasks__acme.idx.2__search__g1'));
    assert.ok(
      names.includes('workflow.tasks__acme.idx.1__search__g1'),
      'the previous generation stays for readers that resolved it',
    );
  } finally {
    await reader.stop();
    await eventStore.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
