import { randomBytes } from 'node:crypto';
import type { Decider } from '../../domain/core/decider.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import type { Sealer } from '../../domain/core/sealed-secret.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
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
  type Definition,
  type DeliveryRule,
  type DeliveryService,
  parseDefinitionId,
  parseRuleId,
  type Template,
} from '../../domain/hub/config.model.ts';
import {
  type DefinitionInput,
  type DefinitionState,
  definitionDecider,
  definitionStream,
  rulesOf,
} from '../../domain/hub/definition.decider.ts';
import {
  type DeliveryServiceState,
  deliveryServiceDecider,
  deliveryServiceStream,
  signingSecretsAt,
} from '../../domain/hub/delivery-service.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import type { ResourceCommand, ResourceState } from '../../domain/hub/resource.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { loadAggregate as load } from '../core/load-aggregate.ts';
import type { DriverRegistry } from './driver.registry.ts';

/**
 * The hub's configuration writes and reads by id: channels, delivery services
 * (with their signing secret), templates, context definitions, definitions and delivery rules. Every write
 * goes through the command handler (idempotent per command id: the Idempotency-Key header); reads by id
 * fold the resource's stream (read-your-writes: a send right after an edit sees it). Lists are the
 * `hub.config` projection's (projections/hub/config.projection.ts).
 */
export type Saved<T> = { resource: T; revision: number; createdAt: string; updatedAt: string };

export type ConfigDeps = {
  eventStore: EventStore;
  clock: Clock;
  drivers: DriverRegistry;
  sealer: () => Sealer;
  /**
   * the definition cache (spec: "Definition data uses the cache bucket [the service], invalidated after
   * configuration mutations"): folded configuration streams kept this long (ms); a write through these
   * commands drops its entry at once, another process's write is seen after at most this long. 0: no cache.
   */
  cacheMs?: number;
};

/** Folded streams kept `ttlMs` (on the injected clock), dropped by local writes; `clear` empties the bucket. */
function streamCache(clock: Clock, ttlMs: number) {
  const entries = new Map<string, { value: unknown; until: number }>();
  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return load();
      const now = clock.now().getTime();
      const hit = entries.get(key);
      if (hit !== undefined && hit.until > now) return hit.value as T;
      const value = await load();
      if (entries.size > 10_000) entries.clear();
      entries.set(key, { value, until: now + ttlMs });
      return value;
    },
    invalidate: (key: string) => void entries.delete(key),
    clear: () => entries.clear(),
    /** drops every entry of one tenant's streams (keys are stream names, or `secrets:` + a stream name) */
    clearTenant(tenant: string) {
      for (const key of [...entries.keys()]) {
        const stream = key.startsWith('secrets:') ? key.slice('secrets:'.length) : key;
        if (parseStreamName(stream)?.tenant === tenant) entries.delete(key);
      }
    },
    size: () => entries.size,
  };
}

/** a fresh Standard Webhooks secret: `whsec_` + base64 of 32 random bytes */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** the associated data binding a sealed signing secret to its service */
export const secretAad = (tenant: string, serviceId: string) => `hub-service/${tenant}/${serviceId}`;

/** the create, update, delete and get of one simple resource kind */
type Cache = ReturnType<typeof streamCache>;

