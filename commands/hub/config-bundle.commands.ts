import { randomUUID } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import type {
  Channel,
  ContextDefinition,
  Definition,
  DeliveryRule,
  DeliveryService,
  Template,
} from '../../domain/hub/config.model.ts';
import {
  BUNDLE_MODULE,
  type BundleSection,
  type ConfigBundle,
  checkBundleShape,
  groupsOf,
  makeBundle,
} from '../../domain/hub/config-bundle.ts';
import {
  type FrequencyCapState,
  frequencyCapDecider,
  frequencyCapsStream,
} from '../../domain/hub/frequency-cap.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { importLockDecider, importLockStream, type ResourceGroup } from '../../domain/hub/import-lock.decider.ts';
import { type QuietHoursState, quietHoursDecider, quietHoursStream } from '../../domain/hub/quiet-hours.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import type { ConfigCommands } from './config.commands.ts';
import { createImportPlanner, type ImportAction } from './config-bundle.plan.ts';
import type { DriverRegistry } from './driver.registry.ts';

export type { ImportAction } from './config-bundle.plan.ts';

/**
 * Export and import of a tenant's hub configuration as one bundle (domain/hub/config-bundle.ts; the spec's
 * data-import module `commhub` "with group and resource-lock governance").
 *
 * Import, all or nothing:
 * 1. the bundle's shape is checked (400 IMPORT.INVALID);
 * 2. the lock of every resource group it touches is taken (domain/hub/import-lock.decider.ts), in one fixed
 *    order; one held by another import: 409 IMPORT.LOCKED, nothing written;
 * 3. a dry run (commands/hub/config-bundle.plan.ts) folds each resource's stream and runs the very decider
 *    a save runs, in memory, over the whole bundle (a rule after its definition, in the same state): every
 *    refusal is collected, and any refusal is a 400 IMPORT.INVALID listing them all, nothing written;
 * 4. then the resources are written through the configuration commands (the same writes as the admin API:
 *    cache invalidation, projections), each with a command id derived from the import id, so a retried
 *    import (same Idempotency-Key) writes nothing twice;
 * 5. the locks are released (an import that dies keeps them until their lease ends).
 * The lock commands carry a fresh id per attempt, not one derived from the import id: the command handler
 * answers a known command id as "replayed" without deciding, so a derived id would let a resent import
 * (same Idempotency-Key) pass a lock another import holds now, and its release would release nothing.
 * The idempotency of an import lives in its resource writes (step 4), not in its locks.
 * The dry run and the writes happen under the locks, so no other import interleaves. An edit made through
 * the admin API between dry run and write can still make a write fail (409): the import then stops and says
 * which resources it had written; importing the bundle again completes it.
 */
export type ImportResult = {
  ImportId: string;
  Created: number;
  Updated: number;
  Unchanged: number;
  Resources: Array<{ Section: BundleSection; Id: string; Action: ImportAction }>;
  /** delivery services this import created: their new webhook signing secrets, shown once */
  SigningSecrets: Record<string, string>;
};

type Listing<T> = { Items: T[]; Total: number };
/** the configuration listings (the `hub.config` read model's queries, projections/hub/config.projection.ts), by their shape */
export type ConfigListings = {
  channels(tenant: string, pageNo: number, pageSize: number): Promise<Listing<Channel>>;
  services(tenant: string, pageNo: number, pageSize: number): Promise<Listing<DeliveryService>>;
  templates(tenant: string, code: string | undefined, pageNo: number, pageSize: number): Promise<Listing<Template>>;
  contexts(tenant: string, pageNo: number, pageSize: number): Promise<Listing<ContextDefinition>>;
  definitions(tenant: string, code: string | undefined, pageNo: number, pageSize: number): Promise<Listing<Definition>>;
  rules(
    tenant: string,
    definitionId: string | undefined,
    pageNo: number,
    pageSize: number,
  ): Promise<Listing<DeliveryRule>>;
};

export type ConfigBundleDeps = {
  eventStore: EventStore;
  clock: Clock;
  config: ConfigCommands;
  queries: ConfigListings;
  drivers: DriverRegistry;
  /** how long an import's locks last when it dies holding them (default 15 minutes) */
  lockMs?: number;
};

export const DEFAULT_IMPORT_LOCK_MS = 15 * 60_000;

const PAGE = 200;

async function all<T>(page: (pageNo: number) => Promise<Listing<T>>): Promise<T[]> {
  const out: T[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const p = await page(pageNo);
    out.push(...p.Items);
    if (p.Items.length < PAGE || out.length >= p.Total) return out;
  }
}

