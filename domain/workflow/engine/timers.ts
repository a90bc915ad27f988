import type { TimerDefinition } from '../model/process-model.ts';
import { addDuration, parseCycle, parseDateTime, parseDuration } from '../time/iso8601.ts';
import { workflowError } from '../workflow.errors.ts';

/**
 * When a timer is due: a duration (`PT10M`) from now, a date, or a cycle's first interval (`R3/PT1H`). The
 * definition's value may be an expression; its result must be ISO 8601 text.
 */
export function timerDue(
  def: TimerDefinition,
  value: unknown,
  now: string,
  elementId: string,
): { dueAt: string; cycle?: { remaining: number | null; interval: string } } {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const bad = (what: string) =>
    workflowError(
      'EXPRESSION.EVALUATION_FAILED',
      `the timer of '${elementId}' is not an ISO 8601 ${what}: ${JSON.stringify(text)}`,
      { element: elementId, value: text },
    );
  switch (def.kind) {
    case 'duration': {
      const d = parseDuration(text);
      if (d === null) throw bad('duration');
      return { dueAt: addDuration(now, d) };
    }
    case 'date': {
      const at = parseDateTime(text);
      if (at === null) throw bad('date');
      return { dueAt: at };
    }
    case 'cycle': {
      const c = parseCycle(text);
      if (c === null) throw bad('cycle (R<n>/<duration>)');
      const interval = text.slice(text.indexOf('/') + 1);
      return {
        dueAt: addDuration(now, c.interval),
        cycle: { remaining: c.repetitions === null ? null : c.repetitions - 1, interval },
      };
    }
  }
}

/** the next occurrence of a cycle timer that fired at `firedDue` */
export function nextCycle(
  firedDue: string,
  cycle: { remaining: number | null; interval: string },
): { dueAt: string; cycle: { remaining: number | null; interval: string } } | null {
  if (cycle.remaining !== null && cycle.remaining <= 0) return null;
  const d = parseDuration(cycle.interval);
  if (d === null) return null;
  return {
    dueAt: addDuration(firedDue, d),
    cycle: { remaining: cycle.remaining === null ? null : cycle.remaining - 1, interval: cycle.interval },
  };
}
