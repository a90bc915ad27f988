import { createHash, randomUUID } from 'node:crypto';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { ConfigCommands, Saved } from '../../commands/hub/config.commands.ts';
import type { DriverRegistry } from '../../commands/hub/driver.registry.ts';
import {
  type ContextDefinition,
  type Definition,
  type DeliveryRule,
  type DeliveryService,
  definitionIdOf,
  parseDefinitionId,
  ruleIdOf,
  type Template,
  templateIdOf,
} from '../../domain/hub/config.model.ts';
import type { DefinitionInput } from '../../domain/hub/definition.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { parseDateTime } from '../../domain/hub/local-time.ts';
import type { ConfigQueries } from '../../projections/hub/config.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import {
  CHANNELS_PATH,
  CONTEXTS_PATH,
  DEFINITIONS_PATH,
  DRIVER_TYPES_PATH,
  HUB_ADMIN_SCOPE,
  RULES_PATH,
  SERVICES_PATH,
  TEMPLATES_PATH,
  VALIDATE_SETTINGS_PATH,
} from './hub.paths.ts';
import * as S from './hub.schemas.ts';

/**
 * The hub's configuration API (the spec does not show these paths), under
 * `/comm/v1`, scope `hub:admin`, the token's tenant:
 *
 *   /channels                     POST (201) · GET ?pageNo&pageSize · GET|PUT|DELETE /{code}
 *   /delivery-services            POST (201, answers the signing secret once) · GET · GET|PUT|DELETE /{serviceId}
 *                                 POST /{serviceId}/rotate-signing-secret {OverlapSeconds}
 *   /delivery-services/driverTypes        GET {DriverTypes: sorted registered types}
 *   /delivery-services/validateSettings   POST {DriverType, Channel?, Settings} → {Valid: true} or 400
 *   /templates                    POST (201; TemplateId = <TemplateCode>:<Channel>:<LanguageId>) · GET ?code · GET|PUT|DELETE /{templateId}
 *   /context-definitions          POST (201) · GET · GET|PUT|DELETE /{contextDefinitionId}
 *   /definitions                  POST (201; DefinitionId = <NotificationCode>:<Version>) · GET ?notificationCode · GET|PUT|DELETE /{definitionId}
 *   /delivery-rules               POST (201; RuleId = <DefinitionId>:<RuleKey>) · GET ?definitionId · GET|PUT|DELETE /{ruleId}
 *
 * PUT replaces the whole resource (the body without its identity fields, which come from the path).
 * Writes honour the Idempotency-Key header. Reads by id are live (the resource's stream); lists come from
 * the `hub.config` read model and may lag a write by a moment. EffectiveTime and ExpiryTime take local
 * date-times (the tenant's time zone) or offsets, and are stored as instants.
 */
export type ConfigRouterDeps = {
  commands: ConfigCommands;
  queries: ConfigQueries;
  drivers: DriverRegistry;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
  timeZoneOf(tenant: string): Promise<string>;
};

const RESERVED_SERVICE_IDS = new Set(['driverTypes', 'validateSettings']);

const withMeta = <T>(s: Saved<T>) => ({
  ...s.resource,
  Revision: s.revision,
  CreatedAt: s.createdAt,
  UpdatedAt: s.updatedAt,
});
const page = (req: Request) =>
  req.query as unknown as { pageNo: number; pageSize: number } & Record<string, string | undefined>;
const idParam = (name: string): JsonSchema => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', minLength: 1, maxLength: 200 } },
});
const resourceSchema = (body: JsonSchema): JsonSchema => ({ ...body, additionalProperties: true, required: [] });

