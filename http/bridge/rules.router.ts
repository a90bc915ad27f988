import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { ConfigCommands, ConfigEntryView } from '../../commands/bridge/config-center.commands.ts';
import type { RuleCommands } from '../../commands/bridge/rules.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { resolveBusRef } from '../../domain/bridge/bus.decider.ts';
import type { Bus, BusKind } from '../../domain/bridge/model.ts';
import { testPattern } from '../../domain/bridge/pattern/index.ts';
import type { RuleView } from '../../domain/bridge/rule.decider.ts';
import { EVENT_DATA_LIMITS } from '../../domain/core/input-limits.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { type ConfigEntryDoc, createConfigQueries } from '../../projections/bridge/config.projection.ts';
import { createRuleQueries } from '../../projections/bridge/rules.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { assertWithinLimits } from '../core/body-limits.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageAnswer } from '../core/paging.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';
import { schemas } from './rules.schemas.ts';
import { targetsFromBody } from './target.input.ts';

/**
 * The event bridge's rule and configuration-center administration (the spec shows a portal, not an API:
 * these paths are ours), under `/api/platform/platform-pub/eventBridge/admin/v1`:
 *
 *   POST   /rules                           create (201; Idempotency-Key honoured)
 *   GET    /rules?bus=&enabled=&limit=&offset=   the tenant's rules, paged (read model)
 *   GET    /rules/{id}                      one rule (from its stream)
 *   PUT    /rules/{id}                      change the fields given (name, description (null removes),
 *                                           pattern, targets, enabled); the bus cannot change
 *   POST   /rules/{id}/enable | /disable    DELETE /rules/{id} (204)
 *   GET    /platform-rules?bus=             the platform rules with this tenant's opt-out state
 *   POST   /platform-rules/{id}/opt-out | /opt-in   switch a platform rule off / on for this tenant
 *   POST   /test-pattern {pattern, event}   {match} or the pattern's 400 (as AWS TestEventPattern); each
 *                                           field of the event within the input limits of event data (400
 *                                           REQUEST.LIMIT_EXCEEDED), the pattern within those of patterns
 *   PUT    /config/{key} {value, secret?}   GET /config?prefix=   GET /config/{key}   DELETE /config/{key}
 *
 * Every route needs a bearer token with the scope `bridge:admin`; the tenant is the token's. A rule on a
 * custom bus of another tenant is 403, on an unknown bus 404. Platform rules are made by the platform
 * tenant's admins on a platform bus. Rules of other tenants are 404 (their existence is not revealed).
 * Targets are accepted in the spec's PascalCase or camelCase (see target.input.ts) and answered in
 * camelCase. Secret configuration values are never answered: they show as `******`.
 */
export const SECRET_MASK = '******';

/**
 * The bus registry's answer for a bus name as a tenant writes it (`orders`, `platform`, `acme/orders`):
 * its kind, owner and (optionally) its plain name; null when there is no such bus.
 */
export type BusInfo = (tenant: string, bus: string) => Promise<{ kind: BusKind; tenant: string; name?: string } | null>;

/** BusInfo over the buses' lookup (commands/bridge/buses.commands.ts createBusLookup().getBus), resolving names as putEvent does. */
export const busInfoFrom =
  (getBus: (tenant: string, name: string) => Promise<Bus | null>): BusInfo =>
  async (tenant, name) => {
    const ref = resolveBusRef(name, tenant);
    if (ref === null) return null;
    const bus = await getBus(ref.tenant, ref.name);
    return bus === null ? null : { kind: bus.kind, tenant: bus.tenant, name: bus.name };
  };

export type RulesRouterDeps = {
  commands: { rules: RuleCommands; config: ConfigCommands };
  readStore: ReadStore;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  busInfo: BusInfo;
  /** not read yet (times come from the command handlers' clock); accepted for symmetry with the other routers */
  clock?: Clock;
  /** routes are recorded here for the bridge's OpenAPI document (a private registry when absent) */
  registry?: RouteRegistry;
};

type Body = Record<string, unknown>;

export const ruleJson = (r: RuleView) => ({
  id: r.ruleId,
  tenant: r.tenant,
  bus: r.bus,
  busKind: r.busKind,
  name: r.name,
  description: r.description ?? null,
  pattern: r.pattern,
  targets: r.targets,
  enabled: r.enabled,
  platform: r.platform,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  revision: r.revision,
});

const configJson = (e: ConfigEntryView | ConfigEntryDoc) => ({
  key: e.key,
  value: e.secret ? SECRET_MASK : (e.value ?? ''),
  secret: e.secret,
  updatedAt: e.updatedAt,
});

