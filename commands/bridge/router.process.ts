import { type Conversion, PLATFORM_TENANT, type Rule } from '../../domain/bridge/model.ts';
import {
  type CompiledRules,
  compileRules,
  isPatternError,
  type Pattern,
  parsePattern,
} from '../../domain/bridge/pattern/index.ts';
import {
  type EventAcceptedData,
  type EventRoutedData,
  type MatchedRule,
  PUBLISHED_CATEGORY,
  publishedEventDecider,
  type RoutedTarget,
  type SkippedRule,
} from '../../domain/bridge/published-event.decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { commandHandler } from '../core/command-handler.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';
import type { ConfigCenter, ConversionResult, Convert, RulesIndex } from './bridge.contracts.ts';
import { createDeliveryScheduler, deliveryIdFor, type KnownTarget } from './delivery.scheduler.ts';

/**
 * The routing process manager: every EventAccepted is matched against the rules that
 * apply to it, each matched target's payload is rendered, and the outcome is appended to the event's own
 * stream as EventRouted — the trace's "filtering" stage, and the delivery scheduler's work list.
 *
 * Which rules apply to an event of tenant T on bus B (RulesIndex.rulesForBus(B): enabled rules only):
 * - platform rules (tenant `platform`, `platform: true`, on a platform bus) apply to every tenant's events,
 *   unless T switched the rule off for itself (RulesIndex.optedOut(T)): then the rule is listed as skipped
 *   'opted-out' and not evaluated;
 * - any other rule applies only to events of its own tenant: T's rules on T's custom bus, and T's own rules
 *   on the platform bus (how a tenant routes a platform event type with its own rule and template after
 *   switching the platform rule off). Other tenants' rules are not listed at all.
 * - a rule the index hands over disabled is listed as skipped 'disabled'; a stored pattern that no longer
 *   parses as 'invalid-pattern' (it never matches; recorded, never a crash).
 *
 * Matching: all rules of a bus are compiled into one matcher (domain/bridge/pattern compileRules) cached
 * per bus and recompiled when the index's version for the bus changes; the event is matched once and the
 * result intersected with the rules that apply to it.
 *
 * Conversion: per matched target with `convert`; `env` reads the configuration center of the event's
 * tenant, and for a platform rule falls back to the platform's own configuration (a tenant may override a
 * platform default such as the alert mail's sender account). A failed conversion is recorded on the target
 * ({ok: false, error}); `convert` throwing is recorded the same way.
 *
 * Idempotency: the EventRouted command id is derived from the EventAccepted event id, so a redelivered
 * event (after a crash, or a second process running the same worker) appends nothing twice.
 */
export type EventRouterDeps = {
  eventStore: EventStore;
  clock: Clock;
  rules: RulesIndex;
  configCenter: ConfigCenter;
  convert: Convert;
  log?: ReactorLog;
};

export const ROUTER_NAME = 'bridge.router';

/** the EventRouted event as appended, with its stream */
type RoutedEvent = Pick<RecordedEvent, 'id' | 'type' | 'data' | 'stream' | 'metadata'>;

type CompiledBus = {
  version: string;
  matcher: CompiledRules;
  /** rules whose pattern failed to parse */
  invalid: Set<string>;
};

const isPlatformRule = (rule: Rule) => rule.platform && rule.tenant === PLATFORM_TENANT;

const summarize = (result: ConversionResult): RoutedTarget['conversion'] =>
  result.ok ? { ok: true, missing: result.missing } : { ok: false, missing: [], error: result.error };

