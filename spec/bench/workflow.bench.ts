// `npm run bench` (section "workflow"): process instances/s for a start + 3 completions process through the
// command handlers (the instance stream read and folded on every command) and over HTTP, beside
// bpmn-engine running the same process with its state saved and recovered per command; task search and
// by-business-key latency at 100,000 tasks.
// Sizes: BENCH_WORKFLOW_INSTANCES (default 2000), BENCH_WORKFLOW_TASKS (100000), BENCH_WORKFLOW_SECONDS (5).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Engine } from 'bpmn-engine';
import { envelopesFor } from '../../commands/core/envelopes.ts';
import { createDefinitionCatalog } from '../../commands/workflow/definition.catalog.ts';
import { createDeployCommands } from '../../commands/workflow/deploy.commands.ts';
import { createIndexSchemaCommands } from '../../commands/workflow/index-schemas.commands.ts';
import { createInstanceCommands, instanceStream } from '../../commands/workflow/instance.commands.ts';
import { instanceDecider } from '../../domain/workflow/instance.decider.ts';
import type { DefinitionLookup } from '../../domain/workflow/model/process-model.ts';
import { withBatchedAppends } from '../../infra/core/batched-appends.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../infra/sqlite/read-store.sqlite.ts';
import { rebuildProjection } from '../../projections/core/rebuild.ts';
import { createTaskQueries } from '../../projections/workflow/task.queries.ts';
import { tasksProjection } from '../../projections/workflow/tasks.projection.ts';
import { sequenceXml } from '../http/workflow/workflow-harness.ts';
import { spawnBenchServer } from './bench-server.ts';
import { perSecond, printRow, printSection, quantile } from './report.ts';
import { taskSearchThroughPortal } from './workflow-portal.ts';

const INSTANCES = Number(process.env.BENCH_WORKFLOW_INSTANCES ?? 2000);
const TASKS = Number(process.env.BENCH_WORKFLOW_TASKS ?? 100_000);
const SECONDS = Number(process.env.BENCH_WORKFLOW_SECONDS ?? 5);
const CONCURRENCY = 16;
const PORTAL_SEARCHES = Number(process.env.BENCH_WORKFLOW_PORTAL_SEARCHES ?? 300);
const BASELINE_INSTANCES = 200;
const XML = sequenceXml('bench', ['one', 'two', 'three'], { assignee: 'kermit' });
const ctx = { tenant: 'bench', actor: 'bench' };

const ms = (n: number) => `${n.toFixed(2)} ms`;

/** bpmn-engine: each command recovers the engine from the saved state, resumes, signals the waiting user task, saves the state (SQLite, WAL) */
async function bpmnEngineBaseline(dir: string): Promise<number> {
  const db = new Database(path.join(dir, 'bpmn-engine.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE state (id TEXT PRIMARY KEY, json TEXT NOT NULL)');
  const save = db.prepare(
    'INSERT INTO state (id, json) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json',
  );
  const load = db.prepare('SELECT json FROM state WHERE id = ?').pluck();
  const instance = async (id: string) => {
    let engine = new Engine({ name: 'bench', source: XML });
    await engine.execute();
    save.run(id, JSON.stringify(await engine.getState()));
    for (let i = 0; i < 3; i++) {
      engine = new Engine({ name: 'bench' }).recover(JSON.parse(load.get(id) as string));
      const execution = await engine.resume();
      const [task] = execution.getPostponed();
      execution.signal({ id: task!.id });
      save.run(id, JSON.stringify(await engine.getState()));
    }
    if (engine.state !== 'idle') throw new Error(`bpmn-engine instance ${id} did not end: ${engine.state}`);
  };
  for (let i = 0; i < 20; i++) await instance(`warm-${i}`);
  const start = performance.now();
  for (let i = 0; i < BASELINE_INSTANCES; i++) await instance(`i-${i}`);
  const rate = perSecond(BASELINE_INSTANCES, performance.now() - start);
  db.close();
  return rate;
}

/** ours through the command handlers, `concurrency` instances at a time (group commit as in the platform) */
async function commandHandlers(dir: string, concurrency: number, count: number): Promise<number> {
  const base = createSqliteEventStore({ file: path.join(dir, `events-${concurrency}.sqlite`) });
  const eventStore = withBatchedAppends(base);
  try {
    const catalog = createDefinitionCatalog({ eventStore });
    await createDeployCommands({ eventStore, clock: systemClock, catalog }).deploy(
      [{ name: 'bench.bpmn', content: XML }],
      ctx,
      'deploy',
    );
    const instances = createInstanceCommands({ eventStore, clock: systemClock, catalog });
    let n = 0;
    const one = async () => {
      const i = ++n;
      let r = await instances.start(
        {
          processDefinitionKey: 'bench',
          queryVariables: { TaskType: 'bench', WorkflowBusinessKey: `bk-${concurrency}-${i}` },
        },
        ctx,
        `s-${concurrency}-${i}`,
      );
      for (let step = 0; step < 3; step++)
        r = await instances.complete(r.tasks[0]!.task.id, {}, ctx, `c-${concurrency}-${i}-${step}`);
      if (!r.ended) throw new Error('the instance did not end');
    };
    for (let i = 0; i < 50; i++) await one();
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (n < count + 50) await one();
      }),
    );
    return perSecond(n - 50, performance.now() - start);
  } finally {
    await base.close();
  }
}

