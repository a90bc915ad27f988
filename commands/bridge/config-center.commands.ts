import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  type ConfigEntryEvent,
  type ConfigEntryState,
  configEntryDecider,
  configEntryStream,
  isConfigKey,
  MAX_CONFIG_VALUE_LENGTH,
} from '../../domain/bridge/config-entry.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { isKeyedSealed, type KeyedSecretBox } from '../core/secret.box.ts';
import type { ConfigCenter } from './bridge.contracts.ts';

/**
 * The configuration center (entries per tenant, `configEntry-<tenant>.<key>`). Secret values are encrypted
 * before they are appended: AES-256-GCM under a key derived from the key-encryption
 * secret, with its key id (secret.box.ts, `enc:v2:<kid>.…`), bound to the entry's place
 * (`config/<tenant>/<key>`). The log, `platform replay` and the read models never hold a secret value in
 * clear; these commands and the ConfigCenter open them for the admin API's own checks and the deliveries.
 * Entries written in clear before (secret values of earlier versions) still read; `platform keys
 * rotate-config` (`reseal`) seals them, and those sealed under a previous key-encryption secret, again.
 */

/** An entry as stored (with its value in clear: the admin API masks secrets, see http/bridge/rules.router.ts). */
export type ConfigEntryView = {
  tenant: string;
  key: string;
  value: string;
  secret: boolean;
  updatedAt: string;
  revision: number;
};

export type ConfigBoxDeps = {
  /** seals and opens secret values; without it a secret value can be neither written nor read */
  box?: KeyedSecretBox;
};

const notFound = () => bridgeError('CONFIG.NOT_FOUND', 'no such configuration key');
const configAad = (tenant: string, key: string) => `config/${tenant}/${key}`;
const noBox = () =>
  new Error(
    'the configuration center needs the key-encryption secret for secret values (createConfigCommands / createConfigCenter `box`)',
  );

type Stored = { state: ConfigEntryState; revision: number };

async function readStored(eventStore: EventStore, tenant: string, key: string): Promise<Stored | null> {
  if (!isConfigKey(key)) return null;
  const events = await eventStore.readStream(configEntryStream(tenant, key));
  return { state: fold(configEntryDecider, events as unknown as ConfigEntryEvent[]), revision: events.length - 1 };
}

/** the value in clear: secret values open with the box; a value written in clear before stays readable */
function clearValue(state: Extract<ConfigEntryState, { status: 'set' }>, box: KeyedSecretBox | undefined): string {
  if (!state.secret || !isKeyedSealed(state.value)) return state.value;
  if (box === undefined) throw noBox();
  return box.open(state.value, configAad(state.tenant, state.key));
}

const view = ({ state, revision }: Stored, box: KeyedSecretBox | undefined): ConfigEntryView | null =>
  state.status === 'set'
    ? {
        tenant: state.tenant,
        key: state.key,
        value: clearValue(state, box),
        secret: state.secret,
        updatedAt: state.updatedAt,
        revision,
      }
    : null;

