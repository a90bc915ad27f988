import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';

/**
 * A tenant switching a platform rule off (and on again) for itself: `ruleOptOut-<tenant>.<ruleId>`, where
 * ruleId names a platform rule (`rule-platform.<ruleId>`). The spec's example: a tenant disables the
 * platform's standard batch-job alert mail and routes `batchv2:Alter:JobAlter` with its own rule instead.
 * The routing skips an opted-out platform rule for that tenant's events only; the trace says so.
 * That the rule exists and is a platform rule is checked by the command (it reads the rule's stream).
 */
export const ruleOptOutStream = (tenant: string, ruleId: string): string => streamName('ruleOptOut', tenant, ruleId);

export type RuleOptOutCommand =
  | { type: 'OptOutOfPlatformRule'; tenant: string; ruleId: string; now: string }
  | { type: 'OptInToPlatformRule'; tenant: string; ruleId: string; now: string };

export type PlatformRuleOptedOut = DomainEvent<'PlatformRuleOptedOut', { tenant: string; ruleId: string; at: string }>;
export type PlatformRuleOptedIn = DomainEvent<'PlatformRuleOptedIn', { tenant: string; ruleId: string; at: string }>;
export type RuleOptOutEvent = PlatformRuleOptedOut | PlatformRuleOptedIn;

export const RULE_OPT_OUT_EVENT_TYPES: ReadonlyArray<RuleOptOutEvent['type']> = [
  'PlatformRuleOptedOut',
  'PlatformRuleOptedIn',
];

export type RuleOptOutState = { optedOut: false } | { optedOut: true; since: string };

export const ruleOptOutDecider: Decider<RuleOptOutCommand, RuleOptOutEvent, RuleOptOutState> = {
  initialState: () => ({ optedOut: false }),

  evolve(_state, event) {
    switch (event.type) {
      case 'PlatformRuleOptedOut':
        return { optedOut: true, since: event.data.at };
      case 'PlatformRuleOptedIn':
        return { optedOut: false };
      default:
        return assertNever(event);
    }
  },

  // Both are idempotent: asking for the state it is already in records nothing.
  decide(command, state) {
    switch (command.type) {
      case 'OptOutOfPlatformRule':
        return state.optedOut
          ? []
          : [
              {
                type: 'PlatformRuleOptedOut',
                data: { tenant: command.tenant, ruleId: command.ruleId, at: command.now },
              },
            ];
      case 'OptInToPlatformRule':
        return state.optedOut
          ? [{ type: 'PlatformRuleOptedIn', data: { tenant: command.tenant, ruleId: command.ruleId, at: command.now } }]
          : [];
      default:
        return assertNever(command);
    }
  },
};
