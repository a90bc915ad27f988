import type { TimerCatchModel } from '../../model/process-model.ts';
import type { ElementHandler } from '../run.ts';
import { timerDue } from '../timers.ts';

/** An intermediate timer catch event waits for its timer (a due item of the work engine); it goes on when it fires. */
export const timerCatch: ElementHandler = {
  activate(run, el) {
    const model = run.elementModel(el) as TimerCatchModel;
    const due = timerDue(model.timer, run.evaluate(el, model.timer.value), run.now, el.elementId);
    const id = run.newId('m');
    run.emit({
      type: 'TimerScheduled',
      data: {
        timer: {
          id,
          instanceId: el.instanceId,
          elementId: el.elementId,
          elementKey: el.key,
          boundary: false,
          dueAt: due.dueAt,
          ...(due.cycle && { cycle: due.cycle }),
        },
      },
    });
  },
};
