import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { RULE_ID, ruleStream } from '../../domain/bridge/rule.decider.ts';
import {
  type BlockingDelivery,
  type RuleTargetEvent,
  type RuleTargetRef,
  type RuleTargetState,
  ruleTargetDecider,
  ruleTargetStream,
} from '../../domain/bridge/rule-target-state.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';

/**
 * Blocking and resuming a rule target (ErrorTolerance NONE; domain/bridge/rule-target-state.decider.ts).
 * The delivery worker blocks (a delivery's retries ran out); an operator resumes. Reads come from the
 * stream, so a resume is seen at once by every worker.
 */
export type RuleTargetView = RuleTargetRef & {
  blocked: boolean;
  blockedAt?: string;
  blockedBy: BlockingDelivery[];
  resumedAt?: string;
  resumedBy?: string;
};

const view = (ref: RuleTargetRef, s: RuleTargetState): RuleTargetView => ({
  ...ref,
  blocked: s.blocked,
  ...(s.blockedAt !== undefined && { blockedAt: s.blockedAt }),
  blockedBy: s.blockedBy,
  ...(s.resumedAt !== undefined && { resumedAt: s.resumedAt }),
  ...(s.resumedBy !== undefined && { resumedBy: s.resumedBy }),
});

export function createRuleTargetCommands({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, ruleTargetDecider);

  async function state(ref: RuleTargetRef): Promise<RuleTargetState> {
    return fold(
      ruleTargetDecider,
      (await eventStore.readStream(ruleTargetStream(ref))) as unknown as RuleTargetEvent[],
    );
  }

  return {
    state,

    async get(ref: RuleTargetRef): Promise<RuleTargetView> {
      return view(ref, await state(ref));
    },

    /** whether the rule exists or existed (a deleted rule keeps its dead letters) */
    async ruleKnown(ruleTenant: string, ruleId: string): Promise<boolean> {
      if (!RULE_ID.test(ruleId)) return false;
      return (await eventStore.readStream(ruleStream(ruleTenant, ruleId), { limit: 1 })).length > 0;
    },

    /** idempotent per (delivery, round) */
    async block(
      ref: RuleTargetRef,
      blocking: Omit<BlockingDelivery, 'at'>,
      ctx: CommandContext,
      commandId: string,
    ): Promise<RuleTargetView> {
      const now = clock.now().toISOString();
      const r = await handle({
        stream: ruleTargetStream(ref),
        command: { type: 'BlockRuleTarget', ...ref, ...blocking, now },
        commandId,
        now,
        context: forTenant(ctx, ref.ruleTenant),
      });
      return view(ref, r.state);
    },

    /** 409 RULE_TARGET.NOT_BLOCKED when it is not blocked */
    async resume(
      ref: RuleTargetRef,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ target: RuleTargetView; released: BlockingDelivery[] }> {
      const now = clock.now().toISOString();
      const r = await handle({
        stream: ruleTargetStream(ref),
        command: { type: 'ResumeRuleTarget', ...ref, by: ctx.actor ?? 'unknown', now },
        commandId,
        now,
        context: forTenant(ctx, ref.ruleTenant),
      });
      const resumed = r.events.find((e) => e.type === 'RuleTargetResumed');
      if (resumed === undefined && !r.replayed)
        throw bridgeError('RULE_TARGET.NOT_BLOCKED', 'the rule target is not blocked', ref);
      const released = resumed !== undefined ? (resumed.data as { released: BlockingDelivery[] }).released : [];
      return { target: view(ref, r.state), released };
    },
  };
}

export type RuleTargetCommands = ReturnType<typeof createRuleTargetCommands>;
