import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { type BusKind, PLATFORM_TENANT, type Target } from '../../domain/bridge/model.ts';
import {
  type RuleOptOutCommand,
  type RuleOptOutEvent,
  ruleOptOutDecider,
  ruleOptOutStream,
} from '../../domain/bridge/platform-rule-opt-out.decider.ts';
import {
  RULE_ID,
  type RuleCommand,
  type RuleEvent,
  type RuleState,
  type RuleView,
  ruleDecider,
  ruleStream,
} from '../../domain/bridge/rule.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';

export type RuleCommandsDeps = { eventStore: EventStore; clock: Clock };

export type CreateRuleInput = {
  /** chosen by the caller (seeds, a client that names its rules) or derived from the command id */
  ruleId?: string;
  bus: string;
  /** from the bus registry: the caller looked the bus up */
  busKind: BusKind;
  busOwner: string;
  name: string;
  description?: string;
  pattern: Record<string, unknown>;
  targets: Target[];
  /** default true */
  enabled?: boolean;
  /** default: a platform rule when the platform tenant puts it on a platform bus */
  platform?: boolean;
};

export type RuleChanges = {
  name?: string;
  description?: string | null;
  pattern?: Record<string, unknown>;
  targets?: Target[];
  enabled?: boolean;
};

export type { RuleView };

const view = (state: RuleState, revision: number): RuleView | null =>
  state.status === 'exists'
    ? {
        ...state.rule,
        busKind: state.busKind,
        busOwner: state.busOwner,
        createdAt: state.createdAt,
        updatedAt: state.updatedAt,
        revision,
      }
    : null;

const notFound = () => bridgeError('RULE.NOT_FOUND', 'no such rule');

/** A ruleId from a request path that cannot name a rule is simply not found (and never reaches a stream name). */
const checkedId = (ruleId: string): string => {
  if (!RULE_ID.test(ruleId)) throw notFound();
  return ruleId;
};

/**
 * Rule administration (create, update, enable, disable, delete, read) and platform-rule opt-outs.
 * Every write takes the command id (the HTTP Idempotency-Key, or a fresh UUID): the same id twice appends
 * nothing twice and answers the state after the first.
 */
export function createRuleCommands({ eventStore, clock }: RuleCommandsDeps) {
  const rules = commandHandler(eventStore, ruleDecider);
  const optOuts = commandHandler(eventStore, ruleOptOutDecider);
  const now = () => clock.now().toISOString();

  const load = async (tenant: string, ruleId: string): Promise<RuleView | null> => {
    const events = await eventStore.readStream(ruleStream(tenant, checkedId(ruleId)));
    return view(fold(ruleDecider, events as unknown as RuleEvent[]), events.length - 1);
  };

  const run = async (
    ruleId: string,
    command: RuleCommand,
    ctx: CommandContext,
    commandId: string,
  ): Promise<RuleView | null> => {
    const r = await rules({
      stream: ruleStream(ctx.tenant, checkedId(ruleId)),
      command,
      commandId,
      now: command.now,
      context: ctx,
    });
    return view(r.state, r.revision);
  };

  const existing = async (
    ruleId: string,
    command: RuleCommand,
    ctx: CommandContext,
    commandId: string,
  ): Promise<RuleView> => {
    const v = await run(ruleId, command, ctx, commandId);
    if (v === null) throw notFound();
    return v;
  };

  /** the platform rule a tenant opts out of or in to: it must exist (enabled or not) */
  const platformRule = async (ruleId: string): Promise<RuleView> => {
    const rule = await load(PLATFORM_TENANT, ruleId);
    if (rule === null || !rule.platform) throw bridgeError('RULE.NOT_FOUND', 'no such platform rule');
    return rule;
  };

  const runOptOut = async (command: RuleOptOutCommand, ctx: CommandContext, commandId: string) => {
    await platformRule(command.ruleId);
    const r = await optOuts({
      stream: ruleOptOutStream(command.tenant, command.ruleId),
      command,
      commandId,
      now: command.now,
      context: ctx,
    });
    return { ruleId: command.ruleId, optedOut: r.state.optedOut, changed: !r.replayed && r.events.length > 0 };
  };

  return {
    async create(
      input: CreateRuleInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ rule: RuleView; created: boolean }> {
      const ruleId = input.ruleId ?? derivedId(`rule/${ctx.tenant}/${commandId}`);
      if (!RULE_ID.test(ruleId)) {
        throw bridgeError('RULE.INVALID', 'invalid rule: ruleId must be 1-64 letters, digits, _ or -', [
          { field: 'ruleId', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' },
        ]);
      }
      const at = now();
      const command: RuleCommand = {
        type: 'CreateRule',
        ruleId,
        tenant: ctx.tenant,
        bus: input.bus,
        busKind: input.busKind,
        busOwner: input.busOwner,
        name: input.name,
        ...(input.description !== undefined && { description: input.description }),
        pattern: input.pattern,
        targets: input.targets,
        enabled: input.enabled ?? true,
        ...(input.platform !== undefined && { platform: input.platform }),
        now: at,
      };
      const r = await rules({ stream: ruleStream(ctx.tenant, ruleId), command, commandId, now: at, context: ctx });
      const rule = view(r.state, r.revision);
      if (rule === null) throw notFound(); // the same command id was a create that was deleted since
      return { rule, created: !r.replayed };
    },

    update: (ruleId: string, changes: RuleChanges, ctx: CommandContext, commandId: string) =>
      existing(ruleId, { type: 'UpdateRule', changes, now: now() }, ctx, commandId),
    enable: (ruleId: string, ctx: CommandContext, commandId: string) =>
      existing(ruleId, { type: 'EnableRule', now: now() }, ctx, commandId),
    disable: (ruleId: string, ctx: CommandContext, commandId: string) =>
      existing(ruleId, { type: 'DisableRule', now: now() }, ctx, commandId),
    async delete(ruleId: string, ctx: CommandContext, commandId: string): Promise<void> {
      await run(ruleId, { type: 'DeleteRule', now: now() }, ctx, commandId);
    },

    /** the rule as its stream says now (strongly consistent), null when absent or deleted */
    get: (tenant: string, ruleId: string): Promise<RuleView | null> =>
      RULE_ID.test(ruleId) ? load(tenant, ruleId) : Promise.resolve(null),

    /** `ctx.tenant` switches the platform rule `ruleId` off for its own events */
    optOut: (ruleId: string, ctx: CommandContext, commandId: string) =>
      runOptOut(
        { type: 'OptOutOfPlatformRule', tenant: ctx.tenant, ruleId: checkedId(ruleId), now: now() },
        ctx,
        commandId,
      ),
    optIn: (ruleId: string, ctx: CommandContext, commandId: string) =>
      runOptOut(
        { type: 'OptInToPlatformRule', tenant: ctx.tenant, ruleId: checkedId(ruleId), now: now() },
        ctx,
        commandId,
      ),
    async isOptedOut(tenant: string, ruleId: string): Promise<boolean> {
      if (!RULE_ID.test(ruleId)) return false;
      const events = await eventStore.readStream(ruleOptOutStream(tenant, ruleId));
      return fold(ruleOptOutDecider, events as unknown as RuleOptOutEvent[]).optedOut;
    },
  };
}

export type RuleCommands = ReturnType<typeof createRuleCommands>;