/** over HTTP: CONCURRENCY loops, each start + 3 completions, against the platform in its own process */
async function overHttp(): Promise<{ rate: number; p50: number; p99: number }> {
  const server = await spawnBenchServer<{ url: string; token: string }>(
    [path.join(import.meta.dirname, 'workflow-server.ts'), XML],
    'workflow server',
  );
  const { url, token } = server.ready;
  try {
    let n = 0;
    const call = async (p: string, body: unknown) => {
      const res = await fetch(`${url}/workflow/v1${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text}`);
      return JSON.parse(text) as { content: Array<{ id: string }> };
    };
    const one = async () => {
      const started = performance.now();
      const bk = `http-${++n}`;
      let r = await call('/process-instances', {
        processDefinitionKey: 'bench',
        queryVariables: { TaskType: 'bench', WorkflowBusinessKey: bk },
      });
      for (let step = 0; step < 3; step++) r = await call(`/tasks/${r.content[0]!.id}/complete`, {});
      if (r.content.length !== 0) throw new Error('not ended');
      return performance.now() - started;
    };
    for (let i = 0; i < 50; i++) await one();
    const latencies: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) latencies.push(await one());
      }),
    );
    const rate = perSecond(latencies.length, performance.now() - start);
    latencies.sort((a, b) => a - b);
    return { rate, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  } finally {
    await server.stop();
  }
}

const REGIONS = ['eu', 'us', 'apac', 'latam', 'mea'];
/** the i-th search: exact TaskType + Region, a range of 100 on Amount, newest first, one page of 20 */
const searchAt = (i: number) => {
  const lo = i % 900;
  return {
    Module: 'claims',
    Conditions: { TaskType: `type-${i % 10}`, Region: REGIONS[i % 5]! },
    FromRangeConditions: { Amount: lo },
    ToRangeConditions: { Amount: lo + 100 },
    SortField: 'CreatedDate',
    SortType: 'desc' as const,
    PageNo: 1,
    PageSize: 20,
  };
};

/** TASKS open tasks in the log (one instance each, generated by the decider, appended in batches), then the task projection rebuilt */
async function searchAtScale(dir: string) {
  // a DATA_DIR's two files, so that the platform starts on the same store for the portal's figure
  mkdirSync(dir, { recursive: true });
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  try {
    const catalog = createDefinitionCatalog({ eventStore });
    await createIndexSchemaCommands({ eventStore, clock: systemClock }).define(
      'claims',
      [
        { name: 'Amount', type: 'number', includeAll: false },
        { name: 'Region', type: 'string', includeAll: true },
      ],
      ctx,
      'schema',
    );
    await createDeployCommands({ eventStore, clock: systemClock, catalog }).deploy(
      [{ name: 'bench.bpmn', content: XML }],
      ctx,
      'deploy',
    );
    const definition = (await catalog.load('bench', { kind: 'latest', key: 'bench' }))!;
    const lookup: DefinitionLookup = (ref) => (ref.kind === 'id' && ref.id === definition.id ? definition : null);
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const generated = performance.now();
    for (let i = 0; i < TASKS; i += 500) {
      const batch = [];
      for (let j = i; j < Math.min(TASKS, i + 500); j++) {
        const rootId = `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`;
        const now = new Date(t0 + j * 1000).toISOString();
        const queryVariables = {
          TaskType: `type-${j % 10}`,
          WorkflowBusinessKey: `bk-${j}`,
          Amount: j % 1000,
          Region: REGIONS[j % 5],
        };
        const events = instanceDecider.decide(
          {
            type: 'StartProcessInstance',
            rootId,
            definition,
            businessKey: `bk-${j}`,
            variables: {},
            queryVariables,
            indexSchema: 'claims',
            now,
            lookup,
          },
          instanceDecider.initialState(),
        );
        const stream = instanceStream('bench', rootId);
        batch.push({
          stream,
          events: envelopesFor(events, { stream, commandId: `gen-${j}`, now, context: ctx }),
          expected: 'no_stream' as const,
        });
      }
      await eventStore.appendMany(batch);
    }
    const appendMs = performance.now() - generated;
    const rebuilt = performance.now();
    const r = await rebuildProjection({ eventStore, readStore, clock: systemClock, projection: tasksProjection });
    const rebuildMs = performance.now() - rebuilt;
    const queries = createTaskQueries({ readStore, eventStore });

    const measure = async (fn: (i: number) => Promise<unknown>, n: number) => {
      for (let i = 0; i < 20; i++) await fn(i);
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        await fn(i * 7919);
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
    };
    const searchOnce = async (i: number) => {
      const res = await queries.search('bench', searchAt(i));
      if (res.total === 0) throw new Error('a bench search found nothing');
    };
    const search = await measure(searchOnce, 300);
    const byKey = await measure(async (i) => {
      const docs = await queries.byBusinessKey('bench', 'bench', `bk-${i % TASKS}`);
      if (docs.length !== 1) throw new Error('by business key found nothing');
    }, 1000);
    return { search, byKey, appendMs, rebuildMs, events: r.events };
  } finally {
    await eventStore.close();
    await readStore.close();
  }
}

