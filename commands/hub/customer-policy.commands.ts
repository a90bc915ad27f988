import { createHash } from 'node:crypto';
import type { DomainEvent } from '../../domain/core/event.ts';
import { type FrequencyCap, frequencyCapDecider, frequencyCapsStream } from '../../domain/hub/frequency-cap.decider.ts';
import { quotaDecider, quotaStream, usage } from '../../domain/hub/frequency-quota.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import {
  type Interaction,
  type InteractionInput,
  interactionDecider,
  interactionStream,
  preferenceChangeOf,
} from '../../domain/hub/interaction.decider.ts';
import {
  effectivePreference,
  type Preference,
  type PreferenceAnswer,
  type PreferenceDecision,
  type PreferenceKey,
  preferenceDecider,
  preferenceStream,
} from '../../domain/hub/preference.decider.ts';
import { type ChannelQuietHours, quietHoursDecider, quietHoursStream } from '../../domain/hub/quiet-hours.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import {
  type CommandContext,
  type CommandEnvelope,
  type CommandResult,
  commandHandler,
} from '../core/command-handler.ts';
import { loadAggregate as load } from '../core/load-aggregate.ts';
import { readPreference, readPreferenceFacts } from './dispatch-gate.ts';
import type { HubSettings } from './hub.contracts.ts';

/**
 * The customer-policy commands and live reads (docs/hub.md#customer-policies): preferences, interactions,
 * frequency caps, quiet hours and a recipient's quota usage. Reads by key come from the streams (live);
 * listings (a recipient's preferences, interactions) from the `hub.customer` read model.
 *
 * Recording an OPT_OUT / OPT_IN interaction sets the preference in the same request, after the
 * interaction is stored, with a command id derived from the InteractionId (the immediate answer shows it);
 * the checkpointed reactor commands/hub/interaction-preference.reactor.ts applies every recorded
 * interaction's change with the same command id, so a crash between the two appends only delays it.
 */
export type CustomerPolicyDeps = { eventStore: EventStore; clock: Clock; settings: HubSettings };

/**
 * the command id of a recorded interaction: its id and content (a resend with the same content is a replay;
 * other content under the same id is decided, and refused as INTERACTION.EXISTS)
 */
const contentHash = (i: object) =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(i).sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex')
    .slice(0, 32);

