import { fold, type Decider } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import { channelDecider, channelStream, contextDecider, contextStream, templateDecider, templateStream } from '../../domain/hub/config.deciders.ts';
import { checkBundleShape, groupsOf, makeBundle, type BundleSection, type ConfigBundle } from '../../domain/hub/config-bundle.ts';
import { parseDefinitionId, parseRuleId, type Channel, type ContextDefinition, type Definition, type DeliveryRule, type DeliveryService, type Template } from '../../domain/hub/config.model.ts';
import { definitionDecider, definitionStream, type DefinitionCommand, type DefinitionState } from '../../domain/hub/definition.decider.ts';
import { deliveryServiceDecider, deliveryServiceStream } from '../../domain/hub/delivery-service.decider.ts';
import { frequencyCapDecider, frequencyCapsStream, type FrequencyCapState } from '../../domain/hub/frequency-cap.decider.ts';
import { hubError, type Violation } from '../../domain/hub/hub.errors.ts';
import { importLockDecider, importLockStream, type ResourceGroup } from '../../domain/hub/import-lock.decider.ts';
import { quietHoursDecider, quietHoursStream, type QuietHoursState } from '../../domain/hub/quiet-hours.ts';
import { canonicalJson, type ResourceCommand, type ResourceState } from '../../domain/hub/resource.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler, type CommandContext } from '../core/command-handler.ts';
import type { ConfigCommands } from './config.commands.ts';
import type { DriverRegistry } from './driver.registry.ts';

/**
 * Export and import of a tenant's hub configuration as one bundle (domain/hub/config-bundle.ts; the spec's
 * data-import module `commhub` "with group and resource-lock governance").
 *
 * Import, all or nothing:
 * 1. the bundle's shape is checked (400 IMPORT.INVALID);
 * 2. the lock of every resource group it touches is taken (domain/hub/import-lock.decider.ts), in one fixed
 *    order; one held by another import: 409 IMPORT.LOCKED, nothing written;
 * 3. a dry run folds each resource's stream and runs the very decider a save runs, in memory, over the whole
 *    bundle (a rule after its definition, in the same state): every refusal is collected, and any refusal
 *    is a 400 IMPORT.INVALID listing them all, nothing written;
 * 4. then the resources are written through the configuration commands (the same writes as the admin API:
 *    cache invalidation, projections), each with a command id derived from the import id, so a retried
 *    import (same Idempotency-Key) writes nothing twice;
 * 5. the locks are released (an import that dies keeps them until their lease ends).
 * The dry run and the writes happen under the locks, so no other import interleaves. An edit made through
 * the admin API between dry run and write can still make a write fail (409): the import then stops and says
 * which resources it had written; importing the bundle again completes it.
 */
export type ImportAction = 'CREATE' | 'UPDATE' | 'UNCHANGED';
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
  rules(tenant: string, definitionId: string | undefined, pageNo: number, pageSize: number): Promise<Listing<DeliveryRule>>;
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

type Planned = { section: BundleSection; id: string; action: ImportAction; write: (ctx: CommandContext, commandId: string) => Promise<string | void> };

const PAGE = 200;

