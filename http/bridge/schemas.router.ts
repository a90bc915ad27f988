import { type RequestHandler, type Response, Router } from 'express';
import { toViolations } from '../../commands/bridge/schema.compiler.ts';
import {
  createSchemaReader,
  createVersionValidators,
  type SchemaCommands,
} from '../../commands/bridge/schemas.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import {
  findVersion,
  latestVersion,
  MAX_LISTED_PROBLEMS,
  MAX_SCHEMA_DESCRIPTION,
  MAX_SCHEMA_NAME,
  SCHEMA_ID,
  SCHEMA_VERSION,
  type Schema,
  schemaStream,
} from '../../domain/bridge/schema.decider.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createSchemaQueries, type SchemaDoc } from '../../projections/bridge/schemas.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageOf, pagingProperties } from '../core/paging.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * The schema registry's admin API, under `/api/platform/platform-pub/eventBridge/admin/v1`
 * (the spec shows the portal, not an API: these paths are ours). Scope `bridge:admin`.
 *
 * Tenancy: the owner is the token's tenant. A schema created by an admin of the `platform` tenant is a
 * platform schema, readable (listed, shown, downloaded, used at putEvent) by every tenant; only platform
 * admins change it. A tenant sees its own schemas and the platform's, never another tenant's (404).
 *
 *   POST   /schemas                               create, with the first version ({schemaId?, name?, description?, bus?, version?, content})
 *   POST   /schemas/{id}/versions                 add a version ({version?, content}); 409 when it exists with other content
 *   GET    /schemas                               list (own and platform; ?owner=own|platform|all, ?bus, ?includeDeleted, paged)
 *   GET    /schemas/{id}                          one schema with its versions
 *   GET    /schemas/{id}/versions/{version}       download one version's OpenAPI document (`latest`: the newest)
 *   POST   /schemas/{id}/versions/{version}/validate  {data} or {event} (its data) → {valid, errors}: what
 *                                                 putEvent would say of the data, without publishing
 *   DELETE /schemas/{id}                          mark deleted; versions stay readable
 *
 * `content` is the OpenAPI 3.0 document as a JSON object, or as a string holding it (an uploaded file).
 * `name` defaults to content.info.title and `version` to content.info.version.
 */
export type SchemasRouterDeps = {
  commands: SchemaCommands;
  readStore: ReadStore;
  eventStore: EventStore;
  bearer: { authenticate: RequestHandler; requireScope(...scopes: string[]): RequestHandler };
  /** routes are recorded here for the bridge's OpenAPI document (a private registry when absent) */
  registry?: RouteRegistry;
};

// ---- schemas ----