export function createCustomerPolicies(deps: CustomerPolicyDeps) {
  const { eventStore } = deps;
  const now = () => deps.clock.now().toISOString();
  const prefs = commandHandler(eventStore, preferenceDecider);
  const interactions = commandHandler(eventStore, interactionDecider);
  const caps = commandHandler(eventStore, frequencyCapDecider);
  const quiet = commandHandler(eventStore, quietHoursDecider);
  /** one command on a stream of the context's tenant, decided at the clock's now */
  function run<C, E extends DomainEvent, S>(
    handle: (e: CommandEnvelope<C, S>) => Promise<CommandResult<E, S>>,
    stream: string,
    ctx: CommandContext,
    commandId: string,
    command: (at: string) => C,
  ) {
    const at = now();
    return handle({ stream, command: command(at), commandId, now: at, context: ctx });
  }

  async function setPreference(
    key: PreferenceKey,
    decision: PreferenceDecision,
    ctx: CommandContext,
    commandId: string,
    interactionId?: string,
  ): Promise<Preference> {
    const r = await run(prefs, preferenceStream(ctx.tenant, key), ctx, commandId, (at) => ({
      type: 'SetPreference' as const,
      key,
      Decision: decision,
      Source: interactionId === undefined ? ('API' as const) : ('INTERACTION' as const),
      ...(interactionId !== undefined && { InteractionId: interactionId }),
      now: at,
    }));
    return r.state.preference!;
  }

  /**
   * An OPT_OUT / OPT_IN interaction's preference change, idempotent: its command id is derived from the
   * InteractionId, so the request's own call and the `hub.interaction-preference` reactor (which applies every
   * recorded interaction, covering a crash between the two appends) set it once between them.
   */
  async function applyInteraction(interaction: InteractionInput, ctx: CommandContext): Promise<Preference | undefined> {
    const change = preferenceChangeOf(interaction);
    if (change === null) return undefined;
    return setPreference(
      change.key,
      change.Decision,
      { ...ctx, causationId: interaction.InteractionId },
      `interaction/${interaction.InteractionId}/preference`,
      interaction.InteractionId,
    );
  }

  return {
    applyInteraction,
    preferences: {
      get: (tenant: string, key: PreferenceKey) => readPreference(eventStore, tenant, key),
      set: (key: PreferenceKey, decision: PreferenceDecision, ctx: CommandContext, commandId: string) =>
        setPreference(key, decision, ctx, commandId),
      async remove(key: PreferenceKey, ctx: CommandContext, commandId: string): Promise<void> {
        await run(prefs, preferenceStream(ctx.tenant, key), ctx, commandId, (at) => ({
          type: 'RemovePreference' as const,
          key,
          now: at,
        }));
      },
      /** what the dispatch gate would answer now for a recipient, channel and class (RESPECT policy) */
      async effective(tenant: string, key: PreferenceKey): Promise<PreferenceAnswer> {
        const f = await readPreferenceFacts(eventStore, deps.settings, tenant, key);
        return effectivePreference(f.exact, f.channelWide, f.defaultAllow);
      },
    },
    interactions: {
      async get(tenant: string, id: string): Promise<Interaction | null> {
        return (await load(eventStore, interactionDecider, interactionStream(tenant, id))).state.interaction;
      },
      /** records it (201 first time, or the stored one on an equivalent resend) and applies an OPT_OUT / OPT_IN to the preference */
      async record(
        given: Omit<InteractionInput, 'ReceivedAt'> & { ReceivedAt?: string },
        ctx: CommandContext,
      ): Promise<{ interaction: Interaction; created: boolean; preference?: Preference }> {
        const at = now();
        const input: InteractionInput = { ...given, ReceivedAt: given.ReceivedAt ?? at };
        const r = await interactions({
          stream: interactionStream(ctx.tenant, input.InteractionId),
          command: { type: 'RecordInteraction', interaction: input, now: at },
          commandId: `interaction/${input.InteractionId}/${contentHash(given)}`,
          now: at,
          context: ctx,
        });
        const preference = await applyInteraction(r.state.interaction!, ctx);
        return {
          interaction: r.state.interaction!,
          created: r.events.length > 0 && !r.replayed,
          ...(preference !== undefined && { preference }),
        };
      },
      async handle(
        id: string,
        resolution: 'HANDLED' | 'DISMISSED',
        note: string | undefined,
        by: string,
        ctx: CommandContext,
        commandId: string,
      ): Promise<Interaction> {
        const r = await run(interactions, interactionStream(ctx.tenant, id), ctx, commandId, (at) => ({
          type: 'HandleInteraction' as const,
          InteractionId: id,
          Resolution: resolution,
          By: by,
          ...(note !== undefined && { Note: note }),
          now: at,
        }));
        return r.state.interaction!;
      },
    },
    frequencyCaps: {
      async list(tenant: string): Promise<Array<FrequencyCap & { UpdatedAt: string }>> {
        const { state } = await load(eventStore, frequencyCapDecider, frequencyCapsStream(tenant));
        return Object.values(state.caps).sort((a, b) => a.Category.localeCompare(b.Category));
      },
      async save(
        cap: FrequencyCap,
        ctx: CommandContext,
        commandId: string,
      ): Promise<FrequencyCap & { UpdatedAt: string }> {
        const r = await run(caps, frequencyCapsStream(ctx.tenant), ctx, commandId, (at) => ({
          type: 'SaveFrequencyCap' as const,
          cap,
          now: at,
        }));
        return r.state.caps[cap.Category]!;
      },
      async remove(category: string, ctx: CommandContext, commandId: string): Promise<void> {
        await run(caps, frequencyCapsStream(ctx.tenant), ctx, commandId, (at) => ({
          type: 'RemoveFrequencyCap' as const,
          Category: category,
          now: at,
        }));
      },
      /** a recipient's reservations in the longest configured window, and the usage against each cap now */
      async usage(tenant: string, recipientId: string) {
        const at = now();
        const [{ state: quota }, { state: capState }] = await Promise.all([
          load(eventStore, quotaDecider, quotaStream(tenant, recipientId)),
          load(eventStore, frequencyCapDecider, frequencyCapsStream(tenant)),
        ]);
        const list = Object.values(capState.caps);
        const longest = Math.max(0, ...list.map((c) => c.WindowSeconds));
        const from = new Date(Date.parse(at) - longest * 1000).toISOString();
        return {
          RecipientId: recipientId,
          Caps: list.map((c) => ({
            Category: c.Category,
            Limit: c.Limit,
            WindowSeconds: c.WindowSeconds,
            Used: usage(quota, c, at),
          })),
          Reservations: Object.values(quota.reservations)
            .filter((r) => r.At > from)
            .sort((a, b) => a.At.localeCompare(b.At)),
        };
      },
    },
    quietHours: {
      async list(tenant: string): Promise<Array<ChannelQuietHours & { UpdatedAt: string }>> {
        const { state } = await load(eventStore, quietHoursDecider, quietHoursStream(tenant));
        return Object.values(state.channels).sort((a, b) => a.Channel.localeCompare(b.Channel));
      },
      async get(tenant: string, channel: string): Promise<ChannelQuietHours & { UpdatedAt: string }> {
        const { state } = await load(eventStore, quietHoursDecider, quietHoursStream(tenant));
        const h = state.channels[channel];
        if (h === undefined)
          throw hubError('QUIET_HOURS.NOT_FOUND', `no quiet hours for channel ${channel}`, { Channel: channel });
        return h;
      },
      async save(
        hours: ChannelQuietHours,
        ctx: CommandContext,
        commandId: string,
      ): Promise<ChannelQuietHours & { UpdatedAt: string }> {
        const r = await run(quiet, quietHoursStream(ctx.tenant), ctx, commandId, (at) => ({
          type: 'SaveQuietHours' as const,
          hours,
          now: at,
        }));
        return r.state.channels[hours.Channel]!;
      },
      async remove(channel: string, ctx: CommandContext, commandId: string): Promise<void> {
        await run(quiet, quietHoursStream(ctx.tenant), ctx, commandId, (at) => ({
          type: 'RemoveQuietHours' as const,
          Channel: channel,
          now: at,
        }));
      },
    },
  };
}

export type CustomerPolicies = ReturnType<typeof createCustomerPolicies>;
