import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { InstanceEvent } from '../../../domain/workflow/engine/instance.events.ts';
import { type IndexField, indexSchemaDecider } from '../../../domain/workflow/index-schema.decider.ts';
import { instanceDecider } from '../../../domain/workflow/instance.decider.ts';
import type { ProcessModel } from '../../../domain/workflow/model/process-model.ts';
import { parseDefinitionId, processDefinitionDecider } from '../../../domain/workflow/process-definition.decider.ts';
import { workflowTenantDecider } from '../../../domain/workflow/workflow-tenant.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { C7, deployAll, flow, lookupOf, proc } from './engine-driver.ts';

// given / when / then for the workflow's deciders.
const NOW = '2026-03-01T10:00:00.000Z';
const model: ProcessModel = { key: 'k', dialect: 'plain', start: 's', elements: {}, flows: {}, calledKeys: [] };
const deployed = (version: number, hash: string) =>
  ({
    type: 'ProcessDefinitionDeployed',
    data: {
      id: `k:${version}:00000000-0000-0000-0000-000000000001`,
      key: 'k',
      version,
      deploymentId: 'd',
      resourceName: 'k.bpmn',
      hash,
      deployedAt: NOW,
      model,
    },
  }) as const;
const deploy = (hash: string) => ({
  type: 'DeployDefinition' as const,
  key: 'k',
  model,
  hash,
  deploymentId: 'd',
  resourceName: 'k.bpmn',
  uuid: '00000000-0000-0000-0000-000000000001',
  now: NOW,
});

test('process definitions: the first deployment is version 1, a changed file the next, the same file none', () => {
  const spec = deciderSpec(processDefinitionDecider);
  spec
    .given([])
    .when(deploy('h1'))
    .then([deployed(1, 'h1')]);
  spec
    .given([deployed(1, 'h1')])
    .when(deploy('h2'))
    .then([deployed(2, 'h2')]);
  spec
    .given([deployed(1, 'h1'), deployed(2, 'h2')])
    .when(deploy('h2'))
    .then([]);
  spec
    .given([deployed(1, 'h1'), deployed(2, 'h2')])
    .when(deploy('h1'))
    .then([deployed(3, 'h1')]);
  assert.equal(parseDefinitionId('my:key:12:6d1f6a52-8f64-4b7c-9d3e-2f1c0a7b9e10'), { key: 'my:key', version: 12 });
  assert.is(parseDefinitionId('nope'), null);
});

test('tenant enablement is idempotent both ways', () => {
  const spec = deciderSpec(workflowTenantDecider);
  const enabled = { type: 'WorkflowTenantEnabled' as const, data: { tenant: 'acme', at: NOW } };
  spec.given([]).when({ type: 'EnableWorkflow', tenant: 'acme', now: NOW }).then([enabled]);
  spec.given([enabled]).when({ type: 'EnableWorkflow', tenant: 'acme', now: NOW }).then([]);
  spec
    .given([enabled])
    .when({ type: 'DisableWorkflow', tenant: 'acme', now: NOW })
    .then([{ type: 'WorkflowTenantDisabled', data: { tenant: 'acme', at: NOW } }]);
  spec.given([]).when({ type: 'DisableWorkflow', tenant: 'acme', now: NOW }).then([]);
});

test('index schemas: revisions on change only; minimum fields and bad names refused', () => {
  const spec = deciderSpec(indexSchemaDecider);
  const fields: IndexField[] = [{ name: 'Amount', type: 'number', includeAll: false }];
  const defined = { type: 'IndexSchemaDefined' as const, data: { name: 'claims', fields, revision: 1, at: NOW } };
  spec.given([]).when({ type: 'DefineIndexSchema', name: 'claims', fields, now: NOW }).then([defined]);
  spec.given([defined]).when({ type: 'DefineIndexSchema', name: 'claims', fields, now: NOW }).then([]);
  spec
    .given([defined])
    .when({
      type: 'DefineIndexSchema',
      name: 'claims',
      fields: [...fields, { name: 'Region', type: 'string', includeAll: true }],
      now: NOW,
    })
    .then([
      {
        type: 'IndexSchemaDefined',
        data: {
          name: 'claims',
          fields: [...fields, { name: 'Region', type: 'string', includeAll: true }],
          revision: 2,
          at: NOW,
        },
      },
    ]);
  spec
    .given([])
    .when({
      type: 'DefineIndexSchema',
      name: 'claims',
      fields: [{ name: 'Status', type: 'string', includeAll: true }],
      now: NOW,
    })
    .thenThrows('INDEX_SCHEMA.INVALID', 400);
  spec
    .given([])
    .when({
      type: 'DefineIndexSchema',
      name: 'claims',
      fields: [{ name: 'a.b', type: 'string', includeAll: true }],
      now: NOW,
    })
    .thenThrows('INDEX_SCHEMA.INVALID', 400);
  spec
    .given([])
    .when({ type: 'DefineIndexSchema', name: 'claims', fields: [fields[0]!, fields[0]!], now: NOW })
    .thenThrows('INDEX_SCHEMA.INVALID', 400);
});