export async function workflowBench(): Promise<void> {
  printSection('workflow');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-wf-'));
  try {
    const baseline = await bpmnEngineBaseline(dir);
    const sequential = await commandHandlers(dir, 1, Math.min(INSTANCES, 1000));
    const concurrent = await commandHandlers(dir, CONCURRENCY, INSTANCES);
    const be = {
      name: `bpmn-engine ${'25'}, the same process, state saved (SQLite) and recovered per command, one instance at a time`,
      figure: baseline,
    };
    printRow({
      name: 'workflow: start + 3 completions through the command handlers, one instance at a time',
      figure: sequential,
      unit: 'instances/s',
      baseline: be,
      setup: `${Math.min(INSTANCES, 1000)} instances of a 3-user-task process; each command reads and folds the instance stream, decides with the interpreter, appends with the expected revision (SQLite WAL)`,
      goal: { of: 'ratio', op: '>=', value: 20 },
    });
    printRow({
      name: `workflow: the same, ${CONCURRENCY} instances at a time (group commit)`,
      figure: concurrent,
      unit: 'instances/s',
      baseline: be,
      setup: `${INSTANCES} instances, ${CONCURRENCY} concurrent loops, appends of one event-loop turn committed together (withBatchedAppends, as in the platform)`,
    });
    const http = await overHttp();
    printRow({
      name: `workflow: start + 3 completions over HTTP, ${CONCURRENCY} loops`,
      figure: http.rate,
      unit: 'instances/s',
      baseline: be,
      setup: `the platform (identity + workflow, workers on) in its own process, ${SECONDS} s after 50 warm-up instances; per instance 4 requests with bearer tokens; instance latency p50 ${ms(http.p50)}, p99 ${ms(http.p99)}`,
    });
    const searchDir = path.join(dir, 'search');
    const s = await searchAtScale(searchDir);
    printRow({
      name: `workflow: task search at ${TASKS.toLocaleString('en-US')} tasks (exact TaskType + Region, range on Amount, sort CreatedDate, one page of 20)`,
      figure: s.search.p50,
      unit: 'ms p50',
      setup: `p99 ${ms(s.search.p99)}; SQLite read store, one collection per tenant, index and generation with a read-store index per field; the tasks were appended in ${(s.appendMs / 1000).toFixed(1)} s and the projection rebuilt from ${s.events.toLocaleString('en-US')} events in ${(s.rebuildMs / 1000).toFixed(1)} s (${Math.round(perSecond(s.events, s.rebuildMs)).toLocaleString('en-US')} events/s)`,
    });
    const proxied = await taskSearchThroughPortal({
      dataDir: searchDir,
      tenant: 'bench',
      body: searchAt,
      count: PORTAL_SEARCHES,
      warmup: 50,
    });
    printRow({
      name: `portal: the task list's search p95 through the portal's API call, at ${TASKS.toLocaleString('en-US')} tasks`,
      figure: proxied.portal.p95,
      unit: 'ms',
      baseline: {
        name: 'the same search straight to the workflow API with a bearer token, p95',
        figure: proxied.direct.p95,
      },
      setup: `the store above, the platform started on it (identity, workflow and the portal in one process, workers on); the task list's request (POST /workflow/v1/tasks, the search above) as \`/portal/api/workflow/v1/tasks\` with the session cookie of a real sign-in, alternating with the same search sent direct, ${PORTAL_SEARCHES} each after 50 warm-up pairs, over HTTP keep-alive; p50 ${ms(proxied.portal.p50)} against ${ms(proxied.direct.p50)}. Goal: the portal's session lookup and proxying add at most half of the API's own p95`,
      goal: { of: 'ratio', op: '<=', value: 1.5 },
    });
    printRow({
      name: `workflow: tasks by business key at ${TASKS.toLocaleString('en-US')} tasks`,
      figure: s.byKey.p50,
      unit: 'ms p50',
      setup: `p99 ${ms(s.byKey.p99)}; includes the read-your-writes check (the projection's checkpoint against the log)`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
