// Drives the instance decider over BPMN written in a spec (not a spec itself): parse (the commands layer's
// parse step), deploy as definitions in memory, then start / complete / fire timers and fold the events.

import * as assert from 'uvu/assert';
import { parseBpmn } from '../../../commands/workflow/bpmn/bpmn.parse.ts';
import { fold } from '../../../domain/core/decider.ts';
import type { InstanceEvent } from '../../../domain/workflow/engine/instance.events.ts';
import type { InstanceTreeState } from '../../../domain/workflow/engine/instance.state.ts';
import { decideEach, instanceDecider } from '../../../domain/workflow/instance.decider.ts';
import type { DefinitionLookup, ProcessDefinition } from '../../../domain/workflow/model/process-model.ts';

export const C7 =
  'xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="spec"';
export const ZEEBE =
  'xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" targetNamespace="spec"';

export async function deployAll(
  files: Array<{ name: string; xml: string; deploymentId?: string }>,
): Promise<ProcessDefinition[]> {
  const out: ProcessDefinition[] = [];
  for (const f of files) {
    for (const model of (await parseBpmn(f.xml, f.name)).models) {
      const version = out.filter((d) => d.key === model.key).length + 1;
      out.push({
        id: `${model.key}:${version}:00000000-0000-0000-0000-00000000000${version}`,
        key: model.key,
        version,
        deploymentId: f.deploymentId ?? f.name,
        resourceName: f.name,
        deployedAt: '2026-01-01T00:00:00.000Z',
        model,
      });
    }
  }
  return out;
}

export const lookupOf =
  (defs: ProcessDefinition[]): DefinitionLookup =>
  (ref) => {
    switch (ref.kind) {
      case 'id':
        return defs.find((d) => d.id === ref.id) ?? null;
      case 'latest':
        return defs.filter((d) => d.key === ref.key).at(-1) ?? null;
      case 'version':
        return defs.find((d) => d.key === ref.key && d.version === ref.version) ?? null;
      case 'deployment':
        return defs.find((d) => d.key === ref.key && d.deploymentId === ref.deploymentId) ?? null;
      case 'versionTag':
        return defs.find((d) => d.key === ref.key && d.model.versionTag === ref.versionTag) ?? null;
    }
  };

export class Instance {
  events: InstanceEvent[] = [];
  state: InstanceTreeState = instanceDecider.initialState();
  now = '2026-03-01T10:00:00.000Z';
  constructor(readonly defs: ProcessDefinition[]) {}
  private decide(command: Parameters<typeof instanceDecider.decide>[0]) {
    const events = instanceDecider.decide(command, this.state);
    assertSameFold(this.events, decideEach(command, this.state), events);
    this.events.push(...events);
    this.state = fold(instanceDecider, this.events);
    return events;
  }
  start(key: string, variables: Record<string, unknown> = {}, initiator?: string) {
    const definition = this.defs.filter((d) => d.key === key).at(-1)!;
    return this.decide({
      type: 'StartProcessInstance',
      rootId: 'root',
      definition,
      businessKey: 'bk',
      variables,
      queryVariables: {},
      now: this.now,
      lookup: lookupOf(this.defs),
      ...(initiator !== undefined && { initiator }),
    });
  }
  task(elementId: string) {
    const t = Object.values(this.state.tasks).find((x) => x.elementId === elementId);
    if (t === undefined) throw new Error(`no open task ${elementId}: open ${this.open().join(', ')}`);
    return t;
  }
  complete(elementId: string, variables: Record<string, unknown> = {}, assignee?: string) {
    return this.decide({
      type: 'CompleteTask',
      taskId: this.task(elementId).id,
      variables,
      now: this.now,
      lookup: lookupOf(this.defs),
      ...(assignee !== undefined && { assignee }),
    });
  }
  fire(elementId: string) {
    const timer = Object.values(this.state.timers).find((t) => t.elementId === elementId);
    if (timer === undefined) throw new Error(`no pending timer ${elementId}`);
    this.now = timer.dueAt;
    return this.decide({ type: 'FireTimer', timerId: timer.id, now: this.now, lookup: lookupOf(this.defs) });
  }
  /** open tasks as `elementId` (own process) or `key:elementId` (called), sorted */
  open(): string[] {
    return Object.values(this.state.tasks)
      .map((t) => {
        const inst = this.state.instances[t.instanceId]!;
        return inst.id === 'root' ? t.elementId : `${inst.processKey}:${t.elementId}`;
      })
      .sort();
  }
  get status() {
    return this.state.instances.root?.status;
  }
  types(events: InstanceEvent[]) {
    return events.map((e) => e.type);
  }
}

export const proc = (ns: string, body: string, key = 'p') =>
  `<?xml version="1.0" encoding="UTF-8"?><definitions ${ns}><process id="${key}" isExecutable="true">${body}</process></definitions>`;
export const flow = (id: string, from: string, to: string, condition?: string) =>
  condition === undefined
    ? `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`
    : `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><conditionExpression xsi:type="tFormalExpression">${condition}</conditionExpression></sequenceFlow>`;

/** the compacted events (what is appended) fold to the state the interpreter's full events fold to */
export function assertSameFold(before: InstanceEvent[], full: InstanceEvent[], compacted: InstanceEvent[]): void {
  assert.equal(
    fold(instanceDecider, [...before, ...compacted]),
    fold(instanceDecider, [...before, ...full]),
    'compaction keeps the fold',
  );
  assert.ok(compacted.length <= full.length);
}
