import type { InstanceEvent, PassedElement } from './instance.events.ts';

/**
 * Fewer events for the same fold. The interpreter emits one event per change; most steps of a token say
 * little on their own, and every event is a row of the log. Before a command's events are appended:
 * - an element activated and completed in the same command (a start event, a gateway, a pass-through
 *   task, an end event) becomes one entry of an `ElementsPassed` event, at the place of its activation;
 * - a user task's ElementActivated is folded into its TaskCreated (`activation`);
 * - the ElementCompleted of a completed task's element is dropped: its TaskCompleted says so (`elementKey`);
 * - an ElementsPassed rides on the ElementActivated, TaskCreated or ProcessInstanceCompleted right after it.
 * The fold of the compacted list is the fold of the full list (spec/domain/workflow/compact.spec.ts checks
 * it over every corpus walk and element behaviour).
 */
export function compactEvents(events: InstanceEvent[]): InstanceEvent[] {
  const activatedAt = new Map<string, number>();
  const completed = new Set<string>();
  const taskElement = new Set<string>();
  events.forEach((e, i) => {
    if (e.type === 'ElementActivated') activatedAt.set(e.data.key, i);
    else if (e.type === 'ElementCompleted') completed.add(e.data.key);
    else if (e.type === 'TaskCreated') taskElement.add(e.data.task.elementKey);
  });
  const passedKeys = new Set([...activatedAt.keys()].filter((k) => completed.has(k) && !taskElement.has(k)));

  const out: InstanceEvent[] = [];
  let passes: PassedElement[] | undefined;
  const activations = new Map<string, Extract<InstanceEvent, { type: 'ElementActivated' }>['data']>();
  /** elements whose completion a TaskCompleted carries already */
  const completedWithTask = new Set<string>();
  for (const e of events) {
    switch (e.type) {
      case 'ElementActivated': {
        const d = e.data;
        if (passedKeys.has(d.key)) {
          if (passes === undefined) {
            passes = [];
            out.push({ type: 'ElementsPassed', data: { elements: passes } });
          }
          passes.push({
            key: d.key,
            instanceId: d.instanceId,
            elementId: d.elementId,
            elementType: d.elementType,
            scopeKey: d.scopeKey,
            ...(d.flow !== undefined && { flow: d.flow }),
          });
          continue;
        }
        if (taskElement.has(d.key)) {
          activations.set(d.key, d); // folded into its TaskCreated
          continue;
        }
        break;
      }
      case 'ElementCompleted':
        if (passedKeys.has(e.data.key) || completedWithTask.has(e.data.key)) continue;
        break;
      case 'TaskCreated': {
        const a = activations.get(e.data.task.elementKey);
        if (a !== undefined) {
          passes = undefined;
          out.push({
            type: 'TaskCreated',
            data: {
              ...e.data,
              activation: {
                elementType: a.elementType,
                scopeKey: a.scopeKey,
                ...(a.flow !== undefined && { flow: a.flow }),
              },
            },
          });
          continue;
        }
        break;
      }
      case 'TaskCompleted':
        if (e.data.elementKey !== undefined) completedWithTask.add(e.data.elementKey);
        break;
      default:
        break;
    }
    passes = undefined;
    out.push(e);
  }
  return ridePassed(out);
}

/** an ElementsPassed followed by an event that can carry it rides on that event */
function ridePassed(events: InstanceEvent[]): InstanceEvent[] {
  const out: InstanceEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const next = events[i + 1];
    if (e.type === 'ElementsPassed' && next !== undefined) {
      const passed = e.data.elements;
      if (next.type === 'TaskCreated' && next.data.passed === undefined) {
        out.push({ type: 'TaskCreated', data: { ...next.data, passed } });
        i++;
        continue;
      }
      if (next.type === 'ElementActivated' && next.data.passed === undefined) {
        out.push({ type: 'ElementActivated', data: { ...next.data, passed } });
        i++;
        continue;
      }
      if (next.type === 'ProcessInstanceCompleted' && next.data.passed === undefined) {
        out.push({ type: 'ProcessInstanceCompleted', data: { ...next.data, passed } });
        i++;
        continue;
      }
    }
    out.push(e);
  }
  return out;
}