function simpleResource<T>(
  deps: ConfigDeps,
  cache: Cache,
  decider: Decider<ResourceCommand<T>, DomainEvent, ResourceState<T>>,
  streamOf: (tenant: string, id: string) => string,
  idOf: (t: T) => string,
  notFound: () => Error,
) {
  const handle = commandHandler(deps.eventStore, decider);
  const now = () => deps.clock.now().toISOString();
  const result = (state: ResourceState<T>, revision: number): Saved<T> => {
    if (state.status !== 'live') throw notFound();
    return { resource: state.resource, revision, createdAt: state.createdAt, updatedAt: state.updatedAt };
  };
  const run = async (id: string, command: ResourceCommand<T>, ctx: CommandContext, commandId: string) => {
    const stream = streamOf(ctx.tenant, id);
    try {
      const r = await handle({ stream, command, commandId, now: command.now, context: ctx });
      return { state: r.state, revision: r.revision };
    } finally {
      cache.invalidate(stream);
    }
  };
  return {
    async create(resource: T, ctx: CommandContext, commandId: string): Promise<Saved<T>> {
      const r = await run(idOf(resource), { type: 'Create', resource, now: now() }, ctx, commandId);
      return result(r.state, r.revision);
    },
    async update(resource: T, ctx: CommandContext, commandId: string): Promise<Saved<T>> {
      const r = await run(idOf(resource), { type: 'Update', resource, now: now() }, ctx, commandId);
      return result(r.state, r.revision);
    },
    async remove(id: string, ctx: CommandContext, commandId: string): Promise<void> {
      await run(id, { type: 'Delete', now: now() }, ctx, commandId);
    },
    async get(tenant: string, id: string): Promise<Saved<T> | null> {
      const stream = streamOf(tenant, id);
      const { state, revision } = await cache.get(stream, () => load(deps.eventStore, decider, stream));
      return state.status === 'live' ? result(state, revision) : null;
    },
  };
}

