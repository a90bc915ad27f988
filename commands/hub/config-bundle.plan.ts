import type { Decider } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import {
  channelDecider,
  channelStream,
  contextDecider,
  contextStream,
  templateDecider,
  templateStream,
} from '../../domain/hub/config.deciders.ts';
import {
  type Channel,
  type ContextDefinition,
  type DeliveryService,
  parseDefinitionId,
  parseRuleId,
  type Template,
} from '../../domain/hub/config.model.ts';
import type { BundleSection, ConfigBundle } from '../../domain/hub/config-bundle.ts';
import {
  type DefinitionCommand,
  type DefinitionState,
  definitionDecider,
  definitionStream,
} from '../../domain/hub/definition.decider.ts';
import { deliveryServiceDecider, deliveryServiceStream } from '../../domain/hub/delivery-service.decider.ts';
import { frequencyCapDecider, frequencyCapsStream } from '../../domain/hub/frequency-cap.decider.ts';
import { hubError, type Violation } from '../../domain/hub/hub.errors.ts';
import { quietHoursDecider, quietHoursStream } from '../../domain/hub/quiet-hours.ts';
import { canonicalJson, type ResourceCommand, type ResourceState } from '../../domain/hub/resource.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, type CommandEnvelope, commandHandler } from '../core/command-handler.ts';
import { loadAggregate } from '../core/load-aggregate.ts';
import type { ConfigCommands } from './config.commands.ts';
import type { DriverRegistry } from './driver.registry.ts';

/**
 * The import's dry run (commands/hub/config-bundle.commands.ts, step 3): each resource's stream is folded
 * and the very decider a save runs is run in memory over the whole bundle (a rule after its definition, in
 * the same state). Every refusal is collected (the import answers them all at once); every accepted
 * resource becomes a planned write through the configuration commands (the same writes as the admin API).
 */
export type ImportAction = 'CREATE' | 'UPDATE' | 'UNCHANGED';
/** `write` runs in the context the plan was made in (its tenant's) */
export type Planned = {
  section: BundleSection;
  id: string;
  action: ImportAction;
  // biome-ignore lint/suspicious/noConfusingVoidType: a write is a command call that may or may not answer an id
  write: (commandId: string) => Promise<string | void>;
};
export type ImportPlan = { planned: Planned[]; violations: Violation[] };

export type ImportPlannerDeps = {
  eventStore: EventStore;
  clock: Clock;
  config: ConfigCommands;
  drivers: DriverRegistry;
};