test('instances: start decides the path to the first wait state; a completion of a closed task is a 409, of an unknown one a 404', async () => {
  const defs = await deployAll([
    {
      name: 'one.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s"/><userTask id="t" name="T" camunda:assignee="kermit"/><endEvent id="e"/>${flow('f1', 's', 't')}${flow('f2', 't', 'e')}`,
      ),
    },
  ]);
  const lookup = lookupOf(defs);
  const definition = defs[0]!;
  const spec = deciderSpec(instanceDecider);
  const start = {
    type: 'StartProcessInstance' as const,
    rootId: 'r',
    definition,
    businessKey: 'bk',
    variables: { a: 1 },
    queryVariables: { TaskType: 'x' },
    now: NOW,
    lookup,
  };
  const started: InstanceEvent[] = [
    {
      type: 'ProcessInstanceStarted',
      data: {
        instanceId: 'r',
        rootInstanceId: 'r',
        processDefinitionId: definition.id,
        processKey: 'p',
        version: 1,
        deploymentId: 'one.bpmn',
        businessKey: 'bk',
        variables: { a: 1 },
        queryVariables: { TaskType: 'x' },
        startedAt: NOW,
      },
    },
    // the start event passed at once and the user task's activation ride on its TaskCreated (compact.ts)
    {
      type: 'TaskCreated',
      data: {
        task: {
          id: 'r.t2',
          instanceId: 'r',
          elementKey: 'e1',
          elementId: 't',
          name: 'T',
          status: 'ASSIGNED',
          assignee: 'kermit',
          candidateUsers: [],
          candidateGroups: [],
          priority: 50,
          createdAt: NOW,
        },
        context: {
          rootInstanceId: 'r',
          processDefinitionId: definition.id,
          processKey: 'p',
          version: 1,
          businessKey: 'bk',
          queryVariables: { TaskType: 'x' },
        },
        activation: { elementType: 'userTask', scopeKey: null, flow: 'f1' },
        passed: [{ key: 'e0', instanceId: 'r', elementId: 's', elementType: 'startEvent', scopeKey: null }],
      },
    },
  ];
  spec.given([]).when(start).then(started);
  spec.given(started).when(start).thenThrows('START.INVALID', 400);
  const complete = { type: 'CompleteTask' as const, taskId: 'r.t2', variables: {}, now: NOW, lookup };
  const completed: InstanceEvent[] = [
    {
      type: 'TaskCompleted',
      data: { taskId: 'r.t2', instanceId: 'r', at: NOW, by: 'kermit', variables: {}, elementKey: 'e1' },
    },
    {
      type: 'ProcessInstanceCompleted',
      data: {
        instanceId: 'r',
        at: NOW,
        passed: [{ key: 'e3', instanceId: 'r', elementId: 'e', elementType: 'endEvent', scopeKey: null, flow: 'f2' }],
      },
    },
  ];
  spec.given(started).when(complete).then(completed);
  spec
    .given([...started, ...completed])
    .when(complete)
    .thenThrows('TASK.NOT_OPEN', 409);
  spec
    .given(started)
    .when({ ...complete, taskId: 'r.t9' })
    .thenThrows('TASK.NOT_FOUND', 404);
  spec
    .given(started)
    .when({ ...complete, queryVariables: { WorkflowBusinessKey: 'other' } })
    .thenThrows('COMPLETE.INVALID', 400);
  spec.given(started).when({ type: 'FireTimer', timerId: 'r.m5', now: NOW, lookup }).then([]);
});

test("instances: a variable given at start wins over the start event's initiator; without it the initiator is the starter", async () => {
  const defs = await deployAll([
    {
      name: 'vacation.bpmn',
      xml: proc(
        C7,
        `<startEvent id="s" camunda:initiator="employeeName"/><userTask id="adjust" name="Adjust" camunda:assignee="\${employeeName}"/><endEvent id="e"/>${flow('f1', 's', 'adjust')}${flow('f2', 'adjust', 'e')}`,
      ),
    },
  ]);
  const lookup = lookupOf(defs);
  const definition = defs[0]!;
  const spec = deciderSpec(instanceDecider);
  const start = {
    type: 'StartProcessInstance' as const,
    rootId: 'r',
    definition,
    businessKey: 'bk',
    queryVariables: { TaskType: 'x' },
    initiator: 'gonzo',
    now: NOW,
    lookup,
  };
  const started = (variables: Record<string, unknown>, assignee: string): InstanceEvent[] => [
    {
      type: 'ProcessInstanceStarted',
      data: {
        instanceId: 'r',
        rootInstanceId: 'r',
        processDefinitionId: definition.id,
        processKey: 'p',
        version: 1,
        deploymentId: 'vacation.bpmn',
        businessKey: 'bk',
        variables,
        queryVariables: { TaskType: 'x' },
        initiator: 'gonzo',
        startedAt: NOW,
      },
    },
    {
      type: 'TaskCreated',
      data: {
        task: {
          id: 'r.t2',
          instanceId: 'r',
          elementKey: 'e1',
          elementId: 'adjust',
          name: 'Adjust',
          status: 'ASSIGNED',
          assignee,
          candidateUsers: [],
          candidateGroups: [],
          priority: 50,
          createdAt: NOW,
        },
        context: {
          rootInstanceId: 'r',
          processDefinitionId: definition.id,
          processKey: 'p',
          version: 1,
          businessKey: 'bk',
          queryVariables: { TaskType: 'x' },
        },
        activation: { elementType: 'userTask', scopeKey: null, flow: 'f1' },
        passed: [{ key: 'e0', instanceId: 'r', elementId: 's', elementType: 'startEvent', scopeKey: null }],
      },
    },
  ];
  spec
    .given([])
    .when({ ...start, variables: { employeeName: 'kermit', days: 3 } })
    .then(started({ employeeName: 'kermit', days: 3 }, 'kermit'));
  spec
    .given([])
    .when({ ...start, variables: { days: 3 } })
    .then(started({ employeeName: 'gonzo', days: 3 }, 'gonzo'));
});

test.run();