export function createConfigCommands(deps: ConfigDeps) {
  const { eventStore, clock, drivers } = deps;
  const now = () => clock.now().toISOString();
  const cache = streamCache(clock, deps.cacheMs ?? 0);
  /** a command on a configuration stream, its cache entries dropped whatever the outcome */
  const writing = async <R>(stream: string, run: () => Promise<R>): Promise<R> => {
    try {
      return await run();
    } finally {
      cache.invalidate(stream);
      cache.invalidate(`secrets:${stream}`);
    }
  };

  const channels = simpleResource<Channel>(
    deps,
    cache,
    channelDecider as never,
    channelStream,
    (c) => c.Code,
    () => hubError('CHANNEL.NOT_FOUND', 'no such channel'),
  );
  const templates = simpleResource<Template>(
    deps,
    cache,
    templateDecider as never,
    templateStream,
    (t) => t.TemplateId,
    () => hubError('TEMPLATE.NOT_FOUND', 'no such template'),
  );
  const contexts = simpleResource<ContextDefinition>(
    deps,
    cache,
    contextDecider as never,
    contextStream,
    (c) => c.ContextDefinitionId,
    () => hubError('CONTEXT.NOT_FOUND', 'no such context definition'),
  );

  // ---- delivery services: settings checked by their driver; a signing secret issued at creation ----
  const handleService = commandHandler(eventStore, deliveryServiceDecider);
  const serviceResult = (state: DeliveryServiceState, revision: number): Saved<DeliveryService> => {
    if (state.status !== 'live') throw hubError('DELIVERY_SERVICE.NOT_FOUND', 'no such delivery service');
    return { resource: state.resource, revision, createdAt: state.createdAt, updatedAt: state.updatedAt };
  };
  const services = {
    async create(
      service: DeliveryService,
      ctx: CommandContext,
      commandId: string,
    ): Promise<Saved<DeliveryService> & { signingSecret?: string }> {
      drivers.validate(service.DriverType, service.Settings, service.Channel);
      const { tenant } = ctx;
      const secret = newSigningSecret();
      const at = now();
      const stream = deliveryServiceStream(tenant, service.ServiceId);
      const r = await writing(stream, () =>
        handleService({
          stream,
          command: {
            type: 'Create',
            resource: service,
            sealedSecret: deps.sealer().seal(secret, secretAad(tenant, service.ServiceId)),
            now: at,
          },
          commandId,
          now: at,
          context: ctx,
        }),
      );
      // a retried request (same Idempotency-Key) gets the service, not the secret a second time
      return { ...serviceResult(r.state, r.revision), ...(!r.replayed && { signingSecret: secret }) };
    },
    async update(service: DeliveryService, ctx: CommandContext, commandId: string): Promise<Saved<DeliveryService>> {
      drivers.validate(service.DriverType, service.Settings, service.Channel);
      const at = now();
      const stream = deliveryServiceStream(ctx.tenant, service.ServiceId);
      const r = await writing(stream, () =>
        handleService({
          stream,
          command: { type: 'Update', resource: service, now: at },
          commandId,
          now: at,
          context: ctx,
        }),
      );
      return serviceResult(r.state, r.revision);
    },
    async remove(serviceId: string, ctx: CommandContext, commandId: string): Promise<void> {
      const at = now();
      const stream = deliveryServiceStream(ctx.tenant, serviceId);
      await writing(stream, () =>
        handleService({ stream, command: { type: 'Delete', now: at }, commandId, now: at, context: ctx }),
      );
    },
    async get(tenant: string, serviceId: string): Promise<Saved<DeliveryService> | null> {
      const stream = deliveryServiceStream(tenant, serviceId);
      const { state, revision } = await cache.get(stream, () => load(eventStore, deliveryServiceDecider, stream));
      return state.status === 'live' ? serviceResult(state, revision) : null;
    },
    /** a new signing secret, answered once; the previous one keeps signing for `overlapSeconds` */
    async rotateSigningSecret(
      serviceId: string,
      overlapSeconds: number,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ signingSecret?: string; previousValidUntil?: string }> {
      const { tenant } = ctx;
      const secret = newSigningSecret();
      const at = now();
      const until = new Date(Date.parse(at) + overlapSeconds * 1000).toISOString();
      const stream = deliveryServiceStream(tenant, serviceId);
      const r = await writing(stream, () =>
        handleService({
          stream,
          command: {
            type: 'RotateSecret',
            sealedSecret: deps.sealer().seal(secret, secretAad(tenant, serviceId)),
            overlapUntil: until,
            now: at,
          },
          commandId,
          now: at,
          context: ctx,
        }),
      );
      if (r.replayed) return {};
      return { signingSecret: secret, ...(overlapSeconds > 0 && { previousValidUntil: until }) };
    },
    /** the signing secrets in force now, opened (credentials: read live, never from a snapshot) */
    async signingSecrets(tenant: string, serviceId: string): Promise<string[] | null> {
      const stream = deliveryServiceStream(tenant, serviceId);
      // opened secrets are kept as long as the bucket keeps the service (a rotation's overlap covers that)
      return cache.get(`secrets:${stream}`, async () => {
        const { state } = await load(eventStore, deliveryServiceDecider, stream);
        if (state.status !== 'live') return null;
        const sealer = deps.sealer();
        return signingSecretsAt(state, now()).map((s) => sealer.open(s, secretAad(tenant, serviceId)));
      });
    },
  };

  // ---- definitions and their rules: one stream per NotificationCode ----
  const handleDefinition = commandHandler(eventStore, definitionDecider);
  const definitionOf = (state: DefinitionState, version: number): Definition => {
    const d = state.versions[version];
    if (d === undefined) throw hubError('DEFINITION.NOT_FOUND', 'no such definition version');
    return d;
  };
  const codeOf = (definitionId: string) => {
    const p = parseDefinitionId(definitionId);
    if (p === null)
      throw hubError('DEFINITION.NOT_FOUND', `${definitionId} is not a definition id (<NotificationCode>:<version>)`, {
        DefinitionId: definitionId,
      });
    return p;
  };
  const ruleParts = (ruleId: string) => {
    const p = parseRuleId(ruleId);
    if (p === null)
      throw hubError('DELIVERY_RULE.NOT_FOUND', `${ruleId} is not a rule id (<NotificationCode>:<version>:<key>)`, {
        RuleId: ruleId,
      });
    return p;
  };
  const runDefinition = (
    code: string,
    command: Parameters<typeof definitionDecider.decide>[0],
    ctx: CommandContext,
    commandId: string,
  ) => {
    const stream = definitionStream(ctx.tenant, code);
    return writing(stream, () => handleDefinition({ stream, command, commandId, now: command.now, context: ctx }));
  };
  const definitionState = (tenant: string, code: string) => {
    const stream = definitionStream(tenant, code);
    return cache.get(stream, () => load(eventStore, definitionDecider, stream));
  };

  const definitions = {
    async create(input: DefinitionInput, ctx: CommandContext, commandId: string): Promise<Definition> {
      const r = await runDefinition(
        input.NotificationCode,
        { type: 'CreateDefinition', definition: input, now: now() },
        ctx,
        commandId,
      );
      const saved = r.events.find((e) => e.type === 'DefinitionSaved');
      if (saved !== undefined) return (saved.data as { Definition: Definition }).Definition;
      // a replayed create: the version it made
      const version = input.Version ?? r.state.highest;
      return definitionOf(r.state, version);
    },
    async update(definition: Definition, ctx: CommandContext, commandId: string): Promise<Definition> {
      const r = await runDefinition(
        definition.NotificationCode,
        { type: 'UpdateDefinition', definition, now: now() },
        ctx,
        commandId,
      );
      return definitionOf(r.state, definition.Version);
    },
    async remove(definitionId: string, ctx: CommandContext, commandId: string): Promise<void> {
      const { code, version } = codeOf(definitionId);
      await runDefinition(code, { type: 'DeleteDefinition', version, now: now() }, ctx, commandId);
    },
    async get(tenant: string, definitionId: string): Promise<Definition | null> {
      const p = parseDefinitionId(definitionId);
      if (p === null) return null;
      const { state } = await definitionState(tenant, p.code);
      return state.versions[p.version] ?? null;
    },
    /** every version of a code with their rules (what a send resolves from) */
    async state(tenant: string, code: string): Promise<DefinitionState> {
      return (await definitionState(tenant, code)).state;
    },
  };

  const rules = {
    async create(rule: DeliveryRule, ctx: CommandContext, commandId: string): Promise<DeliveryRule> {
      const { code } = ruleParts(rule.RuleId);
      const r = await runDefinition(code, { type: 'CreateRule', rule, now: now() }, ctx, commandId);
      return r.state.rules[rule.RuleId] ?? rule;
    },
    async update(rule: DeliveryRule, ctx: CommandContext, commandId: string): Promise<DeliveryRule> {
      const { code } = ruleParts(rule.RuleId);
      const r = await runDefinition(code, { type: 'UpdateRule', rule, now: now() }, ctx, commandId);
      return r.state.rules[rule.RuleId] ?? rule;
    },
    async remove(ruleId: string, ctx: CommandContext, commandId: string): Promise<void> {
      const { code } = ruleParts(ruleId);
      await runDefinition(code, { type: 'DeleteRule', ruleId, now: now() }, ctx, commandId);
    },
    async get(tenant: string, ruleId: string): Promise<DeliveryRule | null> {
      const p = parseRuleId(ruleId);
      if (p === null) return null;
      const { state } = await definitionState(tenant, p.code);
      return state.rules[ruleId] ?? null;
    },
    async ofDefinition(tenant: string, definitionId: string): Promise<DeliveryRule[] | null> {
      const p = parseDefinitionId(definitionId);
      if (p === null) return null;
      const { state } = await definitionState(tenant, p.code);
      return state.versions[p.version] === undefined ? null : rulesOf(state, definitionId, true);
    },
  };

  /**
   * The definition cache bucket (every process keeps its own; commands/hub/config-cache.consumer.ts drops
   * entries in every process when the log shows a configuration write or a bucket clear): `invalidate` one
   * stream's entries, `clearScope` one tenant's (or all, scope `*`), `clear` all.
   */
  return {
    channels,
    services,
    templates,
    contexts,
    definitions,
    rules,
    cache: {
      clear: () => cache.clear(),
      clearScope: (scope: string) => (scope === '*' ? cache.clear() : cache.clearTenant(scope)),
      invalidate: (stream: string) => {
        cache.invalidate(stream);
        cache.invalidate(`secrets:${stream}`);
      },
      size: () => cache.size(),
    },
  };
}

export type ConfigCommands = ReturnType<typeof createConfigCommands>;