async function all<T>(page: (pageNo: number) => Promise<{ Items: T[]; Total: number }>): Promise<T[]> {
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
  const capsHandler = commandHandler(eventStore, frequencyCapDecider);
  const quietHandler = commandHandler(eventStore, quietHoursDecider);
  const now = () => deps.clock.now().toISOString();

  const locks = {
    /** takes the groups' locks in order; on a refusal releases those taken and rethrows (409 IMPORT.LOCKED) */
    async acquire(tenant: string, groups: ResourceGroup[], importId: string, ctx: CommandContext): Promise<void> {
      const taken: ResourceGroup[] = [];
      try {
        for (const group of groups) {
          const at = now();
          const until = new Date(Date.parse(at) + (deps.lockMs ?? DEFAULT_IMPORT_LOCK_MS)).toISOString();
          await lockHandler({ stream: importLockStream(tenant, group), command: { type: 'Acquire', group, importId, now: at, until }, commandId: `import/${importId}/lock/${group}`, now: at, context: { ...ctx, tenant } });
          taken.push(group);
        }
      } catch (err) {
        await locks.release(tenant, taken, importId, ctx);
        throw err;
      }
    },
    async release(tenant: string, groups: ResourceGroup[], importId: string, ctx: CommandContext): Promise<void> {
      for (const group of groups) {
        const at = now();
        await lockHandler({ stream: importLockStream(tenant, group), command: { type: 'Release', group, importId, now: at }, commandId: `import/${importId}/unlock/${group}`, now: at, context: { ...ctx, tenant } });
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
    const [caps, quiet] = await Promise.all([eventStore.readStream(frequencyCapsStream(tenant)), eventStore.readStream(quietHoursStream(tenant))]);
    const capState: FrequencyCapState = fold(frequencyCapDecider, caps as never);
    const quietState: QuietHoursState = fold(quietHoursDecider, quiet as never);
    return makeBundle(tenant, now(), {
      FrequencyCaps: Object.values(capState.caps),
      QuietHours: Object.values(quietState.channels),
      Channels: await live(channels.map((x) => ({ id: x.Code })), async (id) => (await c.channels.get(tenant, id))?.resource ?? null),
      DeliveryServices: await live(services.map((x) => ({ id: x.ServiceId })), async (id) => (await c.services.get(tenant, id))?.resource ?? null),
      Templates: await live(templates.map((x) => ({ id: x.TemplateId })), async (id) => (await c.templates.get(tenant, id))?.resource ?? null),
      ContextDefinitions: await live(contexts.map((x) => ({ id: x.ContextDefinitionId })), async (id) => (await c.contexts.get(tenant, id))?.resource ?? null),
      Definitions: await live(definitions.map((x) => ({ id: x.DefinitionId })), (id) => c.definitions.get(tenant, id)),
      DeliveryRules: await live(rules.map((x) => ({ id: x.RuleId })), (id) => c.rules.get(tenant, id)),
    });
  }

  /** the dry run: every write the import would make, decided in memory on the current streams */
  async function plan(tenant: string, bundle: ConfigBundle): Promise<{ planned: Planned[]; violations: Violation[] }> {
    const planned: Planned[] = [];
    const violations: Violation[] = [];
    const refused = (field: string, err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      const details = Array.isArray(err.details) ? (err.details as Violation[]) : [];
      if (details.length > 0) for (const d of details) violations.push({ field: `${field}.${d.field}`, message: `${err.code}: ${d.message}` });
      else violations.push({ field, message: `${err.code}: ${err.message}` });
    };

    const simple = async <T>(section: BundleSection, items: T[], decider: Decider<ResourceCommand<T>, DomainEvent, ResourceState<T>>, streamOf: (id: string) => string, idOf: (t: T) => string, api: { create: (t: T, ctx: CommandContext, id: string) => Promise<unknown>; update: (t: T, ctx: CommandContext, id: string) => Promise<unknown> }, extra?: (t: T) => void) => {
      for (const [i, item] of items.entries()) {
        const id = idOf(item);
        try {
          extra?.(item);
          const state = fold(decider, (await eventStore.readStream(streamOf(id))) as unknown as DomainEvent[]);
          const live = state.status === 'live';
          if (live && canonicalJson(state.resource) === canonicalJson(item)) {
            planned.push({ section, id, action: 'UNCHANGED', write: async () => undefined });
            continue;
          }
          decider.decide({ type: live ? 'Update' : 'Create', resource: item, now: now() }, state);
          planned.push({ section, id, action: live ? 'UPDATE' : 'CREATE', write: async (ctx, commandId) => void (await (live ? api.update : api.create)(item, ctx, commandId)) });
        } catch (err) {
          refused(`${section}.${i}`, err);
        }
      }
    };

    await simple<Channel>('Channels', bundle.Channels, channelDecider as never, (id) => channelStream(tenant, id), (x) => x.Code, {
      create: (x, ctx, id) => c.channels.create(tenant, x, ctx, id),
      update: (x, ctx, id) => c.channels.update(tenant, x, ctx, id),
    });
    // delivery services: the driver checks the settings; a created one gets a new signing secret
    for (const [i, s] of bundle.DeliveryServices.entries()) {
      try {
        deps.drivers.validate(s.DriverType, s.Settings, s.Channel);
        const state = fold(deliveryServiceDecider, (await eventStore.readStream(deliveryServiceStream(tenant, s.ServiceId))) as never);
        const live = state.status === 'live';
        if (live && canonicalJson(state.resource) === canonicalJson(s)) {
          planned.push({ section: 'DeliveryServices', id: s.ServiceId, action: 'UNCHANGED', write: async () => undefined });
          continue;
        }
        deliveryServiceDecider.decide(live ? { type: 'Update', resource: s, now: now() } : { type: 'Create', resource: s, sealedSecret: 'dry-run', now: now() }, state);
        planned.push({
          section: 'DeliveryServices',
          id: s.ServiceId,
          action: live ? 'UPDATE' : 'CREATE',
          write: async (ctx, commandId) => (live ? void (await c.services.update(tenant, s, ctx, commandId)) : (await c.services.create(tenant, s as DeliveryService, ctx, commandId)).signingSecret),
        });
      } catch (err) {
        refused(`DeliveryServices.${i}`, err);
      }
    }
    await simple<Template>('Templates', bundle.Templates, templateDecider as never, (id) => templateStream(tenant, id), (x) => x.TemplateId, {
      create: (x, ctx, id) => c.templates.create(tenant, x, ctx, id),
      update: (x, ctx, id) => c.templates.update(tenant, x, ctx, id),
    });
    await simple<ContextDefinition>('ContextDefinitions', bundle.ContextDefinitions, contextDecider as never, (id) => contextStream(tenant, id), (x) => x.ContextDefinitionId, {
      create: (x, ctx, id) => c.contexts.create(tenant, x, ctx, id),
      update: (x, ctx, id) => c.contexts.update(tenant, x, ctx, id),
    });

    // definitions, then rules, each notification code's stream folded once and carried through the bundle
    const states = new Map<string, DefinitionState>();
    const stateOf = async (code: string) => {
      let s = states.get(code);
      if (s === undefined) {
        s = fold(definitionDecider, (await eventStore.readStream(definitionStream(tenant, code))) as never);
        states.set(code, s);
      }
      return s;
    };
    const decideDefinition = async (code: string, command: DefinitionCommand) => {
      let s = await stateOf(code);
      for (const e of definitionDecider.decide(command, s)) s = definitionDecider.evolve(s, e);
      states.set(code, s);
    };
    for (const [i, d] of bundle.Definitions.entries()) {
      try {
        const parsed = parseDefinitionId(d.DefinitionId);
        if (parsed === null || parsed.code !== d.NotificationCode || parsed.version !== d.Version) {
          throw hubError('DEFINITION.INVALID', 'DefinitionId must be <NotificationCode>:<Version> of the definition', [{ field: 'DefinitionId', message: 'must be <NotificationCode>:<Version>' }]);
        }
        const current = (await stateOf(d.NotificationCode)).versions[d.Version];
        if (current !== undefined && canonicalJson(current) === canonicalJson(d)) {
          planned.push({ section: 'Definitions', id: d.DefinitionId, action: 'UNCHANGED', write: async () => undefined });
          continue;
        }
        const { DefinitionId: _id, ...input } = d;
        await decideDefinition(d.NotificationCode, current !== undefined ? { type: 'UpdateDefinition', definition: d, now: now() } : { type: 'CreateDefinition', definition: input, now: now() });
        planned.push({
          section: 'Definitions',
          id: d.DefinitionId,
          action: current !== undefined ? 'UPDATE' : 'CREATE',
          write: async (ctx, commandId) => void (await (current !== undefined ? c.definitions.update(tenant, d, ctx, commandId) : c.definitions.create(tenant, input, ctx, commandId))),
        });
      } catch (err) {
        refused(`Definitions.${i}`, err);
      }
    }
    for (const [i, r] of bundle.DeliveryRules.entries()) {
      try {
        const parsed = parseRuleId(r.RuleId);
        if (parsed === null || parsed.definitionId !== r.DefinitionId) {
          throw hubError('DELIVERY_RULE.INVALID', 'RuleId must be <DefinitionId>:<RuleKey> of the rule', [{ field: 'RuleId', message: 'must be <DefinitionId>:<RuleKey>' }]);
        }
        const current = (await stateOf(parsed.code)).rules[r.RuleId];
        if (current !== undefined && canonicalJson(current) === canonicalJson(r)) {
          planned.push({ section: 'DeliveryRules', id: r.RuleId, action: 'UNCHANGED', write: async () => undefined });
          continue;
        }
        await decideDefinition(parsed.code, current !== undefined ? { type: 'UpdateRule', rule: r, now: now() } : { type: 'CreateRule', rule: r, now: now() });
        planned.push({
          section: 'DeliveryRules',
          id: r.RuleId,
          action: current !== undefined ? 'UPDATE' : 'CREATE',
          write: async (ctx, commandId) => void (await (current !== undefined ? c.rules.update(tenant, r, ctx, commandId) : c.rules.create(tenant, r, ctx, commandId))),
        });
      } catch (err) {
        refused(`DeliveryRules.${i}`, err);
      }
    }

    // the customer-policy configuration: one stream per tenant each, carried through the bundle like definitions
    let capState: FrequencyCapState = fold(frequencyCapDecider, (await eventStore.readStream(frequencyCapsStream(tenant))) as never);
    for (const [i, cap] of bundle.FrequencyCaps.entries()) {
      try {
        const current = capState.caps[cap.Category];
        const same = current !== undefined && current.Limit === cap.Limit && current.WindowSeconds === cap.WindowSeconds;
        const events = frequencyCapDecider.decide({ type: 'SaveFrequencyCap', cap, now: now() }, capState);
        for (const e of events) capState = frequencyCapDecider.evolve(capState, e);
        planned.push({
          section: 'FrequencyCaps',
          id: cap.Category,
          action: same ? 'UNCHANGED' : current === undefined ? 'CREATE' : 'UPDATE',
          write: async (ctx, commandId) => {
            if (same) return;
            const at = now();
            await capsHandler({ stream: frequencyCapsStream(tenant), command: { type: 'SaveFrequencyCap', cap: { Category: cap.Category, Limit: cap.Limit, WindowSeconds: cap.WindowSeconds }, now: at }, commandId, now: at, context: { ...ctx, tenant } });
          },
        });
      } catch (err) {
        refused(`FrequencyCaps.${i}`, err);
      }
    }
    let quietState: QuietHoursState = fold(quietHoursDecider, (await eventStore.readStream(quietHoursStream(tenant))) as never);
    for (const [i, hours] of bundle.QuietHours.entries()) {
      try {
        const current = quietState.channels[hours.Channel];
        const same = current !== undefined && canonicalJson(current.Windows) === canonicalJson(hours.Windows);
        const events = quietHoursDecider.decide({ type: 'SaveQuietHours', hours, now: now() }, quietState);
        for (const e of events) quietState = quietHoursDecider.evolve(quietState, e);
        planned.push({
          section: 'QuietHours',
          id: hours.Channel,
          action: same ? 'UNCHANGED' : current === undefined ? 'CREATE' : 'UPDATE',
          write: async (ctx, commandId) => {
            if (same) return;
            const at = now();
            await quietHandler({ stream: quietHoursStream(tenant), command: { type: 'SaveQuietHours', hours: { Channel: hours.Channel, Windows: hours.Windows }, now: at }, commandId, now: at, context: { ...ctx, tenant } });
          },
        });
      } catch (err) {
        refused(`QuietHours.${i}`, err);
      }
    }
    return { planned, violations };
  }

  async function importBundle(tenant: string, input: unknown, ctx: CommandContext, importId: string): Promise<ImportResult> {
    const shape = checkBundleShape(input);
    if (!shape.ok) throw hubError('IMPORT.INVALID', `the bundle is not a ${'commhub'} bundle: ${shape.violations.map((v) => `${v.field} ${v.message}`).join('; ')}`, shape.violations);
    const bundle = shape.bundle;
    const groups = groupsOf(bundle);
    await locks.acquire(tenant, groups, importId, ctx);
    try {
      const { planned, violations } = await plan(tenant, bundle);
      if (violations.length > 0) {
        throw hubError('IMPORT.INVALID', `nothing was imported: ${violations.length} resource(s) refused (${violations.slice(0, 5).map((v) => `${v.field} ${v.message}`).join('; ')}${violations.length > 5 ? '; …' : ''})`, violations);
      }
      const result: ImportResult = { ImportId: importId, Created: 0, Updated: 0, Unchanged: 0, Resources: [], SigningSecrets: {} };
      for (const p of planned) {
        try {
          const secret = await p.write(ctx, `import/${importId}/${p.section}/${p.id}`);
          if (typeof secret === 'string') result.SigningSecrets[p.id] = secret;
        } catch (err) {
          if (err instanceof DomainError) {
            // a concurrent edit outside imports: say how far it got
            throw hubError('IMPORT.INCOMPLETE', `the import stopped at ${p.section} ${p.id} (${err.code}: ${err.message}); import the bundle again to complete it`, {
              Stopped: { Section: p.section, Id: p.id, Code: err.code },
              Written: result.Resources,
            });
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
      await locks.release(tenant, groups, importId, ctx);
    }
  }

  return { export: exportBundle, import: importBundle, locks };
}

export type ConfigBundleCommands = ReturnType<typeof createConfigBundle>;
