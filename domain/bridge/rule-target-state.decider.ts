import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';

/**
 * Whether one target of one rule is blocked (ErrorTolerance NONE, spec Limits: "with tolerance prohibited,
 * execution is blocked once an exception persists past the retry count"): `ruleTarget-<ruleTenant>.<ruleId>~<targetId>`.
 *
 * A delivery of a NONE target whose retries are over is DeliveryBlocked, then blocks its rule target here
 * (RuleTargetBlocked names it). While blocked, the target's other deliveries are scheduled but not
 * attempted (they wait). An operator resumes (RuleTargetResumed, which releases the blocking deliveries):
 * the blocking deliveries get a new round of attempts and the waiting ones go, in the order they were
 * scheduled. Several deliveries may block the same episode (their retries ran out concurrently).
 *
 * `released` remembers which (delivery, round) a resume released, so the engine can tell "blocked and
 * waiting for an operator" from "released: redrive it" from "not recorded here yet" (a crash between the
 * delivery's DeliveryBlocked and this stream's RuleTargetBlocked: the engine blocks it again, idempotently).
 */
export const RULE_TARGET_CATEGORY = 'ruleTarget';

export type RuleTargetRef = { ruleTenant: string; ruleId: string; targetId: number };

export const ruleTargetStream = (r: RuleTargetRef): string =>
  streamName(RULE_TARGET_CATEGORY, r.ruleTenant, `${r.ruleId}~${r.targetId}`);
/** the read models' key of a rule target */
export const ruleTargetKey = (r: RuleTargetRef): string => `${r.ruleTenant}/${r.ruleId}/${r.targetId}`;

export type BlockingDelivery = { deliveryId: string; round: number; error: string; at: string };

export type RuleTargetBlocked = DomainEvent<'RuleTargetBlocked', RuleTargetRef & BlockingDelivery>;
export type RuleTargetResumed = DomainEvent<
  'RuleTargetResumed',
  RuleTargetRef & { at: string; by: string; released: BlockingDelivery[] }
>;
export type RuleTargetEvent = RuleTargetBlocked | RuleTargetResumed;
export const RULE_TARGET_EVENT_TYPES: ReadonlyArray<RuleTargetEvent['type']> = [
  'RuleTargetBlocked',
  'RuleTargetResumed',
];

export type RuleTargetCommand =
  | ({ type: 'BlockRuleTarget'; now: string } & RuleTargetRef & Omit<BlockingDelivery, 'at'>)
  | ({ type: 'ResumeRuleTarget'; by: string; now: string } & RuleTargetRef);

export type RuleTargetState = {
  blocked: boolean;
  blockedAt?: string;
  /** the deliveries that blocked the current episode */
  blockedBy: BlockingDelivery[];
  resumedAt?: string;
  resumedBy?: string;
  /** delivery id → the highest round a resume released */
  released: Record<string, number>;
};

/** Where a blocked delivery (of `round`) stands on its rule target. */
export function blockStanding(
  state: RuleTargetState,
  deliveryId: string,
  round: number,
): 'blocking' | 'released' | 'unrecorded' {
  if ((state.released[deliveryId] ?? 0) >= round) return 'released';
  if (state.blocked && state.blockedBy.some((b) => b.deliveryId === deliveryId && b.round === round)) return 'blocking';
  return 'unrecorded';
}

export const ruleTargetDecider: Decider<RuleTargetCommand, RuleTargetEvent, RuleTargetState> = {
  initialState: () => ({ blocked: false, blockedBy: [], released: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'RuleTargetBlocked': {
        const { deliveryId, round, error, at } = event.data;
        return {
          ...state,
          blocked: true,
          blockedAt: state.blocked ? state.blockedAt : at,
          blockedBy: [...state.blockedBy, { deliveryId, round, error, at }],
        };
      }
      case 'RuleTargetResumed': {
        const released = { ...state.released };
        for (const b of event.data.released) released[b.deliveryId] = Math.max(released[b.deliveryId] ?? 0, b.round);
        const { blockedAt: _episode, ...rest } = state;
        return { ...rest, blocked: false, blockedBy: [], released, resumedAt: event.data.at, resumedBy: event.data.by };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const ref: RuleTargetRef = { ruleTenant: command.ruleTenant, ruleId: command.ruleId, targetId: command.targetId };
    switch (command.type) {
      case 'BlockRuleTarget':
        // the same delivery and round again (a retried append, a second engine): nothing new
        if (blockStanding(state, command.deliveryId, command.round) !== 'unrecorded') return [];
        return [
          {
            type: 'RuleTargetBlocked',
            data: {
              ...ref,
              deliveryId: command.deliveryId,
              round: command.round,
              error: command.error,
              at: command.now,
            },
          },
        ];
      case 'ResumeRuleTarget':
        if (!state.blocked) throw bridgeError('RULE_TARGET.NOT_BLOCKED', 'the rule target is not blocked', ref);
        return [
          { type: 'RuleTargetResumed', data: { ...ref, at: command.now, by: command.by, released: state.blockedBy } },
        ];
      default:
        return assertNever(command);
    }
  },
};