export function createConfigBundle(deps: ConfigBundleDeps) {
  const { eventStore, config: c, queries: q } = deps;
  const lockHandler = commandHandler(eventStore, importLockDecider);
  const plan = createImportPlanner(deps);
  const now = () => deps.clock.now().toISOString();

  const locks = {
    /** takes the groups' locks in order; on a refusal releases those taken and rethrows (409 IMPORT.LOCKED) */
    async acquire(groups: ResourceGroup[], importId: string, ctx: CommandContext): Promise<void> {
      const { tenant } = ctx;
      const taken: ResourceGroup[] = [];
      try {
        for (const group of groups) {
          const at = now();
          const until = new Date(Date.parse(at) + (deps.lockMs ?? DEFAULT_IMPORT_LOCK_MS)).toISOString();
          await lockHandler({
            stream: importLockStream(tenant, group),
            command: { type: 'Acquire', group, importId, now: at, until },
            commandId: `import/${importId}/lock/${group}/${randomUUID()}`,
            now: at,
            context: ctx,
          });
          taken.push(group);
        }
      } catch (err) {
        await locks.release(taken, importId, ctx);
        throw err;
      }
    },
    async release(groups: ResourceGroup[], importId: string, ctx: CommandContext): Promise<void> {
      for (const group of groups) {
        const at = now();
        await lockHandler({
          stream: importLockStream(ctx.tenant, group),
          command: { type: 'Release', group, importId, now: at },
          commandId: `import/${importId}/unlock/${group}/${randomUUID()}`,
          now: at,
          context: ctx,
        });
      }
    },
  };

  async function exportBundle(tenant: string): Promise<ConfigBundle> {
    // ids from the listings, content from the streams (what a send would read now)
    const live = async <T>(items: Array<{ id: string }>, get: (id: string) => Promise<T | null>): Promise<T[]> =>
      (await Promise.all(items.map((i) => get(i.id)))).filter((x): x is Awaited<T> => x !== null) as T[];
    const [channels, services, templates, contexts, definitions, rules] = await Promise.all([
      all((n) => q.channels(tenant, n, PAGE)),
      all((n) => q.services(tenant, n, PAGE)),
      all((n) => q.templates(tenant, undefined, n, PAGE)),
      all((n) => q.contexts(tenant, n, PAGE)),
      all((n) => q.definitions(tenant, undefined, n, PAGE)),
      all((n) => q.rules(tenant, undefined, n, PAGE)),
    ]);
    const [caps, quiet] = await Promise.all([
      eventStore.readStream(frequencyCapsStream(tenant)),
      eventStore.readStream(quietHoursStream(tenant)),
    ]);
    const capState: FrequencyCapState = fold(frequencyCapDecider, caps as never);
    const quietState: QuietHoursState = fold(quietHoursDecider, quiet as never);
    return makeBundle(tenant, now(), {
      FrequencyCaps: Object.values(capState.caps),
      QuietHours: Object.values(quietState.channels),
      Channels: await live(
        channels.map((x) => ({ id: x.Code })),
        async (id) => (await c.channels.get(tenant, id))?.resource ?? null,
      ),
      DeliveryServices: await live(
        services.map((x) => ({ id: x.ServiceId })),
        async (id) => (await c.services.get(tenant, id))?.resource ?? null,
      ),
      Templates: await live(
        templates.map((x) => ({ id: x.TemplateId })),
        async (id) => (await c.templates.get(tenant, id))?.resource ?? null,
      ),
      ContextDefinitions: await live(
        contexts.map((x) => ({ id: x.ContextDefinitionId })),
        async (id) => (await c.contexts.get(tenant, id))?.resource ?? null,
      ),
      Definitions: await live(
        definitions.map((x) => ({ id: x.DefinitionId })),
        (id) => c.definitions.get(tenant, id),
      ),
      DeliveryRules: await live(
        rules.map((x) => ({ id: x.RuleId })),
        (id) => c.rules.get(tenant, id),
      ),
    });
  }

  /** imports a bundle into the context's tenant */
  async function importBundle(input: unknown, ctx: CommandContext, importId: string): Promise<ImportResult> {
    const shape = checkBundleShape(input);
    if (!shape.ok)
      throw hubError(
        'IMPORT.INVALID',
        `the bundle is not a ${BUNDLE_MODULE} bundle: ${shape.violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
        shape.violations,
      );
    const bundle = shape.bundle;
    const groups = groupsOf(bundle);
    await locks.acquire(groups, importId, ctx);
    try {
      const { planned, violations } = await plan(bundle, ctx);
      if (violations.length > 0) {
        throw hubError(
          'IMPORT.INVALID',
          `nothing was imported: ${violations.length} resource(s) refused (${violations
            .slice(0, 5)
            .map((v) => `${v.field} ${v.message}`)
            .join('; ')}${violations.length > 5 ? '; …' : ''})`,
          violations,
        );
      }
      const result: ImportResult = {
        ImportId: importId,
        Created: 0,
        Updated: 0,
        Unchanged: 0,
        Resources: [],
        SigningSecrets: {},
      };
      for (const p of planned) {
        try {
          const secret = await p.write(`import/${importId}/${p.section}/${p.id}`);
          if (typeof secret === 'string') result.SigningSecrets[p.id] = secret;
        } catch (err) {
          if (err instanceof DomainError) {
            // a concurrent edit outside imports: say how far it got
            throw hubError(
              'IMPORT.INCOMPLETE',
              `the import stopped at ${p.section} ${p.id} (${err.code}: ${err.message}); import the bundle again to complete it`,
              {
                Stopped: { Section: p.section, Id: p.id, Code: err.code },
                Written: result.Resources,
              },
            );
          }
          throw err;
        }
        result.Resources.push({ Section: p.section, Id: p.id, Action: p.action });
        if (p.action === 'CREATE') result.Created++;
        else if (p.action === 'UPDATE') result.Updated++;
        else result.Unchanged++;
      }
      return result;
    } finally {
      await locks.release(groups, importId, ctx);
    }
  }

  return { export: exportBundle, import: importBundle, locks };
}

export type ConfigBundleCommands = ReturnType<typeof createConfigBundle>;