export function createImportPlanner(deps: ImportPlannerDeps) {
  const { eventStore, config: c } = deps;
  const capsHandler = commandHandler(eventStore, frequencyCapDecider);
  const quietHandler = commandHandler(eventStore, quietHoursDecider);
  const now = () => deps.clock.now().toISOString();

  /** the dry run: every write the import would make in the context's tenant, decided in memory on the current streams */
  return async function plan(bundle: ConfigBundle, ctx: CommandContext): Promise<ImportPlan> {
    const { tenant } = ctx;
    const planned: Planned[] = [];
    const violations: Violation[] = [];
    const refused = (field: string, err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      const details = Array.isArray(err.details) ? (err.details as Violation[]) : [];
      if (details.length > 0)
        for (const d of details)
          violations.push({ field: `${field}.${d.field}`, message: `${err.code}: ${d.message}` });
      else violations.push({ field, message: `${err.code}: ${err.message}` });
    };

    const simple = async <T>(
      section: BundleSection,
      items: T[],
      decider: Decider<ResourceCommand<T>, DomainEvent, ResourceState<T>>,
      streamOf: (id: string) => string,
      idOf: (t: T) => string,
      api: {
        create: (t: T, ctx: CommandContext, id: string) => Promise<unknown>;
        update: (t: T, ctx: CommandContext, id: string) => Promise<unknown>;
      },
    ) => {
      for (const [i, item] of items.entries()) {
        const id = idOf(item);
        try {
          const { state } = await loadAggregate(eventStore, decider, streamOf(id));
          const live = state.status === 'live';
          if (live && canonicalJson(state.resource) === canonicalJson(item)) {
            planned.push({ section, id, action: 'UNCHANGED', write: async () => undefined });
            continue;
          }
          decider.decide({ type: live ? 'Update' : 'Create', resource: item, now: now() }, state);
          planned.push({
            section,
            id,
            action: live ? 'UPDATE' : 'CREATE',
            write: async (commandId) => void (await (live ? api.update : api.create)(item, ctx, commandId)),
          });
        } catch (err) {
          refused(`${section}.${i}`, err);
        }
      }
    };

    await simple<Channel>(
      'Channels',
      bundle.Channels,
      channelDecider as never,
      (id) => channelStream(tenant, id),
      (x) => x.Code,
      c.channels,
    );
    // delivery services: the driver checks the settings; a created one gets a new signing secret
    for (const [i, s] of bundle.DeliveryServices.entries()) {
      try {
        deps.drivers.validate(s.DriverType, s.Settings, s.Channel);
        const { state } = await loadAggregate(
          eventStore,
          deliveryServiceDecider,
          deliveryServiceStream(tenant, s.ServiceId),
        );
        const live = state.status === 'live';
        if (live && canonicalJson(state.resource) === canonicalJson(s)) {
          planned.push({
            section: 'DeliveryServices',
            id: s.ServiceId,
            action: 'UNCHANGED',
            write: async () => undefined,
          });
          continue;
        }
        deliveryServiceDecider.decide(
          live
            ? { type: 'Update', resource: s, now: now() }
            : { type: 'Create', resource: s, sealedSecret: 'dry-run', now: now() },
          state,
        );
        planned.push({
          section: 'DeliveryServices',
          id: s.ServiceId,
          action: live ? 'UPDATE' : 'CREATE',
          write: async (commandId) =>
            live
              ? void (await c.services.update(s, ctx, commandId))
              : (await c.services.create(s as DeliveryService, ctx, commandId)).signingSecret,
        });
      } catch (err) {
        refused(`DeliveryServices.${i}`, err);
      }
    }
    await simple<Template>(
      'Templates',
      bundle.Templates,
      templateDecider as never,
      (id) => templateStream(tenant, id),
      (x) => x.TemplateId,
      c.templates,
    );
    await simple<ContextDefinition>(
      'ContextDefinitions',
      bundle.ContextDefinitions,
      contextDecider as never,
      (id) => contextStream(tenant, id),
      (x) => x.ContextDefinitionId,
      c.contexts,
    );

    // definitions, then rules, each notification code's stream folded once and carried through the bundle
    const states = new Map<string, DefinitionState>();
    const stateOf = async (code: string) => {
      let s = states.get(code);
      if (s === undefined) {
        s = (await loadAggregate(eventStore, definitionDecider, definitionStream(tenant, code))).state;
        states.set(code, s);
      }
      return s;
    };
    const decideDefinition = async (code: string, command: DefinitionCommand) => {
      let s = await stateOf(code);
      for (const e of definitionDecider.decide(command, s)) s = definitionDecider.evolve(s, e);
      states.set(code, s);
    };
    /** a definition version or a rule, against `current` (its stored self): unchanged, or decided in memory on its code's state and planned */
    const planInDefinition = async (
      section: 'Definitions' | 'DeliveryRules',
      id: string,
      code: string,
      item: unknown,
      current: unknown,
      command: (exists: boolean) => DefinitionCommand,
      write: (exists: boolean) => Planned['write'],
    ) => {
      if (current !== undefined && canonicalJson(current) === canonicalJson(item)) {
        planned.push({ section, id, action: 'UNCHANGED', write: async () => undefined });
        return;
      }
      const exists = current !== undefined;
      await decideDefinition(code, command(exists));
      planned.push({ section, id, action: exists ? 'UPDATE' : 'CREATE', write: write(exists) });
    };
    for (const [i, d] of bundle.Definitions.entries()) {
      try {
        const parsed = parseDefinitionId(d.DefinitionId);
        if (parsed === null || parsed.code !== d.NotificationCode || parsed.version !== d.Version) {
          throw hubError('DEFINITION.INVALID', 'DefinitionId must be <NotificationCode>:<Version> of the definition', [
            { field: 'DefinitionId', message: 'must be <NotificationCode>:<Version>' },
          ]);
        }
        const { DefinitionId: _id, ...input } = d;
        await planInDefinition(
          'Definitions',
          d.DefinitionId,
          d.NotificationCode,
          d,
          (await stateOf(d.NotificationCode)).versions[d.Version],
          (exists) =>
            exists
              ? { type: 'UpdateDefinition', definition: d, now: now() }
              : { type: 'CreateDefinition', definition: input, now: now() },
          (exists) => async (commandId) =>
            void (await (exists
              ? c.definitions.update(d, ctx, commandId)
              : c.definitions.create(input, ctx, commandId))),
        );
      } catch (err) {
        refused(`Definitions.${i}`, err);
      }
    }
    for (const [i, r] of bundle.DeliveryRules.entries()) {
      try {
        const parsed = parseRuleId(r.RuleId);
        if (parsed === null || parsed.definitionId !== r.DefinitionId) {
          throw hubError('DELIVERY_RULE.INVALID', 'RuleId must be <DefinitionId>:<RuleKey> of the rule', [
            { field: 'RuleId', message: 'must be <DefinitionId>:<RuleKey>' },
          ]);
        }
        await planInDefinition(
          'DeliveryRules',
          r.RuleId,
          parsed.code,
          r,
          (await stateOf(parsed.code)).rules[r.RuleId],
          (exists) =>
            exists ? { type: 'UpdateRule', rule: r, now: now() } : { type: 'CreateRule', rule: r, now: now() },
          (exists) => async (commandId) =>
            void (await (exists ? c.rules.update(r, ctx, commandId) : c.rules.create(r, ctx, commandId))),
        );
      } catch (err) {
        refused(`DeliveryRules.${i}`, err);
      }
    }

    // the customer-policy configuration: one stream per tenant each, carried through the bundle like definitions;
    // the write sends the bare resource (its own fields only)
    const policies = async <C, E extends DomainEvent, S, T, R>(
      section: BundleSection,
      items: T[],
      decider: Decider<C, E, S>,
      handler: (envelope: CommandEnvelope<C>) => Promise<unknown>,
      stream: string,
      o: {
        idOf: (t: T) => string;
        currentOf: (s: S, t: T) => R | undefined;
        same: (current: R, t: T) => boolean;
        command: (t: T, now: string) => C;
        bare: (t: T) => T;
      },
    ) => {
      let { state } = await loadAggregate(eventStore, decider, stream);
      for (const [i, item] of items.entries()) {
        try {
          const current = o.currentOf(state, item);
          const same = current !== undefined && o.same(current, item);
          for (const e of decider.decide(o.command(item, now()), state)) state = decider.evolve(state, e);
          planned.push({
            section,
            id: o.idOf(item),
            action: same ? 'UNCHANGED' : current === undefined ? 'CREATE' : 'UPDATE',
            write: async (commandId) => {
              if (same) return;
              const at = now();
              await handler({ stream, command: o.command(o.bare(item), at), commandId, now: at, context: ctx });
            },
          });
        } catch (err) {
          refused(`${section}.${i}`, err);
        }
      }
    };
    await policies(
      'FrequencyCaps',
      bundle.FrequencyCaps,
      frequencyCapDecider,
      capsHandler,
      frequencyCapsStream(tenant),
      {
        idOf: (cap) => cap.Category,
        currentOf: (s, cap) => s.caps[cap.Category],
        same: (current, cap) => current.Limit === cap.Limit && current.WindowSeconds === cap.WindowSeconds,
        command: (cap, at) => ({ type: 'SaveFrequencyCap' as const, cap, now: at }),
        bare: (cap) => ({ Category: cap.Category, Limit: cap.Limit, WindowSeconds: cap.WindowSeconds }),
      },
    );
    await policies('QuietHours', bundle.QuietHours, quietHoursDecider, quietHandler, quietHoursStream(tenant), {
      idOf: (hours) => hours.Channel,
      currentOf: (s, hours) => s.channels[hours.Channel],
      same: (current, hours) => canonicalJson(current.Windows) === canonicalJson(hours.Windows),
      command: (hours, at) => ({ type: 'SaveQuietHours' as const, hours, now: at }),
      bare: (hours) => ({ Channel: hours.Channel, Windows: hours.Windows }),
    });
    return { planned, violations };
  };
}
