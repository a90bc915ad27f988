import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseBpmn } from '../../../commands/workflow/bpmn/bpmn.parse.ts';
import { fold } from '../../../domain/core/decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import type { InstanceEvent } from '../../../domain/workflow/engine/instance.events.ts';
import type { InstanceTreeState } from '../../../domain/workflow/engine/instance.state.ts';
import { decideEach, type InstanceCommand, instanceDecider } from '../../../domain/workflow/instance.decider.ts';
import type { DefinitionLookup, ProcessDefinition } from '../../../domain/workflow/model/process-model.ts';
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
} from './corpus.ts';
import { assertSameFold } from './engine-driver.ts';

// Every walk of the acceptance corpus driven straight through the interpreter (the decider): deploy the
// walk's files, start with its variables, complete its tasks, fire its timer, and compare the open user
// tasks (or the end, or the error) after each step. spec/http/workflow/corpus-walks.spec.ts drives the same
// walks through the HTTP API.

const test = suite('workflow interpreter: the acceptance corpus walks');

if (!corpusAvailable()) {
  console.log('SKIPPED: workflow corpus walks (../shared/corpora/bpmn not found)');
} else {
  const m = manifest();
  const definitions = new Map<string, ProcessDefinition>();
  const load = async () => {
    for (const f of m.files) {
      const parsed = await parseBpmn(corpusXml(f.file), f.file);
      for (const model of parsed.models) {
        const d: ProcessDefinition = {
          id: `${model.key}:1:${f.file}`,
          key: model.key,
          version: 1,
          deploymentId: f.file,
          resourceName: f.file,
          deployedAt: '2026-01-01T00:00:00.000Z',
          model,
        };
        definitions.set(d.id, d);
      }
    }
  };
  const lookupFor =
    (files: string[]): DefinitionLookup =>
    (ref) => {
      const deployed = [...definitions.values()].filter((d) => files.includes(d.resourceName));
      if (ref.kind === 'id') return deployed.find((d) => d.id === ref.id) ?? null;
      return deployed.find((d) => d.key === ref.key) ?? null;
    };

  type World = {
    state: InstanceTreeState;
    events: InstanceEvent[];
    now: string;
    rootKey: string;
    lookup: DefinitionLookup;
  };
  const decide = (w: World, command: InstanceCommand) => {
    const events = instanceDecider.decide(command, w.state);
    assertSameFold(w.events, decideEach(command, w.state), events);
    w.events.push(...events);
    w.state = fold(instanceDecider, w.events);
  };
  const openTasks = (w: World) =>
    Object.values(w.state.tasks)
      .map((t) => ({ label: taskLabel(w.rootKey, w.state.instances[t.instanceId]!.processKey, t.elementId), task: t }))
      .sort((a, b) => (a.label < b.label ? -1 : 1));

  const check = (w: World, expect: WalkExpect, error: unknown, where: string, assignees?: Record<string, string>) => {
    if (typeof expect === 'object' && !Array.isArray(expect)) {
      assert.ok(error !== undefined, `${where}: expected an error`);
      assert.ok(isDomainError(error), `${where}: a domain error, got ${String(error)}`);
      for (const part of errorParts(expect))
        assert.ok(
          (error as Error).message.includes(part),
          `${where}: "${(error as Error).message}" should contain "${part}"`,
        );
      return;
    }
    if (error !== undefined) throw error;
    if (expect === 'end') {
      assert.equal(
        openTasks(w).map((t) => t.label),
        [],
        `${where}: no open task`,
      );
      assert.is(w.state.instances[w.state.rootId!]!.status, 'COMPLETED', `${where}: the instance ended`);
      return;
    }
    assert.equal(
      openTasks(w).map((t) => t.label),
      [...expect].sort(),
      `${where}: open tasks`,
    );
    for (const [label, assignee] of Object.entries(assignees ?? {})) {
      assert.is(openTasks(w).find((t) => t.label === label)?.task.assignee, assignee, `${where}: assignee of ${label}`);
    }
  };

  const attempt = (fn: () => void): unknown => {
    try {
      fn();
      return undefined;
    } catch (err) {
      return err;
    }
  };

  for (const file of m.files) {
    for (const walk of file.walks as Walk[]) {
      test(`${file.file}: ${walk.name}`, async () => {
        if (definitions.size === 0) await load();
        const files = filesFor(m, file.file);
        const lookup = lookupFor(files);
        const definition = [...definitions.values()].find(
          (d) => d.resourceName === file.file && d.key === file.processIds[0],
        )!;
        const w: World = {
          state: instanceDecider.initialState(),
          events: [],
          now: '2026-03-01T10:00:00.000Z',
          rootKey: definition.key,
          lookup,
        };
        const started = attempt(() =>
          decide(w, {
            type: 'StartProcessInstance',
            rootId: 'root',
            definition,
            businessKey: `bk-${walk.name}`,
            variables: startVariables(walk),
            queryVariables: { TaskType: 'walk', WorkflowBusinessKey: `bk-${walk.name}` },
            now: w.now,
            lookup,
          }),
        );
        check(w, walk.expect, started, 'start', walk.expectAssignee);
        if (started !== undefined) {
          assert.is(w.events.length, 0, 'a failed start leaves no instance');
          return;
        }
        for (const [i, step] of walk.steps.entries()) {
          const where = `step ${i + 1}`;
          const before = w.events.length;
          let error: unknown;
          if ('complete' in step) {
            const target = openTasks(w).find((t) => t.label === step.complete);
            assert.ok(target, `${where}: ${step.complete} is open`);
            error = attempt(() =>
              decide(w, {
                type: 'CompleteTask',
                taskId: target!.task.id,
                variables: step.controlVariables,
                now: w.now,
                lookup,
              }),
            );
            if (error !== undefined)
              assert.ok(w.state.tasks[target!.task.id], `${where}: a refused completion leaves the task open`);
          } else {
            const timer = Object.values(w.state.timers).find((t) => t.elementId === step.fireBoundary);
            assert.ok(timer, `${where}: a timer of ${step.fireBoundary} is pending`);
            w.now = timer!.dueAt;
            error = attempt(() => decide(w, { type: 'FireTimer', timerId: timer!.id, now: w.now, lookup }));
          }
          if (error !== undefined) assert.is(w.events.length, before, `${where}: an error changes nothing`);
          check(w, step.expect, error, where, step.expectAssignee);
        }
      });
    }
  }
}

test.run();
