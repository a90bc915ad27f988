import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  corpusAvailable,
  corpusXml,
  errorParts,
  filesFor,
  manifest,
  startVariables,
  taskLabel,
  type Walk,
  type WalkExpect,
} from '../../domain/workflow/corpus.ts';
import { BASE, EXTERNAL, startWorkflowPlatform, type WorkflowPlatform } from './workflow-harness.ts';

// Every walk of the acceptance corpus (../shared/corpora/bpmn/manifest.json) through the HTTP API: deploy
// the walk's files (multipart), start with its variables, complete the listed tasks with their
// controlVariables, fire the boundary timer with the injected clock, and after each step compare the open
// user tasks (GET /tasks/byBusinessKey of the walk's process and of the processes it calls), the end, or
// the expected error (a refused step changes nothing).

type Ctx = { p: WorkflowPlatform };
const test = suite<Ctx>('workflow HTTP API: the acceptance corpus walks', {} as Ctx);

if (!corpusAvailable()) {
  console.log('SKIPPED: workflow corpus walks over HTTP (../shared/corpora/bpmn not found)');
} else {
  const m = manifest();
  test.before(async (ctx) => {
    ctx.p = await startWorkflowPlatform({ enable: ['acme'] });
  });
  test.after(async (ctx) => {
    await ctx.p.stop();
  });

  let seq = 0;
  for (const file of m.files) {
    for (const walk of file.walks as Walk[]) {
      test(`${file.file}: ${walk.name}`, async ({ p }) => {
        const files = filesFor(m, file.file);
        const deployed = await p.deploy(
          'acme',
          files.map((f) => ({ name: f, xml: corpusXml(f) })),
        );
        assert.is(deployed.status, 201, JSON.stringify(deployed.body));
        const rootKey = file.processIds[0]!;
        const keys = [...new Set(files.flatMap((f) => m.files.find((x) => x.file === f)!.processIds))];
        const businessKey = `walk-${++seq}`;
        const base = seq % 2 === 0 ? BASE : EXTERNAL; // both bases serve the API

        const open = async () => {
          const tasks: Array<{ label: string; id: string; assignee: string | null }> = [];
          for (const key of keys) {
            const r = await p.call(
              'GET',
              `${base}/tasks/byBusinessKey?processDefinitionKey=${encodeURIComponent(key)}&workflowBusinessKey=${businessKey}`,
              { tenant: 'acme' },
            );
            assert.is(r.status, 200, JSON.stringify(r.body));
            for (const t of r.body.content as Array<{
              id: string;
              taskDefinitionKey: string;
              assignee: string | null;
              businessKey: string;
            }>) {
              assert.is(t.businessKey, businessKey, 'a called instance inherits the business key');
              tasks.push({ label: taskLabel(rootKey, key, t.taskDefinitionKey), id: t.id, assignee: t.assignee });
            }
          }
          return tasks.sort((a, b) => (a.label < b.label ? -1 : 1));
        };
        let instanceId: string | undefined;
        const check = async (
          expect: WalkExpect,
          r: { status: number; body: any },
          where: string,
          assignees?: Record<string, string>,
        ) => {
          if (typeof expect === 'object' && !Array.isArray(expect)) {
            assert.is(r.status, 422, `${where}: ${JSON.stringify(r.body)}`);
            for (const part of errorParts(expect))
              assert.ok(
                String(r.body.message).includes(part),
                `${where}: "${r.body.message}" should contain "${part}"`,
              );
            return;
          }
          assert.is(r.status, 200, `${where}: ${JSON.stringify(r.body)}`);
          const now = await open();
          const answered = (r.body.content as Array<{ id: string }>).map((t) => t.id).sort();
          assert.equal(answered, now.map((t) => t.id).sort(), `${where}: the answer lists the open tasks`);
          if (expect === 'end') {
            assert.equal(now, [], `${where}: no open task`);
            const inst = await p.call('GET', `${base}/process-instances/${instanceId}`, { tenant: 'acme' });
            assert.is(inst.body.state, 'COMPLETED', `${where}: the instance ended`);
            return;
          }
          assert.equal(
            now.map((t) => t.label),
            [...expect].sort(),
            `${where}: open tasks`,
          );
          for (const [label, assignee] of Object.entries(assignees ?? {}))
            assert.is(now.find((t) => t.label === label)?.assignee, assignee, `${where}: assignee of ${label}`);
        };

        const started = await p.call('POST', `${base}/process-instances`, {
          tenant: 'acme',
          body: {
            processDefinitionKey: rootKey,
            businessKey,
            queryVariables: { TaskType: 'walk', WorkflowBusinessKey: businessKey },
            controlVariables: startVariables(walk),
          },
        });
        instanceId = (started.body.links as Array<{ href: string }> | undefined)?.[0]?.href.split('/').pop();
        await check(walk.expect, started, 'start', walk.expectAssignee);
        if (started.status !== 200) {
          assert.equal(await open(), [], 'a refused start leaves no instance');
          return;
        }
        for (const [i, step] of walk.steps.entries()) {
          const where = `step ${i + 1}`;
          const before = await open();
          let r: { status: number; body: any };
          if ('complete' in step) {
            const target = before.find((t) => t.label === step.complete);
            assert.ok(target, `${where}: ${step.complete} is open`);
            r = await p.call('POST', `${base}/tasks/${target!.id}/complete`, {
              tenant: 'acme',
              body: { controlVariables: step.controlVariables },
            });
          } else {
            const inst = await p.call('GET', `${base}/process-instances/${instanceId}`, { tenant: 'acme' });
            const timer = (inst.body.timers as Array<{ elementId: string; dueDate: string }>).find(
              (t) => t.elementId === step.fireBoundary,
            );
            assert.ok(timer, `${where}: the timer of ${step.fireBoundary} is pending`);
            p.clock.set(`${timer!.dueDate}Z`);
            assert.ok((await p.runDue()) >= 1, `${where}: the work engine fired the timer`);
            r = { status: 200, body: { content: (await open()).map((t) => ({ id: t.id })) } };
          }
          if (r.status !== 200) assert.equal(await open(), before, `${where}: a refused step changes nothing`);
          await check(step.expect, r, where, step.expectAssignee);
        }
      });
    }
  }
}

test.run();