// test-pattern matches what routing matches: the stored (camelCase) event. The field table's lower-case
// envelope names are mapped to it, as putEvent does, when the camelCase one is absent.
const ENVELOPE_ALIASES: Record<string, string> = {
  datacontenttype: 'dataContentType',
  dataschemaid: 'dataSchemaId',
  eventbusname: 'eventBusName',
};
const canonicalEnvelope = (event: Body): Body => {
  const out: Body = { ...event };
  for (const [lower, camel] of Object.entries(ENVELOPE_ALIASES)) {
    if (lower in out) {
      if (!(camel in out)) out[camel] = out[lower];
      delete out[lower];
    }
  }
  return out;
};

export function createRulesRouter(deps: RulesRouterDeps): Router {
  const { commands, bearer, busInfo } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const ruleQueries = createRuleQueries(deps.readStore);
  const configQueries = createConfigQueries(deps.readStore);
  const router = Router();

  // Authentication before validation (a stranger learns nothing from a 400), on this router's paths only:
  // other bridge routers mount their own paths under the same base.
  router.use(
    ['/rules', '/platform-rules', '/test-pattern', '/config'].map((p) => `${BRIDGE_ADMIN_BASE}${p}`),
    bearer.authenticate,
    bearer.requireScope(BRIDGE_ADMIN_SCOPE),
  );

  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    s: RequestSchemas,
    handler: RequestHandler,
    successStatus = 200,
    tag = 'rules',
  ) =>
    registry.route(
      router,
      { method, path: `${BRIDGE_ADMIN_BASE}${path}`, summary, schemas: s, successStatus, tags: [`bridge ${tag}`] },
      handler,
    );

  const ctx = (res: Response) => commandContext(res);
  const idOf = (req: Request): string => req.params.id as string;

  // ---- rules ----

  route(
    'post',
    '/rules',
    'create a rule: filter pattern, 1-5 targets with their conversions',
    schemas.createRule,
    async (req, res) => {
      const tenant = tenantOf(res);
      const b = req.body as Body;
      const busName = b.bus as string;
      const bus = await busInfo(tenant, busName);
      if (bus === null) throw bridgeError('BUS.NOT_FOUND', `no bus ${busName}`, { bus: busName });
      if (bus.kind === 'custom' && bus.tenant !== tenant)
        throw bridgeError('BUS.FORBIDDEN', `bus ${busName} belongs to another tenant`, { bus: busName });
      // the rule names the bus by its plain name (`acme/orders` → `orders`); the owner is kept beside it
      const plainName = bus.name ?? busName.slice(busName.lastIndexOf('/') + 1);
      const targets = targetsFromBody(b.targets);
      const { rule, created } = await commands.rules.create(
        {
          ...(b.id !== undefined && { ruleId: b.id as string }),
          bus: plainName,
          busKind: bus.kind,
          busOwner: bus.tenant,
          name: b.name as string,
          ...(b.description !== undefined && { description: b.description as string }),
          pattern: b.pattern as Record<string, unknown>,
          targets,
          ...(b.enabled !== undefined && { enabled: b.enabled as boolean }),
          ...(b.platform !== undefined && { platform: b.platform as boolean }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res
        .status(201)
        .location(`${BRIDGE_ADMIN_BASE}/rules/${rule.ruleId}`)
        .json({ ...ruleJson(rule), ...(created ? {} : { replayed: true }) });
    },
    201,
  );

  route(
    'get',
    '/rules',
    "list the tenant's rules (filter by bus, enabled; paged)",
    schemas.listRules,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number; bus?: string; enabled?: boolean };
      const page = await ruleQueries.list(tenantOf(res), q);
      res.json(pageAnswer(page, q, ruleJson));
    },
  );

  route('get', '/rules/:id', 'one rule', schemas.rulePath, async (req, res) => {
    const rule = await commands.rules.get(tenantOf(res), idOf(req));
    if (rule === null) throw bridgeError('RULE.NOT_FOUND', 'no such rule');
    res.json(ruleJson(rule));
  });

  route(
    'put',
    '/rules/:id',
    'change a rule (the fields given; description null removes it; the bus is fixed)',
    schemas.updateRule,
    async (req, res) => {
      const tenant = tenantOf(res);
      const b = req.body as Body;
      if (b.bus !== undefined) {
        const current = await commands.rules.get(tenant, idOf(req));
        if (current === null) throw bridgeError('RULE.NOT_FOUND', 'no such rule');
        const named = b.bus as string;
        if (current.bus !== named && current.bus !== named.slice(named.lastIndexOf('/') + 1)) {
          throw bridgeError('RULE.BUS_IMMUTABLE', 'a rule cannot move to another bus: create a rule there instead', [
            {
              in: 'body',
              field: 'bus',
              message: `must be ${current.bus} (the rule's bus) or absent`,
              keyword: 'const',
            },
          ]);
        }
      }
      const rule = await commands.rules.update(
        idOf(req),
        {
          ...(b.name !== undefined && { name: b.name as string }),
          ...(b.description !== undefined && { description: b.description as string | null }),
          ...(b.pattern !== undefined && { pattern: b.pattern as Record<string, unknown> }),
          ...(b.targets !== undefined && { targets: targetsFromBody(b.targets) }),
          ...(b.enabled !== undefined && { enabled: b.enabled as boolean }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.json(ruleJson(rule));
    },
  );

  route('post', '/rules/:id/enable', 'enable a rule', schemas.rulePath, async (req, res) => {
    res.json(ruleJson(await commands.rules.enable(idOf(req), ctx(res), commandIdFrom(req))));
  });

  route('post', '/rules/:id/disable', 'disable a rule (kept, not routed to)', schemas.rulePath, async (req, res) => {
    res.json(ruleJson(await commands.rules.disable(idOf(req), ctx(res), commandIdFrom(req))));
  });

  route(
    'delete',
    '/rules/:id',
    'delete a rule (its id is not reused)',
    schemas.deleteRule,
    async (req, res) => {
      await commands.rules.delete(idOf(req), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- platform rules as a tenant sees them ----

  route(
    'get',
    '/platform-rules',
    "the platform's rules with this tenant's opt-out state",
    schemas.listPlatformRules,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number; bus?: string };
      const [page, optOuts] = await Promise.all([ruleQueries.platformRules(q), ruleQueries.optOutsOf(tenantOf(res))]);
      res.json(
        pageAnswer(page, q, (r) => ({
          id: r.ruleId,
          bus: r.bus,
          name: r.name,
          description: r.description ?? null,
          pattern: r.pattern,
          enabled: r.enabled,
          // a tenant sees what the rule does, not the platform's target parameters
          targets: r.targets.map((t) => ({ id: t.id, typeId: t.typeId })),
          optedOut: optOuts.has(r.ruleId),
          optedOutSince: optOuts.get(r.ruleId) ?? null,
        })),
      );
    },
    200,
    'platform rules',
  );

  route(
    'post',
    '/platform-rules/:id/opt-out',
    'switch a platform rule off for this tenant',
    schemas.optOut,
    async (req, res) => {
      const r = await commands.rules.optOut(idOf(req), ctx(res), commandIdFrom(req));
      res.json({ id: r.ruleId, optedOut: r.optedOut });
    },
    200,
    'platform rules',
  );

  route(
    'post',
    '/platform-rules/:id/opt-in',
    'switch a platform rule on again for this tenant',
    schemas.optOut,
    async (req, res) => {
      const r = await commands.rules.optIn(idOf(req), ctx(res), commandIdFrom(req));
      res.json({ id: r.ruleId, optedOut: r.optedOut });
    },
    200,
    'platform rules',
  );

  // ---- test-pattern ----

  route(
    'post',
    '/test-pattern',
    'match a pattern against an event: {match} or the pattern 400 (like AWS TestEventPattern)',
    schemas.testPattern,
    (req, res) => {
      const b = req.body as Body;
      // what putEvent would refuse is not tested either: every field at most as deep as event data may be
      for (const [field, value] of Object.entries(b.event as Body))
        assertWithinLimits(value, EVENT_DATA_LIMITS, `body.event.${field}`);
      res.json(testPattern(b.pattern, canonicalEnvelope(b.event as Body)));
    },
    200,
    'test-pattern',
  );

  // ---- configuration center ----

  route(
    'put',
    '/config/:key',
    'set a configuration value (secret: never shown again)',
    schemas.putConfig,
    async (req, res) => {
      const b = req.body as Body;
      const { entry } = await commands.config.set(
        {
          key: req.params.key as string,
          value: b.value as string,
          ...(b.secret !== undefined && { secret: b.secret as boolean }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.set('Cache-Control', 'no-store').json(configJson(entry));
    },
    200,
    'configuration center',
  );

  route(
    'get',
    '/config',
    "the tenant's configuration keys (secrets masked; paged)",
    schemas.listConfig,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number; prefix?: string };
      const page = await configQueries.list(tenantOf(res), q);
      res.set('Cache-Control', 'no-store').json(pageAnswer(page, q, configJson));
    },
    200,
    'configuration center',
  );

  route(
    'get',
    '/config/:key',
    'one configuration value (a secret masked)',
    schemas.configPath,
    async (req, res) => {
      const entry = await commands.config.get(tenantOf(res), req.params.key as string);
      if (entry === null) throw bridgeError('CONFIG.NOT_FOUND', 'no such configuration key');
      res.set('Cache-Control', 'no-store').json(configJson(entry));
    },
    200,
    'configuration center',
  );

  route(
    'delete',
    '/config/:key',
    'remove a configuration value',
    schemas.deleteConfig,
    async (req, res) => {
      await commands.config.remove(req.params.key as string, ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
    'configuration center',
  );

  return router;
}
