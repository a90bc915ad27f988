import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { InstanceEvent } from '../../../domain/workflow/engine/instance.events.ts';
import { instanceDecider } from '../../../domain/workflow/instance.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

// given / when / then for claim and unclaim: a claim takes an unclaimed task, its holder's claim changes
// nothing, another's is a 409; an unclaim releases it (CREATED again), one naming another holder is a 409.
const NOW = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T11:00:00.000Z';
const spec = deciderSpec(instanceDecider);

const started: InstanceEvent[] = [
  {
    type: 'ProcessInstanceStarted',
    data: {
      instanceId: 'r',
      rootInstanceId: 'r',
      processDefinitionId: 'p:1:00000000-0000-0000-0000-000000000001',
      processKey: 'p',
      version: 1,
      deploymentId: 'd',
      businessKey: 'bk',
      variables: {},
      queryVariables: {},
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
        elementId: 'review',
        status: 'CREATED',
        candidateUsers: ['kermit', 'gonzo'],
        candidateGroups: [],
        priority: 50,
        createdAt: NOW,
      },
      context: {
        rootInstanceId: 'r',
        processDefinitionId: 'p:1:00000000-0000-0000-0000-000000000001',
        processKey: 'p',
        version: 1,
        businessKey: 'bk',
        queryVariables: {},
      },
      activation: { elementType: 'userTask', scopeKey: null },
    },
  },
];
const claimed: InstanceEvent = {
  type: 'TaskClaimed',
  data: { taskId: 'r.t2', instanceId: 'r', assignee: 'kermit', at: LATER },
};
const unclaimed: InstanceEvent = { type: 'TaskUnclaimed', data: { taskId: 'r.t2', instanceId: 'r', at: LATER } };
const claim = (assignee: string) => ({ type: 'ClaimTask' as const, taskId: 'r.t2', assignee, now: LATER });
const unclaim = (assignee?: string) => ({
  type: 'UnclaimTask' as const,
  taskId: 'r.t2',
  ...(assignee !== undefined && { assignee }),
  now: LATER,
});

test('a claim takes an unclaimed task; the holder claiming again changes nothing; another is refused', () => {
  spec.given(started).when(claim('kermit')).then([claimed]);
  spec
    .given([...started, claimed])
    .when(claim('kermit'))
    .then([]);
  spec
    .given([...started, claimed])
    .when(claim('gonzo'))
    .thenThrows('TASK.CLAIMED_BY_ANOTHER', 409);
  spec
    .given(started)
    .when({ ...claim('kermit'), taskId: 'r.t9' })
    .thenThrows('TASK.NOT_FOUND', 404);
});

test('an unclaim releases the task; naming another holder is refused; an unclaimed task stays as it is', () => {
  spec
    .given([...started, claimed])
    .when(unclaim())
    .then([unclaimed]);
  spec
    .given([...started, claimed])
    .when(unclaim('kermit'))
    .then([unclaimed]);
  spec
    .given([...started, claimed])
    .when(unclaim('gonzo'))
    .thenThrows('TASK.CLAIMED_BY_ANOTHER', 409);
  spec.given(started).when(unclaim()).then([]);
  // after an unclaim another candidate may claim it
  spec
    .given([...started, claimed, unclaimed])
    .when(claim('gonzo'))
    .then([{ ...claimed, data: { ...claimed.data, assignee: 'gonzo' } }]);
});

test('the fold: a claim sets assignee, claimedAt and ASSIGNED; an unclaim clears both and makes it CREATED', () => {
  const fold = (events: InstanceEvent[]) => events.reduce(instanceDecider.evolve, instanceDecider.initialState());
  const held = fold([...started, claimed]).tasks['r.t2']!;
  assert.equal([held.assignee, held.claimedAt, held.status], ['kermit', LATER, 'ASSIGNED']);
  const released = fold([...started, claimed, unclaimed]).tasks['r.t2']!;
  assert.equal([released.assignee, released.claimedAt, released.status], [undefined, undefined, 'CREATED']);
});

test('a closed task cannot be claimed or unclaimed (409)', () => {
  const completed: InstanceEvent = {
    type: 'TaskCompleted',
    data: { taskId: 'r.t2', instanceId: 'r', at: LATER, variables: {}, elementKey: 'e1' },
  };
  spec
    .given([...started, completed])
    .when(claim('kermit'))
    .thenThrows('TASK.NOT_OPEN', 409);
  spec
    .given([...started, completed])
    .when(unclaim())
    .thenThrows('TASK.NOT_OPEN', 409);
});

test.run();
