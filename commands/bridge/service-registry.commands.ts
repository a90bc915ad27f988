import { createHash } from 'node:crypto';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import {
  SERVICE_NAME,
  type ServiceEntry,
  type ServiceEntryEvent,
  serviceEntryDecider,
  serviceEntryStream,
} from '../../domain/bridge/service-entry.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { createStreamCache } from '../core/stream-cache.ts';

/**
 * The service registry as a configuration resource: per-tenant entries (name → base URL
 * and receive path) written through the admin API, the platform tenant's being the platform's. The preset
 * HTTP target resolves a name at delivery time (`resolve`: the rule tenant's entry, else the platform's),
 * reading the entry streams (one or two stream reads: a changed URL counts for the next delivery, in every
 * process, without a restart). SERVICE_REGISTRY seeds platform entries at start (`seed`).
 */
export type ResolvedService = ServiceEntry & { scope: 'tenant' | 'platform' };

export function createServiceRegistry({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, serviceEntryDecider);
  // entries kept folded: each resolve reads only what was appended since (usually nothing)
  const entries = createStreamCache<ServiceEntryEvent, ReturnType<typeof serviceEntryDecider.initialState>>(
    eventStore,
    serviceEntryDecider,
  );
  const readEntry = async (tenant: string, name: string): Promise<ServiceEntry | null> => {
    if (!SERVICE_NAME.test(name)) return null;
    const { state } = await entries.load(serviceEntryStream(tenant, name));
    return state.status === 'set' ? state.entry : null;
  };
  const now = () => clock.now().toISOString();

  async function set(
    input: { name: string; baseUrl: string; receivePath?: string },
    ctx: CommandContext,
    commandId: string,
  ) {
    const at = now();
    const r = await handle({
      stream: serviceEntryStream(ctx.tenant, input.name),
      command: { type: 'SetServiceEntry', ...input, tenant: ctx.tenant, now: at },
      commandId,
      now: at,
      context: ctx,
    });
    // a replayed set (same command id) of an entry removed since
    if (r.state.status !== 'set')
      throw bridgeError('SERVICE.NOT_FOUND', 'the service entry was removed since this request was first made');
    return { entry: r.state.entry, changed: !r.replayed && r.events.length > 0 };
  }

  return {
    set,

    async remove(name: string, ctx: CommandContext, commandId: string): Promise<void> {
      const at = now();
      await handle({
        stream: serviceEntryStream(ctx.tenant, name),
        command: { type: 'RemoveServiceEntry', now: at },
        commandId,
        now: at,
        context: ctx,
      });
    },

    /** the tenant's own entry (not the platform's) */
    get: (tenant: string, name: string): Promise<ServiceEntry | null> => readEntry(tenant, name),

    /** the entry a rule of `tenant` delivers to: its own, else the platform's */
    async resolve(tenant: string, name: string): Promise<ResolvedService | null> {
      const own = tenant === PLATFORM_TENANT ? null : await readEntry(tenant, name);
      if (own !== null) return { ...own, scope: 'tenant' };
      const platform = await readEntry(PLATFORM_TENANT, name);
      return platform === null ? null : { ...platform, scope: 'platform' };
    },

    /**
     * SERVICE_REGISTRY at start: a platform entry per name. The command id is derived from the name and URL,
     * so a restart with the same value writes nothing, and an entry changed through the API since stays
     * as it was unless the variable itself changes.
     */
    async seed(registry: Readonly<Record<string, string>>): Promise<number> {
      let written = 0;
      for (const [name, baseUrl] of Object.entries(registry)) {
        const digest = createHash('sha256').update(`${name}\n${baseUrl}`).digest('hex').slice(0, 32);
        const at = now();
        // a seed the operator removed since (same command id again) stays removed: nothing to do
        const r = await handle({
          stream: serviceEntryStream(PLATFORM_TENANT, name),
          command: { type: 'SetServiceEntry', tenant: PLATFORM_TENANT, name, baseUrl, now: at },
          commandId: `service-registry/seed/${digest}`,
          now: at,
          context: { tenant: PLATFORM_TENANT, actor: 'system:SERVICE_REGISTRY' },
        });
        if (!r.replayed && r.events.length > 0) written++;
      }
      return written;
    },
  };
}

export type ServiceRegistryCommands = ReturnType<typeof createServiceRegistry>;
