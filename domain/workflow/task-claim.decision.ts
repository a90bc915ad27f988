import type { InstanceEvent } from './engine/instance.events.ts';
import type { InstanceTreeState } from './engine/instance.state.ts';
import { workflowError } from './workflow.errors.ts';

/**
 * Claim and unclaim without completing (Camunda 7's TaskService.claim/setAssignee(null)): a claim sets the
 * task's assignee and claimedDate; a claim of a task someone else holds is a 409 (the first of two
 * concurrent claims wins, the other decides again on the new state and is refused); a claim by its holder
 * changes nothing. An unclaim clears the assignee (status CREATED); one that names an assignee is refused
 * when another holds the task, so a stale task list cannot release someone else's claim.
 */
export type ClaimTask = { type: 'ClaimTask'; taskId: string; assignee: string; now: string };
export type UnclaimTask = { type: 'UnclaimTask'; taskId: string; assignee?: string; now: string };

function openTask(taskId: string, s: InstanceTreeState) {
  const task = s.tasks[taskId];
  if (task === undefined) {
    const closed = s.closedTasks[taskId];
    if (closed !== undefined)
      throw workflowError('TASK.NOT_OPEN', `task ${taskId} is ${closed}`, { taskId, status: closed });
    throw workflowError('TASK.NOT_FOUND', `no task ${taskId}`, { taskId });
  }
  if (s.instances[task.instanceId]?.status !== 'ACTIVE')
    throw workflowError('PROCESS_INSTANCE.NOT_ACTIVE', `the instance of task ${taskId} has ended`, { taskId });
  return task;
}

export function claim(c: ClaimTask, s: InstanceTreeState): InstanceEvent[] {
  const task = openTask(c.taskId, s);
  if (task.assignee === c.assignee) return [];
  if (task.assignee !== undefined)
    throw workflowError('TASK.CLAIMED_BY_ANOTHER', `task ${c.taskId} is claimed by ${task.assignee}`, {
      taskId: c.taskId,
      assignee: task.assignee,
    });
  return [
    { type: 'TaskClaimed', data: { taskId: task.id, instanceId: task.instanceId, assignee: c.assignee, at: c.now } },
  ];
}

export function unclaim(c: UnclaimTask, s: InstanceTreeState): InstanceEvent[] {
  const task = openTask(c.taskId, s);
  if (task.assignee === undefined) return [];
  if (c.assignee !== undefined && task.assignee !== c.assignee)
    throw workflowError('TASK.CLAIMED_BY_ANOTHER', `task ${c.taskId} is claimed by ${task.assignee}`, {
      taskId: c.taskId,
      assignee: task.assignee,
    });
  return [{ type: 'TaskUnclaimed', data: { taskId: task.id, instanceId: task.instanceId, at: c.now } }];
}