export function createEventRouter(deps: EventRouterDeps) {
  const { eventStore, clock, rules: index, configCenter, convert } = deps;
  const log = deps.log;
  const handle = commandHandler(eventStore, publishedEventDecider);
  const compiled = new Map<string, CompiledBus>();

  // rule ids are unique per tenant only (a client may choose one): two tenants' rules on the platform bus
  // may share an id, so the matcher knows them by tenant and id
  const ruleKey = (rule: Rule) => `${rule.tenant}/${rule.ruleId}`;

  function matcherFor(bus: string, version: string, rules: Rule[]): CompiledBus {
    const cached = compiled.get(bus);
    if (cached && cached.version === version) return cached;
    const invalid = new Set<string>();
    const parsed: Array<{ id: string; pattern: Pattern }> = [];
    for (const rule of rules) {
      try {
        parsed.push({ id: ruleKey(rule), pattern: parsePattern(rule.pattern) });
      } catch (err) {
        if (!isPatternError(err)) throw err;
        invalid.add(ruleKey(rule));
        log?.warn(
          { ruleId: rule.ruleId, bus, err: err.message },
          'stored rule pattern does not parse; it never matches',
        );
      }
    }
    const entry = { version, matcher: compileRules(parsed), invalid };
    compiled.set(bus, entry);
    return entry;
  }

  async function renderTarget(
    accepted: EventAcceptedData,
    rule: Rule,
    target: Rule['targets'][number],
  ): Promise<RoutedTarget> {
    const tenant = accepted.tenant;
    const env = async (key: string) => {
      const own = await configCenter.get(tenant, key);
      if (own !== undefined || !isPlatformRule(rule) || tenant === PLATFORM_TENANT) return own;
      return configCenter.get(PLATFORM_TENANT, key);
    };
    // absent in rules stored before conversions existed: the complete event (the spec's default)
    const conversion: Conversion = (target.conversion as Conversion | undefined) ?? { kind: 'complete' };
    let result: ConversionResult;
    try {
      result = await convert(accepted.event, conversion, env);
    } catch (err) {
      result = { ok: false, error: `conversion failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    return {
      targetId: target.id,
      typeId: target.typeId,
      conversion: summarize(result),
      ...(result.ok && {
        payload: result.payload,
        deliveryId: deliveryIdFor(accepted.key, rule.tenant, rule.ruleId, target.id),
      }),
    };
  }

  /** The routing decision for an accepted event (no write). */
  async function decideRouting(
    accepted: EventAcceptedData,
    used?: Map<string, Rule>,
  ): Promise<Omit<EventRoutedData, 'routedAt' | 'key'>> {
    const { version, rules } = await index.rulesForBus(accepted.bus, accepted.busTenant);
    const tenant = accepted.tenant;
    const optedOut = await index.optedOut(tenant);
    const bus = matcherFor(`${accepted.busTenant}/${accepted.bus}`, version, rules);

    const evaluated: Rule[] = [];
    const skipped: SkippedRule[] = [];
    for (const rule of rules) {
      const platform = isPlatformRule(rule);
      if (!platform && rule.tenant !== tenant) continue; // another tenant's rule: not this event's business
      if (platform && accepted.busTenant !== PLATFORM_TENANT) continue; // platform rules live on platform buses only
      const skip = (reason: SkippedRule['reason']) =>
        skipped.push({ ruleId: rule.ruleId, ruleTenant: rule.tenant, platform, reason });
      if (platform && tenant !== PLATFORM_TENANT && optedOut.has(rule.ruleId)) skip('opted-out');
      else if (!rule.enabled) skip('disabled');
      else if (bus.invalid.has(ruleKey(rule))) skip('invalid-pattern');
      else evaluated.push(rule);
    }

    const hits = new Set(bus.matcher.match(accepted.event));
    const matched: MatchedRule[] = [];
    for (const rule of evaluated) {
      if (!hits.has(ruleKey(rule))) continue;
      const targets: RoutedTarget[] = [];
      for (const target of rule.targets) targets.push(await renderTarget(accepted, rule, target));
      matched.push({ ruleId: rule.ruleId, ruleTenant: rule.tenant, platform: isPlatformRule(rule), targets });
      used?.set(ruleKey(rule), rule);
    }
    return { evaluated: evaluated.map((r) => r.ruleId), matched, skipped, matcherVersion: version };
  }

  /**
   * The routing of an event being accepted (putEvent appends EventAccepted and EventRouted together), with
   * the rules' target records it used, so scheduling its deliveries reads no rule again.
   */
  async function routeNew(
    accepted: EventAcceptedData,
  ): Promise<{ routing: Omit<EventRoutedData, 'routedAt' | 'key'>; targets: KnownTarget }> {
    const used = new Map<string, Rule>();
    const routing = await decideRouting(accepted, used);
    const targets: KnownTarget = (ruleTenant, ruleId, targetId) =>
      used.get(`${ruleTenant}/${ruleId}`)?.targets.find((t) => t.id === targetId) ?? null;
    return { routing, targets };
  }

  /** Routes one recorded EventAccepted: appends EventRouted once (nothing when it was routed before). */
  async function route(recorded: RecordedEvent): Promise<EventRoutedData | null> {
    return (await routeAndRecord(recorded))?.routed ?? null;
  }

  /**
   * route(), also answering the EventRouted event as appended (or as found, when routed before) and the
   * rules' target records routing used, so delivery scheduling follows without reading them again.
   */
  async function routeAndRecord(
    recorded: RecordedEvent,
  ): Promise<{ routed: EventRoutedData; event: RoutedEvent; targets: KnownTarget } | null> {
    if (recorded.type !== 'EventAccepted') return null;
    const accepted = recorded.data as EventAcceptedData;
    const used = new Map<string, Rule>();
    const routing = await decideRouting(accepted, used);
    const now = clock.now().toISOString();
    const envelope = {
      stream: recorded.stream,
      command: { type: 'RouteEvent' as const, data: routing, now },
      commandId: `route/${recorded.id}`,
      now,
      context: {
        tenant: accepted.tenant,
        actor: 'system:bridge-router',
        ...(recorded.metadata.correlationId !== undefined && { correlationId: recorded.metadata.correlationId }),
        causationId: recorded.id,
      },
    };
    // EventAccepted opens its stream: routing is decided on it as the log gave it, without reading the
    // stream back; a stream that has moved on (a duplicate's note, a routing done before a restart) makes
    // the append conflict, and the stream is then read as usual (a routing done before is found there)
    const firstOfStream =
      recorded.revision === 0
        ? { state: publishedEventDecider.evolve(publishedEventDecider.initialState(), recorded as never), revision: 0 }
        : undefined;
    const result =
      firstOfStream === undefined
        ? await handle(envelope)
        : await handle({ ...envelope, from: firstOfStream }).catch((err: unknown) => {
            if (!isWrongExpectedRevision(err)) throw err;
            return handle(envelope);
          });
    if (result.state.status !== 'routed') return null;
    const event = result.events.find((e) => e.type === 'EventRouted');
    if (event === undefined) return null;
    const targets: KnownTarget = (ruleTenant, ruleId, targetId) =>
      result.replayed
        ? undefined
        : (used.get(`${ruleTenant}/${ruleId}`)?.targets.find((t) => t.id === targetId) ?? null);
    return { routed: result.state.routed, event: { ...event, stream: recorded.stream }, targets };
  }

  return { route, routeAndRecord, decideRouting, routeNew };
}

export type EventRouter = ReturnType<typeof createEventRouter>;

/** how many events of a page the router works on at once (their appends share commits: batched appends) */
const ROUTER_CONCURRENCY = 32;

/**
 * The router as a worker: a checkpointed reactor on EventAccepted (commands/core/reactor.ts) that routes
 * each event of a page and schedules its deliveries (delivery.scheduler.ts) right away, several events at
 * once. Both steps are idempotent, so a page handled again after a crash appends nothing twice. An event
 * putEvent routed as it accepted it (its EventRouted in the same page) is left alone: its deliveries were
 * scheduled by the publisher, and the deliveries read model's due items stand in for any lost to a crash.
 */
export function createRouterWorker(deps: EventRouterDeps & { readStore: ReadStore; retryDelayMs?: number }): Reactor {
  const router = createEventRouter(deps);
  const scheduler = createDeliveryScheduler({ eventStore: deps.eventStore, clock: deps.clock });
  const one = async (event: RecordedEvent) => {
    const r = await router.routeAndRecord(event);
    if (r !== null) await scheduler.schedule(r.event, r.targets);
  };
  return createReactor({
    name: ROUTER_NAME,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: [PUBLISHED_CATEGORY], eventTypes: ['EventAccepted', 'EventRouted'] },
    ...(deps.log && { log: deps.log }),
    ...(deps.retryDelayMs !== undefined && { retryDelayMs: deps.retryDelayMs }),
    async handlePage(page) {
      const routed = new Set(page.filter((e) => e.type === 'EventRouted').map((e) => e.stream));
      const events = page.filter((e) => e.type === 'EventAccepted' && !routed.has(e.stream));
      for (let i = 0; i < events.length; i += ROUTER_CONCURRENCY) {
        await Promise.all(events.slice(i, i + ROUTER_CONCURRENCY).map(one));
      }
    },
  });
}