/** The configuration center's writes: set and remove a key of a tenant (idempotent per command id). */
export function createConfigCommands({
  eventStore,
  clock,
  box,
}: { eventStore: EventStore; clock: Clock } & ConfigBoxDeps) {
  const handle = commandHandler(eventStore, configEntryDecider);
  const now = () => clock.now().toISOString();
  return {
    async set(
      input: { key: string; value: string; secret?: boolean },
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ entry: ConfigEntryView; changed: boolean }> {
      if (!isConfigKey(input.key)) {
        throw bridgeError('CONFIG.INVALID', 'invalid configuration entry: key is not a configuration key', [
          {
            field: 'key',
            message: 'must be dot-separated segments of letters, digits, _ and - (at most 128 characters)',
          },
        ]);
      }
      const { tenant } = ctx;
      const stream = configEntryStream(tenant, input.key);
      const before = await readStored(eventStore, tenant, input.key);
      // setting a value without saying `secret` keeps the entry's flag: decided here, where the value is sealed
      const secret = input.secret ?? (before?.state.status === 'set' ? before.state.secret : false);
      let value = input.value;
      if (secret) {
        if (typeof value !== 'string' || value.length > MAX_CONFIG_VALUE_LENGTH) {
          // the decider's own check, on the clear value (a sealed one is longer)
          configEntryDecider.decide(
            { type: 'SetConfigValue', tenant, key: input.key, value, secret: false, now: now() },
            { status: 'none' },
          );
        }
        if (box === undefined) throw noBox();
        // the same secret again changes nothing (a sealed value differs at every sealing)
        if (before?.state.status === 'set' && before.state.secret && clearValue(before.state, box) === value) {
          return { entry: view(before, box)!, changed: false };
        }
        value = box.seal(value, configAad(tenant, input.key));
      }
      const at = now();
      const r = await handle({
        stream,
        command: { type: 'SetConfigValue', tenant, key: input.key, value, secret, now: at },
        commandId,
        now: at,
        context: ctx,
      });
      const entry = view({ state: r.state, revision: r.revision }, box);
      if (entry === null) throw notFound(); // a replayed set whose key was removed since
      return { entry, changed: !r.replayed && r.events.length > 0 };
    },

    async remove(key: string, ctx: CommandContext, commandId: string): Promise<void> {
      if (!isConfigKey(key)) throw notFound();
      const at = now();
      await handle({
        stream: configEntryStream(ctx.tenant, key),
        command: { type: 'RemoveConfigValue', now: at },
        commandId,
        now: at,
        context: ctx,
      });
    },

    /** the entry as its stream says now, with its value in clear (secret or not) */
    async get(tenant: string, key: string): Promise<ConfigEntryView | null> {
      const stored = await readStored(eventStore, tenant, key);
      return stored === null ? null : view(stored, box);
    },

    /**
     * `platform keys rotate-config`: every secret value not sealed under the current key-encryption secret
     * (sealed under a previous one, or written in clear by an earlier version) is sealed again and appended
     * as a new ConfigValueSet. Answers what it did; values no secret opens are listed, left as they are.
     */
    async reseal(
      ctx: CommandContext,
    ): Promise<{ resealed: string[]; current: number; failed: Array<{ entry: string; error: string }> }> {
      if (box === undefined) throw noBox();
      const result = { resealed: [] as string[], current: 0, failed: [] as Array<{ entry: string; error: string }> };
      const streams = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = await eventStore.readAll({
          ...(after !== undefined && { after }),
          filter: { categories: ['configEntry'] },
          limit: 1000,
        });
        for (const e of page) streams.add(e.stream);
        if (page.length < 1000) break;
        after = page[page.length - 1]!.position;
      }
      for (const stream of streams) {
        const events = await eventStore.readStream(stream);
        const state = fold(configEntryDecider, events as unknown as ConfigEntryEvent[]);
        if (state.status !== 'set' || !state.secret) continue;
        const name = `${state.tenant}/${state.key}`;
        if (box.kidOf(state.value) === box.kid) {
          result.current++;
          continue;
        }
        let clear: string;
        try {
          clear = clearValue(state, box);
        } catch (err) {
          result.failed.push({ entry: name, error: err instanceof Error ? err.message : String(err) });
          continue;
        }
        const at = now();
        await handle({
          stream,
          command: {
            type: 'SetConfigValue',
            tenant: state.tenant,
            key: state.key,
            value: box.seal(clear, configAad(state.tenant, state.key)),
            secret: true,
            now: at,
          },
          // one command per entry, key and revision: a rerun after a crash seals each entry once
          commandId: `rotate-config/${box.kid}/${stream}@${events.length - 1}`,
          now: at,
          context: forTenant(ctx, state.tenant),
        });
        result.resealed.push(name);
      }
      return result;
    },
  };
}

export type ConfigCommands = ReturnType<typeof createConfigCommands>;

/**
 * The ConfigCenter the bridge's conversions and deliveries read (ENV_PARAM, the environment-variable
 * conversion): one stream read per lookup, so a value set a moment ago is seen at once; secret values are
 * opened with `box`. Strictly per tenant: no fallback to the platform tenant's keys.
 */
export function createConfigCenter({ eventStore, box }: { eventStore: EventStore } & ConfigBoxDeps): ConfigCenter {
  return {
    async get(tenant, key) {
      if (tenant.length === 0 || tenant.includes('.')) return undefined;
      const stored = await readStored(eventStore, tenant, key);
      return stored === null ? undefined : (view(stored, box)?.value ?? undefined);
    },
  };
}
