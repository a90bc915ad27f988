import { fold } from '../../domain/core/decider.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  configEntryDecider,
  configEntryStream,
  isConfigKey,
  type ConfigEntryEvent,
  type ConfigEntryState,
} from '../../domain/bridge/config-entry.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler, type CommandContext } from '../core/command-handler.ts';
import type { ConfigCenter } from './bridge.contracts.ts';

/** An entry as stored (with its value: the admin API masks secrets, see http/bridge/rules.router.ts). */
export type ConfigEntryView = { tenant: string; key: string; value: string; secret: boolean; updatedAt: string; revision: number };

const view = (state: ConfigEntryState, revision: number): ConfigEntryView | null =>
  state.status === 'set'
    ? { tenant: state.tenant, key: state.key, value: state.value, secret: state.secret, updatedAt: state.updatedAt, revision }
    : null;

const notFound = () => bridgeError('CONFIG.NOT_FOUND', 'no such configuration key');

async function readEntry(eventStore: EventStore, tenant: string, key: string): Promise<ConfigEntryView | null> {
  if (!isConfigKey(key)) return null;
  const events = await eventStore.readStream(configEntryStream(tenant, key));
  return view(fold(configEntryDecider, events as unknown as ConfigEntryEvent[]), events.length - 1);
}

/** The configuration center's writes: set and remove a key of a tenant (idempotent per command id). */
export function createConfigCommands({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, configEntryDecider);
  const now = () => clock.now().toISOString();
  return {
    async set(
      input: { tenant: string; key: string; value: string; secret?: boolean },
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ entry: ConfigEntryView; changed: boolean }> {
      if (!isConfigKey(input.key)) {
        throw bridgeError('CONFIG.INVALID', 'invalid configuration entry: key is not a configuration key', [
          { field: 'key', message: 'must be dot-separated segments of letters, digits, _ and - (at most 128 characters)' },
        ]);
      }
      const at = now();
      const r = await handle({
        stream: configEntryStream(input.tenant, input.key),
        command: {
          type: 'SetConfigValue',
          tenant: input.tenant,
          key: input.key,
          value: input.value,
          ...(input.secret !== undefined && { secret: input.secret }),
          now: at,
        },
        commandId,
        now: at,
        context: { ...ctx, tenant: input.tenant },
      });
      const entry = view(r.state, r.revision);
      if (entry === null) throw notFound(); // a replayed set whose key was removed since
      return { entry, changed: !r.replayed && r.events.length > 0 };
    },

    async remove(tenant: string, key: string, ctx: CommandContext, commandId: string): Promise<void> {
      if (!isConfigKey(key)) throw notFound();
      const at = now();
      await handle({ stream: configEntryStream(tenant, key), command: { type: 'RemoveConfigValue', now: at }, commandId, now: at, context: { ...ctx, tenant } });
    },

    /** the entry as its stream says now, with its value (secret or not) */
    get: (tenant: string, key: string): Promise<ConfigEntryView | null> => readEntry(eventStore, tenant, key),
  };
}

export type ConfigCommands = ReturnType<typeof createConfigCommands>;

/**
 * The ConfigCenter the bridge's conversions and deliveries read (ENV_PARAM, the environment-variable
 * conversion): one stream read per lookup, so a value set a moment ago is seen at once. Strictly per
 * tenant: no fallback to the platform tenant's keys.
 */
export function createConfigCenter({ eventStore }: { eventStore: EventStore }): ConfigCenter {
  return {
    async get(tenant, key) {
      if (tenant.length === 0 || tenant.includes('.')) return undefined;
      return (await readEntry(eventStore, tenant, key))?.value;
    },
  };
}
