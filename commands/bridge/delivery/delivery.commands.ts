import { type DeliveryCommand, deliveryDecider, type LiveDelivery } from '../../../domain/bridge/delivery.decider.ts';
import type { BridgeEvent } from '../../../domain/bridge/model.ts';
import type { DeliveryOutcome } from '../delivery.contracts.ts';

/** The delivery commands an attempt's outcome and a fresh scheduling make (delivery.process.ts). */

const MAX_ERROR = 2000;
/** an error or detail as recorded: at most MAX_ERROR characters */
export const clip = (s: string) => (s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR)}…` : s);

/** the outcome of a call, as the command that records it (`random`: the backoff's random part) */
export const outcomeCommand = (
  attemptId: string,
  outcome: DeliveryOutcome,
  event: BridgeEvent,
  now: string,
  random: number,
): DeliveryCommand =>
  outcome.ok
    ? {
        type: 'RecordSuccess',
        attemptId,
        now,
        ...(outcome.httpStatus !== undefined && { httpStatus: outcome.httpStatus }),
        ...(outcome.detail !== undefined && { detail: clip(outcome.detail) }),
      }
    : {
        type: 'RecordFailure',
        attemptId,
        error: clip(outcome.error || 'failed'),
        retryable: outcome.retryable,
        random,
        event,
        now,
        ...(outcome.httpStatus !== undefined && { httpStatus: outcome.httpStatus }),
        ...(outcome.retryAfterMs !== undefined && { retryAfterMs: outcome.retryAfterMs }),
      };

/** the state a fresh delivery's scheduling leaves (what its attempt is decided on, after the schedule) */
export const scheduledState = (schedule: DeliveryCommand): LiveDelivery =>
  deliveryDecider
    .decide(schedule, deliveryDecider.initialState())
    .reduce(deliveryDecider.evolve, deliveryDecider.initialState()) as LiveDelivery;
