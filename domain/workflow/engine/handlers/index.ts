import { assertNever } from '../../../core/decider.ts';
import type { ElementType } from '../../model/process-model.ts';
import type { ElementHandler } from '../run.ts';
import { boundaryEvent } from './boundary-event.ts';
import { callActivity } from './call-activity.ts';
import { endEvent } from './end-event.ts';
import { exclusiveGateway } from './exclusive-gateway.ts';
import { inclusiveGateway } from './inclusive-gateway.ts';
import { parallelGateway } from './parallel-gateway.ts';
import { passThrough } from './pass-through.ts';
import { startEvent } from './start-event.ts';
import { subProcess } from './sub-process.ts';
import { timerCatch } from './timer-catch.ts';
import { userTask } from './user-task.ts';

/** The element handlers by element type: one small named behaviour each (node-oidc-provider's style). */
export function handlerFor(type: ElementType): ElementHandler {
  switch (type) {
    case 'startEvent':
      return startEvent;
    case 'endEvent':
      return endEvent;
    case 'userTask':
      return userTask;
    case 'passThrough':
      return passThrough;
    case 'exclusiveGateway':
      return exclusiveGateway;
    case 'inclusiveGateway':
      return inclusiveGateway;
    case 'parallelGateway':
      return parallelGateway;
    case 'subProcess':
      return subProcess;
    case 'callActivity':
      return callActivity;
    case 'boundaryEvent':
      return boundaryEvent;
    case 'timerCatch':
      return timerCatch;
    default:
      return assertNever(type);
  }
}