export function createConfigRouter(deps: ConfigRouterDeps): Router {
  const { commands: c, queries: q, bearer, registry } = deps;
  const router = Router();
  for (const base of [CHANNELS_PATH, SERVICES_PATH, TEMPLATES_PATH, CONTEXTS_PATH, DEFINITIONS_PATH, RULES_PATH]) {
    router.use(base, bearer.authenticate, bearer.requireScope(HUB_ADMIN_SCOPE));
  }
  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    tag: string,
    schemas: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
  ) => registry.route(router, { method, path, summary, schemas, successStatus, tags: [`hub ${tag}`] }, handler);
  const ctx = (res: Response) => commandContext(res);
  const body = (req: Request) => req.body as Record<string, unknown>;
  const notFound = (what: Parameters<typeof hubError>[0], id: string) => hubError(what, 'not found', { id });

  async function instant(
    res: Response,
    field: string,
    value: unknown,
    code: 'DEFINITION.INVALID',
  ): Promise<string | undefined> {
    if (value === undefined) return undefined;
    const at = parseDateTime(String(value), await deps.timeZoneOf(tenantOf(res)));
    if (at === null)
      throw hubError(code, `${field} must be an ISO local or offset date-time`, [
        { field, message: 'must be an ISO local or offset date-time' },
      ]);
    return at;
  }

  // ---- channels ----
  route(
    'post',
    CHANNELS_PATH,
    'register a channel code in the code table CommHubChannel',
    'channels',
    { body: S.channelBody, response: resourceSchema(S.channelBody) },
    async (req, res) => {
      const b = body(req);
      const saved = await c.channels.create(
        {
          Code: String(b.Code),
          ...(b.Description !== undefined && { Description: String(b.Description) }),
          Enabled: b.Enabled !== false,
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.status(201).json(withMeta(saved));
    },
    201,
  );
  route(
    'get',
    CHANNELS_PATH,
    "the tenant's channels (paged)",
    'channels',
    { query: S.pageQuery(), response: S.pageOf(resourceSchema(S.channelBody)) },
    async (req, res) => {
      const p = page(req);
      res.json(await q.channels(tenantOf(res), p.pageNo, p.pageSize));
    },
  );
  route('get', `${CHANNELS_PATH}/:code`, 'one channel', 'channels', { params: idParam('code') }, async (req, res) => {
    const saved = await c.channels.get(tenantOf(res), String(req.params.code));
    if (saved === null) throw notFound('CHANNEL.NOT_FOUND', String(req.params.code));
    res.json(withMeta(saved));
  });
  route(
    'put',
    `${CHANNELS_PATH}/:code`,
    'replace a channel',
    'channels',
    { params: idParam('code'), body: S.channelUpdateBody },
    async (req, res) => {
      const b = body(req);
      const saved = await c.channels.update(
        {
          Code: String(req.params.code),
          ...(b.Description !== undefined && { Description: String(b.Description) }),
          Enabled: b.Enabled !== false,
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.json(withMeta(saved));
    },
  );
  route(
    'delete',
    `${CHANNELS_PATH}/:code`,
    'delete a channel',
    'channels',
    { params: idParam('code') },
    async (req, res) => {
      await c.channels.remove(String(req.params.code), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- delivery services (the fixed paths before /{serviceId}) ----
  route(
    'get',
    DRIVER_TYPES_PATH,
    'the registered delivery driver types, sorted (no schema, no credentials)',
    'delivery services',
    {
      response: { type: 'object', properties: { DriverTypes: { type: 'array', items: { type: 'string' } } } },
    },
    (_req, res) => {
      res.json({ DriverTypes: deps.drivers.types() });
    },
  );
  route(
    'post',
    VALIDATE_SETTINGS_PATH,
    'check settings locally with the driver (nothing is called, nothing stored)',
    'delivery services',
    {
      body: S.validateSettingsBody,
      response: { type: 'object', properties: { Valid: { type: 'boolean' } } },
    },
    (req, res) => {
      const b = body(req);
      deps.drivers.validate(
        String(b.DriverType),
        b.Settings as Record<string, unknown>,
        b.Channel === undefined ? undefined : String(b.Channel),
      );
      res.json({ Valid: true });
    },
  );
  const serviceFrom = (id: string, b: Record<string, unknown>): DeliveryService => {
    if (RESERVED_SERVICE_IDS.has(id))
      throw hubError('DELIVERY_SERVICE.INVALID', `${id} is a reserved path name`, [
        { field: 'ServiceId', message: 'is reserved' },
      ]);
    return {
      ServiceId: id,
      ...(b.Name !== undefined && { Name: String(b.Name) }),
      DriverType: String(b.DriverType),
      ...(b.Channel !== undefined && { Channel: String(b.Channel) }),
      Settings: b.Settings as Record<string, unknown>,
      ReceiptMode: b.ReceiptMode as DeliveryService['ReceiptMode'],
      ...(b.ReceiptTimeoutSeconds !== undefined && { ReceiptTimeoutSeconds: Number(b.ReceiptTimeoutSeconds) }),
    };
  };
  route(
    'post',
    SERVICES_PATH,
    'create a delivery service; the answer carries its webhook signing secret, once',
    'delivery services',
    {
      body: S.serviceBody,
      response: {
        ...resourceSchema(S.serviceBody),
        properties: {
          ...S.serviceBody.properties,
          SigningSecret: { type: 'string', description: 'whsec_…: shown once' },
        },
      },
    },
    async (req, res) => {
      const b = body(req);
      const saved = await c.services.create(serviceFrom(String(b.ServiceId), b), ctx(res), commandIdFrom(req));
      res
        .status(201)
        .json({ ...withMeta(saved), ...(saved.signingSecret !== undefined && { SigningSecret: saved.signingSecret }) });
    },
    201,
  );
  route(
    'get',
    SERVICES_PATH,
    "the tenant's delivery services (paged)",
    'delivery services',
    { query: S.pageQuery(), response: S.pageOf(resourceSchema(S.serviceBody)) },
    async (req, res) => {
      const p = page(req);
      res.json(await q.services(tenantOf(res), p.pageNo, p.pageSize));
    },
  );
  route(
    'get',
    `${SERVICES_PATH}/:serviceId`,
    'one delivery service (never its secret)',
    'delivery services',
    { params: idParam('serviceId') },
    async (req, res) => {
      const saved = await c.services.get(tenantOf(res), String(req.params.serviceId));
      if (saved === null) throw notFound('DELIVERY_SERVICE.NOT_FOUND', String(req.params.serviceId));
      res.json(withMeta(saved));
    },
  );
  route(
    'put',
    `${SERVICES_PATH}/:serviceId`,
    'replace a delivery service (new sends only: accepted ones keep their snapshot)',
    'delivery services',
    { params: idParam('serviceId'), body: S.serviceUpdateBody },
    async (req, res) => {
      const saved = await c.services.update(
        serviceFrom(String(req.params.serviceId), body(req)),
        ctx(res),
        commandIdFrom(req),
      );
      res.json(withMeta(saved));
    },
  );
  route(
    'delete',
    `${SERVICES_PATH}/:serviceId`,
    'delete a delivery service (its credentials go with it)',
    'delivery services',
    { params: idParam('serviceId') },
    async (req, res) => {
      await c.services.remove(String(req.params.serviceId), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );
  route(
    'post',
    `${SERVICES_PATH}/:serviceId/rotate-signing-secret`,
    'a new signing secret, answered once; the previous one keeps signing for OverlapSeconds',
    'delivery services',
    {
      params: idParam('serviceId'),
      body: S.rotateBody,
    },
    async (req, res) => {
      const overlap = Number(body(req).OverlapSeconds ?? 86_400);
      const r = await c.services.rotateSigningSecret(
        String(req.params.serviceId),
        overlap,
        ctx(res),
        commandIdFrom(req),
      );
      res.json({
        ...(r.signingSecret !== undefined && { SigningSecret: r.signingSecret }),
        ...(r.previousValidUntil !== undefined && { PreviousValidUntil: r.previousValidUntil }),
      });
    },
  );

  // ---- templates ----
  const templateFrom = (
    b: Record<string, unknown>,
    ids: { TemplateCode: string; Channel: string; LanguageId: string },
  ): Template => ({
    TemplateId: templateIdOf(ids),
    ...ids,
    ContentType: b.ContentType as Template['ContentType'],
    ...(b.Subject !== undefined && { Subject: String(b.Subject) }),
    Body: String(b.Body),
    Status: (b.Status as Template['Status'] | undefined) ?? 'DRAFT',
  });
  route(
    'post',
    TEMPLATES_PATH,
    'create a template (code, channel and exact language)',
    'templates',
    { body: S.templateBody, response: resourceSchema(S.templateBody) },
    async (req, res) => {
      const b = body(req);
      const saved = await c.templates.create(
        templateFrom(b, {
          TemplateCode: String(b.TemplateCode),
          Channel: String(b.Channel),
          LanguageId: String(b.LanguageId),
        }),
        ctx(res),
        commandIdFrom(req),
      );
      res.status(201).json(withMeta(saved));
    },
    201,
  );
  route(
    'get',
    TEMPLATES_PATH,
    "the tenant's templates (paged; ?code= one template code)",
    'templates',
    { query: S.pageQuery({ code: { type: 'string', maxLength: 64 } }) },
    async (req, res) => {
      const p = page(req);
      res.json(await q.templates(tenantOf(res), p.code, p.pageNo, p.pageSize));
    },
  );
  route(
    'get',
    `${TEMPLATES_PATH}/:templateId`,
    'one template',
    'templates',
    { params: idParam('templateId') },
    async (req, res) => {
      const saved = await c.templates.get(tenantOf(res), String(req.params.templateId));
      if (saved === null) throw notFound('TEMPLATE.NOT_FOUND', String(req.params.templateId));
      res.json(withMeta(saved));
    },
  );
  route(
    'put',
    `${TEMPLATES_PATH}/:templateId`,
    'replace a template (active content is editable)',
    'templates',
    { params: idParam('templateId'), body: S.templateUpdateBody },
    async (req, res) => {
      const [code, channel, language] = String(req.params.templateId).split(':');
      if (code === undefined || channel === undefined || language === undefined)
        throw notFound('TEMPLATE.NOT_FOUND', String(req.params.templateId));
      const saved = await c.templates.update(
        templateFrom(body(req), { TemplateCode: code, Channel: channel, LanguageId: language }),
        ctx(res),
        commandIdFrom(req),
      );
      res.json(withMeta(saved));
    },
  );
  route(
    'delete',
    `${TEMPLATES_PATH}/:templateId`,
    'delete a template',
    'templates',
    { params: idParam('templateId') },
    async (req, res) => {
      await c.templates.remove(String(req.params.templateId), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- context definitions ----
  const contextFrom = (id: string, b: Record<string, unknown>): ContextDefinition => ({
    ContextDefinitionId: id,
    ...(b.Name !== undefined && { Name: String(b.Name) }),
    Contexts: (b.Contexts as Record<string, string> | undefined) ?? {},
    Variables: (b.Variables as Record<string, string> | undefined) ?? {},
    SensitiveFields: (b.SensitiveFields as ContextDefinition['SensitiveFields'] | undefined) ?? [],
    ...(b.SamplePayload !== undefined && { SamplePayload: b.SamplePayload as Record<string, unknown> }),
  });
  route(
    'post',
    CONTEXTS_PATH,
    'create a context definition (aliases, variables, sensitive fields)',
    'context definitions',
    { body: S.contextBody, response: resourceSchema(S.contextBody) },
    async (req, res) => {
      const b = body(req);
      const saved = await c.contexts.create(
        contextFrom(String(b.ContextDefinitionId), b),
        ctx(res),
        commandIdFrom(req),
      );
      res.status(201).json(withMeta(saved));
    },
    201,
  );
  route(
    'get',
    CONTEXTS_PATH,
    "the tenant's context definitions (paged)",
    'context definitions',
    { query: S.pageQuery() },
    async (req, res) => {
      const p = page(req);
      res.json(await q.contexts(tenantOf(res), p.pageNo, p.pageSize));
    },
  );
  route(
    'get',
    `${CONTEXTS_PATH}/:id`,
    'one context definition',
    'context definitions',
    { params: idParam('id') },
    async (req, res) => {
      const saved = await c.contexts.get(tenantOf(res), String(req.params.id));
      if (saved === null) throw notFound('CONTEXT.NOT_FOUND', String(req.params.id));
      res.json(withMeta(saved));
    },
  );
  route(
    'put',
    `${CONTEXTS_PATH}/:id`,
    'replace a context definition',
    'context definitions',
    { params: idParam('id'), body: S.contextUpdateBody },
    async (req, res) => {
      const saved = await c.contexts.update(
        contextFrom(String(req.params.id), body(req)),
        ctx(res),
        commandIdFrom(req),
      );
      res.json(withMeta(saved));
    },
  );
  route(
    'delete',
    `${CONTEXTS_PATH}/:id`,
    'delete a context definition',
    'context definitions',
    { params: idParam('id') },
    async (req, res) => {
      await c.contexts.remove(String(req.params.id), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- definitions ----
  const definitionFields = async (res: Response, b: Record<string, unknown>) => {
    const effective = await instant(res, 'EffectiveTime', b.EffectiveTime, 'DEFINITION.INVALID');
    const expiry = await instant(res, 'ExpiryTime', b.ExpiryTime, 'DEFINITION.INVALID');
    return {
      EffectiveTime: effective!,
      ...(expiry !== undefined && { ExpiryTime: expiry }),
      Enabled: b.Enabled !== false,
      ...(b.ContextDefinitionId !== undefined && { ContextDefinitionId: String(b.ContextDefinitionId) }),
      ...(b.DefaultLanguageId !== undefined && { DefaultLanguageId: String(b.DefaultLanguageId) }),
      DeliveryStrategy: (b.DeliveryStrategy as Definition['DeliveryStrategy'] | undefined) ?? 'ALL',
      RoleDeliveryStrategyOverrides:
        (b.RoleDeliveryStrategyOverrides as Definition['RoleDeliveryStrategyOverrides'] | undefined) ?? {},
      NotificationClass: (b.NotificationClass as string | undefined) ?? 'TRANSACTIONAL',
      ...(b.Description !== undefined && { Description: String(b.Description) }),
      ...(b.PreferencePolicy !== undefined && {
        PreferencePolicy: b.PreferencePolicy as Definition['PreferencePolicy'],
      }),
      ...(b.FrequencyCapPolicy !== undefined && {
        FrequencyCapPolicy: b.FrequencyCapPolicy as Definition['FrequencyCapPolicy'],
      }),
      ...(b.QuietHoursPolicy !== undefined && {
        QuietHoursPolicy: b.QuietHoursPolicy as Definition['QuietHoursPolicy'],
      }),
      ...(b.RetryPolicy !== undefined && { RetryPolicy: b.RetryPolicy as Definition['RetryPolicy'] }),
    };
  };
  route(
    'post',
    DEFINITIONS_PATH,
    'create a definition version (selectable versions of a code never overlap)',
    'definitions',
    { body: S.definitionBody, response: resourceSchema(S.definitionBody) },
    async (req, res) => {
      const b = body(req);
      const input: DefinitionInput = {
        NotificationCode: String(b.NotificationCode),
        ...(b.Version !== undefined && { Version: Number(b.Version) }),
        ...(await definitionFields(res, b)),
      };
      res.status(201).json(await c.definitions.create(input, ctx(res), commandIdFrom(req)));
    },
    201,
  );
  route(
    'get',
    DEFINITIONS_PATH,
    "the tenant's definitions (paged; ?notificationCode= one code)",
    'definitions',
    { query: S.pageQuery({ notificationCode: { type: 'string', maxLength: 64 } }) },
    async (req, res) => {
      const p = page(req);
      res.json(await q.definitions(tenantOf(res), p.notificationCode, p.pageNo, p.pageSize));
    },
  );
  const definitionIdOfPath = (req: Request) => {
    const id = String(req.params.definitionId);
    const p = parseDefinitionId(id);
    if (p === null) throw notFound('DEFINITION.NOT_FOUND', id);
    return { id, ...p };
  };
  route(
    'get',
    `${DEFINITIONS_PATH}/:definitionId`,
    'one definition version',
    'definitions',
    { params: idParam('definitionId') },
    async (req, res) => {
      const { id } = definitionIdOfPath(req);
      const d = await c.definitions.get(tenantOf(res), id);
      if (d === null) throw notFound('DEFINITION.NOT_FOUND', id);
      res.json(d);
    },
  );
  route(
    'put',
    `${DEFINITIONS_PATH}/:definitionId`,
    'replace a definition version (published versions stay editable)',
    'definitions',
    { params: idParam('definitionId'), body: S.definitionUpdateBody },
    async (req, res) => {
      const { code, version } = definitionIdOfPath(req);
      const definition: Definition = {
        DefinitionId: definitionIdOf(code, version),
        NotificationCode: code,
        Version: version,
        ...(await definitionFields(res, body(req))),
      };
      res.json(await c.definitions.update(definition, ctx(res), commandIdFrom(req)));
    },
  );
  route(
    'delete',
    `${DEFINITIONS_PATH}/:definitionId`,
    'delete a definition version and its rules',
    'definitions',
    { params: idParam('definitionId') },
    async (req, res) => {
      const { id } = definitionIdOfPath(req);
      await c.definitions.remove(id, ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- delivery rules ----
  const ruleFrom = (ruleId: string, definitionId: string, b: Record<string, unknown>): DeliveryRule => ({
    RuleId: ruleId,
    DefinitionId: definitionId,
    Role: String(b.Role),
    Channel: String(b.Channel),
    OrderNo: Number(b.OrderNo ?? 0),
    RecipientSource: b.RecipientSource as DeliveryRule['RecipientSource'],
    ...(b.IdentityVariable !== undefined && { IdentityVariable: String(b.IdentityVariable) }),
    ...(b.AddressVariable !== undefined && { AddressVariable: String(b.AddressVariable) }),
    ...(b.Condition !== undefined && { Condition: String(b.Condition) }),
    TemplateCode: String(b.TemplateCode),
    ServiceId: String(b.ServiceId),
    ...(b.LanguageId !== undefined && { LanguageId: String(b.LanguageId) }),
    ...(b.PolicyOverrides !== undefined && { PolicyOverrides: b.PolicyOverrides as DeliveryRule['PolicyOverrides'] }),
    TemplateMode: (b.TemplateMode as DeliveryRule['TemplateMode'] | undefined) ?? 'HUB_MANAGED',
    Enabled: b.Enabled !== false,
  });
  route(
    'post',
    RULES_PATH,
    'add a delivery rule to a definition version (an invalid FEEL condition is a 400)',
    'delivery rules',
    { body: S.ruleBody, response: resourceSchema(S.ruleBody) },
    async (req, res) => {
      const b = body(req);
      const definitionId = String(b.DefinitionId);
      if (parseDefinitionId(definitionId) === null) throw notFound('DEFINITION.NOT_FOUND', definitionId);
      const commandId = commandIdFrom(req);
      // a retried create (same Idempotency-Key) names the same rule
      const key =
        b.RuleKey !== undefined
          ? String(b.RuleKey)
          : `r-${createHash('sha256')
              .update(req.get('idempotency-key') ?? randomUUID())
              .digest('hex')
              .slice(0, 12)}`;
      if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(key))
        throw hubError('DELIVERY_RULE.INVALID', 'RuleKey must be 1-64 letters, digits, _ or -', [
          { field: 'RuleKey', message: 'must be 1-64 letters, digits, _ or -' },
        ]);
      res
        .status(201)
        .json(await c.rules.create(ruleFrom(ruleIdOf(definitionId, key), definitionId, b), ctx(res), commandId));
    },
    201,
  );
  route(
    'get',
    RULES_PATH,
    "the tenant's delivery rules (paged; ?definitionId= one version)",
    'delivery rules',
    { query: S.pageQuery({ definitionId: { type: 'string', maxLength: 80 } }) },
    async (req, res) => {
      const p = page(req);
      res.json(await q.rules(tenantOf(res), p.definitionId, p.pageNo, p.pageSize));
    },
  );
  route(
    'get',
    `${RULES_PATH}/:ruleId`,
    'one delivery rule',
    'delivery rules',
    { params: idParam('ruleId') },
    async (req, res) => {
      const r = await c.rules.get(tenantOf(res), String(req.params.ruleId));
      if (r === null) throw notFound('DELIVERY_RULE.NOT_FOUND', String(req.params.ruleId));
      res.json(r);
    },
  );
  route(
    'put',
    `${RULES_PATH}/:ruleId`,
    'replace a delivery rule',
    'delivery rules',
    { params: idParam('ruleId'), body: S.ruleUpdateBody },
    async (req, res) => {
      const ruleId = String(req.params.ruleId);
      const current = await c.rules.get(tenantOf(res), ruleId);
      if (current === null) throw notFound('DELIVERY_RULE.NOT_FOUND', ruleId);
      res.json(await c.rules.update(ruleFrom(ruleId, current.DefinitionId, body(req)), ctx(res), commandIdFrom(req)));
    },
  );
  route(
    'delete',
    `${RULES_PATH}/:ruleId`,
    'delete a delivery rule',
    'delivery rules',
    { params: idParam('ruleId') },
    async (req, res) => {
      await c.rules.remove(String(req.params.ruleId), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  return router;
}