const schemaId: JsonSchema = { type: 'string', pattern: SCHEMA_ID.source, example: '100000000000003' };
const version: JsonSchema = {
  anyOf: [
    { type: 'string', pattern: SCHEMA_VERSION.source },
    { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  ],
};
const content: JsonSchema = {
  description: 'the OpenAPI 3.0 document (an object, or a string holding its JSON)',
  anyOf: [{ type: 'object' }, { type: 'string', minLength: 2 }],
};
const eventBody: JsonSchema = { type: 'object', properties: { data: {} }, required: ['data'] };
const idPath: JsonSchema = { type: 'object', properties: { id: schemaId }, required: ['id'] };

const versionView: JsonSchema = {
  type: 'object',
  properties: { version: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
};
const schemaViewSchema: JsonSchema = {
  type: 'object',
  properties: {
    schemaId: { type: 'string' },
    tenant: { type: 'string' },
    platform: { type: 'boolean' },
    name: { type: 'string' },
    description: { type: 'string' },
    bus: { type: 'string' },
    versions: { type: 'array', items: versionView },
    latestVersion: { type: 'string', nullable: true },
    deleted: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const schemas = {
  create: {
    body: {
      type: 'object',
      properties: {
        schemaId: { anyOf: [schemaId, { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 }] },
        name: { type: 'string', minLength: 1, maxLength: MAX_SCHEMA_NAME },
        description: { type: 'string', maxLength: MAX_SCHEMA_DESCRIPTION },
        bus: { type: 'string', minLength: 1, maxLength: 129 },
        version,
        content,
      },
      required: ['content'],
      additionalProperties: false,
    },
    response: schemaViewSchema,
  },
  addVersion: {
    params: idPath,
    body: { type: 'object', properties: { version, content }, required: ['content'], additionalProperties: false },
    response: schemaViewSchema,
  },
  list: {
    query: {
      type: 'object',
      properties: {
        owner: { type: 'string', enum: ['all', 'own', 'platform'], default: 'all' },
        bus: { type: 'string', minLength: 1, maxLength: 129 },
        includeDeleted: { type: 'boolean', default: false },
        ...pagingProperties(),
      },
      additionalProperties: false,
    },
    response: pageOf(schemaViewSchema),
  },
  get: { params: idPath, response: schemaViewSchema },
  download: {
    params: {
      type: 'object',
      properties: { id: schemaId, version: { type: 'string', pattern: SCHEMA_VERSION.source } },
      required: ['id', 'version'],
    },
    response: { type: 'object', description: 'the OpenAPI 3.0 document, as an attachment' },
  },
  validate: {
    params: {
      type: 'object',
      properties: { id: schemaId, version: { type: 'string', pattern: SCHEMA_VERSION.source } },
      required: ['id', 'version'],
    },
    body: {
      type: 'object',
      description: 'the business data to check, or an event (as putEvent takes it) whose data is checked',
      properties: { data: {}, event: eventBody },
      oneOf: [
        { properties: { data: {} }, required: ['data'] },
        { properties: { event: eventBody }, required: ['event'] },
      ],
      additionalProperties: false,
      example: { event: { source: 'shop:checkout', type: 'shop:Order:Placed', data: { orderId: 7 } } },
    },
    response: {
      type: 'object',
      properties: {
        valid: { type: 'boolean' },
        schemaId: { type: 'string' },
        version: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, message: { type: 'string' }, keyword: { type: 'string' } },
          },
        },
      },
    },
  },
  delete: { params: idPath },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

// ---- views ----

type Listed = Pick<
  SchemaDoc,
  'tenant' | 'schemaId' | 'name' | 'description' | 'bus' | 'deleted' | 'createdAt' | 'updatedAt'
> & {
  versions: Array<{ version: string; createdAt: string }>;
  latestVersion: string | null;
};

const view = (s: Listed) => ({
  schemaId: s.schemaId,
  tenant: s.tenant,
  platform: s.tenant === PLATFORM_TENANT,
  name: s.name,
  ...(s.description !== undefined && { description: s.description }),
  ...(s.bus !== undefined && { bus: s.bus }),
  versions: s.versions,
  latestVersion: s.latestVersion,
  deleted: s.deleted,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export const schemaView = (s: Schema) =>
  view({
    ...s,
    versions: s.versions.map((v) => ({ version: v.version, createdAt: v.createdAt })),
    latestVersion: latestVersion(s)?.version ?? null,
  });

// ---- request parsing ----

type Body = Record<string, unknown>;

/** the document as an object: a string body field is parsed (an uploaded file's text) */
function documentOf(body: Body): unknown {
  const c = body.content;
  if (typeof c !== 'string') return c;
  try {
    return JSON.parse(c) as unknown;
  } catch (err) {
    throw coreError('REQUEST.INVALID', `content is not valid JSON: ${(err as Error).message}`, [
      { in: 'body', field: 'content', message: `is not valid JSON: ${(err as Error).message}`, keyword: 'format' },
    ]);
  }
}

/** a version of the schema (`latest`: the newest), or 404 SCHEMA.VERSION_NOT_FOUND */
function versionOf(id: string, schema: Schema, version: string) {
  const found = findVersion(schema, version);
  if (found === undefined)
    throw bridgeError('SCHEMA.VERSION_NOT_FOUND', `schema ${id} has no version ${version}`, { schemaId: id, version });
  return found;
}

const optionalString = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

// ---- the router ----

export function createSchemasRouter(deps: SchemasRouterDeps): Router {
  const { commands, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const queries = createSchemaQueries(deps.readStore);
  const reader = createSchemaReader({ eventStore: deps.eventStore });
  const validators = createVersionValidators();
  /** the violations putEvent would answer for this data (a deleted schema's versions still check) */
  const validateData = (schema: Schema, version: { version: string; content: unknown }, data: unknown) => {
    const fn = validators.validatorFor(
      `${schemaStream(schema.tenant, schema.schemaId)}@${version.version}`,
      version.content,
      `${schema.schemaId}:${version.version}`,
    );
    return fn(data) ? [] : toViolations((fn.errors ?? []).slice(0, MAX_LISTED_PROBLEMS), 'data');
  };
  const router = Router();

  router.use(`${BRIDGE_ADMIN_BASE}/schemas`, bearer.authenticate, bearer.requireScope(BRIDGE_ADMIN_SCOPE));

  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    s: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
  ) =>
    registry.route(
      router,
      { method, path: `${BRIDGE_ADMIN_BASE}${path}`, summary, schemas: s, successStatus, tags: ['schema registry'] },
      handler,
    );

  const ctx = (res: Response) => commandContext(res);
  const notFound = (id: string) => bridgeError('SCHEMA.NOT_FOUND', `no schema ${id}`, { schemaId: id });

  /** a schema the caller may read: its tenant's own, else the platform's */
  const visible = async (res: Response, id: string): Promise<Schema> => {
    const schema = await reader.visible(tenantOf(res), id);
    if (schema === null) throw notFound(id);
    return schema;
  };
  /** a schema the caller may change: its tenant's own only (a platform schema is 403 for a tenant admin) */
  const owned = async (res: Response, id: string): Promise<Schema> => {
    const tenant = tenantOf(res);
    const schema = await visible(res, id);
    if (schema.tenant !== tenant) {
      throw bridgeError(
        'SCHEMA.FORBIDDEN',
        `schema ${id} is a platform schema: only platform administrators change it`,
        { schemaId: id },
      );
    }
    return schema;
  };

  route(
    'post',
    '/schemas',
    'create a schema with its first version (an OpenAPI 3.0 document)',
    schemas.create,
    async (req, res) => {
      const b = req.body as Body;
      const description = optionalString(b.description);
      const bus = optionalString(b.bus);
      const version = optionalString(b.version);
      const { schema, created } = await commands.create(
        {
          content: documentOf(b),
          ...(b.schemaId !== undefined && { schemaId: String(b.schemaId) }),
          ...(b.name !== undefined && { name: String(b.name) }),
          ...(description !== undefined && { description }),
          ...(bus !== undefined && { bus }),
          ...(version !== undefined && { version }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res
        .status(created ? 201 : 200)
        .location(`${BRIDGE_ADMIN_BASE}/schemas/${schema.schemaId}`)
        .json(schemaView(schema));
    },
    201,
  );

  route(
    'post',
    '/schemas/:id/versions',
    'add a version (immutable: 409 when it exists with other content)',
    schemas.addVersion,
    async (req, res) => {
      const id = req.params.id as string;
      await owned(res, id);
      const b = req.body as Body;
      const v = optionalString(b.version);
      const { schema, version, added } = await commands.addVersion(
        id,
        { content: documentOf(b), ...(v !== undefined && { version: v }) },
        ctx(res),
        commandIdFrom(req),
      );
      res
        .status(added ? 201 : 200)
        .location(`${BRIDGE_ADMIN_BASE}/schemas/${id}/versions/${version}`)
        .json(schemaView(schema));
    },
    201,
  );

  route(
    'get',
    '/schemas',
    "list the schemas the tenant sees (its own and the platform's)",
    schemas.list,
    async (req, res) => {
      const q = req.query as unknown as {
        owner: 'all' | 'own' | 'platform';
        bus?: string;
        includeDeleted: boolean;
        limit: number;
        offset: number;
      };
      const page = await queries.list({
        tenant: tenantOf(res),
        owner: q.owner,
        includeDeleted: q.includeDeleted,
        limit: q.limit,
        offset: q.offset,
        ...(q.bus !== undefined && { bus: q.bus }),
      });
      res.json({ ...page, items: page.items.map(view) });
    },
  );

  route('get', '/schemas/:id', 'one schema with its versions', schemas.get, async (req, res) => {
    res.json(schemaView(await visible(res, req.params.id as string)));
  });

  route(
    'get',
    '/schemas/:id/versions/:version',
    "download a version's OpenAPI 3.0 document (`latest`: the newest)",
    schemas.download,
    async (req, res) => {
      const id = req.params.id as string;
      const found = versionOf(id, await visible(res, id), req.params.version as string);
      res
        .status(200)
        .type('application/json')
        .set('Content-Disposition', `attachment; filename="schema-${id}-${found.version}.json"`)
        .set('X-Schema-Version', found.version)
        .send(JSON.stringify(found.content, null, 2));
    },
  );

  route(
    'post',
    '/schemas/:id/versions/:version/validate',
    "check data (or an event's data) against a version, as putEvent would, without publishing",
    schemas.validate,
    async (req, res) => {
      const id = req.params.id as string;
      const schema = await visible(res, id);
      const found = versionOf(id, schema, req.params.version as string);
      const b = req.body as { data?: unknown; event?: { data: unknown } };
      const data = b.event !== undefined ? b.event.data : b.data;
      const errors = validateData(schema, found, data).map((v) => ({
        field: v.path,
        message: v.message,
        keyword: v.keyword,
      }));
      res.json({ valid: errors.length === 0, schemaId: id, version: found.version, errors });
    },
  );

  route(
    'delete',
    '/schemas/:id',
    'delete a schema (marked deleted; its versions stay readable)',
    schemas.delete,
    async (req, res) => {
      const id = req.params.id as string;
      await owned(res, id);
      await commands.delete(id, ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  return router;
}
