import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { ApiDestinationCommands, ApiDestinationView } from '../../commands/bridge/api-destinations.commands.ts';
import type { ConnectionCommands, ConnectionView } from '../../commands/bridge/connections.commands.ts';
import {
  DEFAULT_SIGNING_OVERLAP_SECONDS,
  HTTP_METHODS,
  type HttpMethodName,
  MAX_SIGNING_OVERLAP_SECONDS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
} from '../../domain/bridge/api-destination.decider.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  AUTH_KINDS,
  BEARER_SOURCES,
  CONNECTION_NAME,
  MAX_DESCRIPTION,
  MAX_SECRET_LENGTH,
  OAUTH_CLIENT_AUTH,
  OAUTH_METHODS,
  SECRET_MASK,
} from '../../domain/bridge/connection.decider.ts';
import { MAX_URL_LENGTH, MAX_URL_VARIABLES, type UrlTemplate } from '../../domain/bridge/destination-url.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import {
  type ConnectionDoc,
  createIntegrationQueries,
  type DestinationDoc,
} from '../../projections/bridge/integrations.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageAnswer, pageOf, pagingProperties } from '../core/paging.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';

/**
 * Connections and API destinations (spec "Integration": an API destination plus a connection), under
 * `/api/platform/platform-pub/eventBridge/admin/v1`, scope `bridge:admin`, the token's tenant:
 *
 *   POST   /connections                      {name, description?, auth}                       201
 *   GET    /connections?limit=&offset=       the tenant's connections (secrets masked; paged)
 *   GET    /connections/{name}               one connection (secrets masked)
 *   PUT    /connections/{name}               {description?, auth?}: auth replaces the whole auth; a secret
 *                                            left out keeps its current value when the kind stays the same
 *   DELETE /connections/{name}               204; 409 CONNECTION.IN_USE while API destinations use it
 *   POST   /api-destinations                 {name, description?, urlTemplate {url, variables?} (or url),
 *                                            method, connection?, timeoutMs?}                  201
 *                                            + signingSecret (whsec_…): shown this once
 *   GET    /api-destinations?connection=&limit=&offset=
 *   GET    /api-destinations/{name}
 *   PUT    /api-destinations/{name}          the fields given (null removes description, connection, timeoutMs)
 *   DELETE /api-destinations/{name}          204
 *   POST   /api-destinations/{name}/rotate-signing-secret   {overlapSeconds?}               200
 *                                            {name, signingSecret (shown this once), previousValidUntil}:
 *                                            the previous secret keeps signing until then (default 24 h)
 *
 * auth: {kind: BASIC, username, password} | {kind: BEARER, source: caller | fixed (token) | config (key,
 * e.g. `alert.token` or `${alert.token}`) | jsonpath (path)} | {kind: OAUTH_CLIENT_CREDENTIALS, tokenUrl,
 * clientId, clientSecret, method GET|POST (default POST), clientAuth client_secret_basic (default) |
 * client_secret_post, scope?, audience?, params?} | {kind: API_KEY, headerName, value}.
 * Secrets are encrypted at rest and never answered: every answer shows `******` in their place. The one
 * exception is a destination's Standard Webhooks signing secret, answered once by the call that made it
 * (create, rotate; a replay of that call with the same Idempotency-Key answers `replayed` without it).
 * Writes honour `Idempotency-Key`.
 */
export type DestinationsRouterDeps = {
  connections: ConnectionCommands;
  destinations: ApiDestinationCommands;
  /** for the listings (projection bridge.integrations) */
  readStore: ReadStore;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry?: RouteRegistry;
};

type Body = Record<string, unknown>;

const text = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const secret = text(MAX_SECRET_LENGTH);
const name: JsonSchema = { type: 'string', pattern: CONNECTION_NAME.source };
const description: JsonSchema = { type: 'string', maxLength: MAX_DESCRIPTION };
const page = pagingProperties();

const authInput: JsonSchema = {
  type: 'object',
  description:
    'BASIC {username, password} | BEARER {source: caller | fixed (token) | config (key) | jsonpath (path)} | ' +
    'OAUTH_CLIENT_CREDENTIALS {tokenUrl, clientId, clientSecret, method, clientAuth, scope, audience, params} | API_KEY {headerName, value}',
  properties: {
    kind: { type: 'string', enum: [...AUTH_KINDS] },
    username: text(256),
    password: secret,
    source: { type: 'string', enum: [...BEARER_SOURCES] },
    token: secret,
    key: text(200),
    path: text(512),
    tokenUrl: text(2048),
    clientId: text(256),
    clientSecret: secret,
    method: { type: 'string', enum: [...OAUTH_METHODS] },
    clientAuth: { type: 'string', enum: [...OAUTH_CLIENT_AUTH] },
    scope: text(1024),
    audience: text(1024),
    params: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 1024 } },
    headerName: text(128),
    value: secret,
  },
  required: ['kind'],
  additionalProperties: false,
};
const authView: JsonSchema = {
  type: 'object',
  description: `the auth with every secret shown as ${SECRET_MASK}`,
  properties: { kind: { type: 'string', enum: [...AUTH_KINDS] } },
};
const connectionView: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    auth: authView,
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};

const urlTemplate: JsonSchema = {
  type: 'object',
  description:
    'url with ${name} references; variables: name → $.json.path (the event) | config:key (configuration center) | constant',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
    variables: {
      type: 'object',
      maxProperties: MAX_URL_VARIABLES,
      additionalProperties: { type: 'string', maxLength: 512 },
    },
  },
  required: ['url'],
  additionalProperties: false,
};
const method: JsonSchema = { type: 'string', enum: [...HTTP_METHODS] };
const timeoutMs: JsonSchema = { type: 'integer', minimum: MIN_TIMEOUT_MS, maximum: MAX_TIMEOUT_MS };
const destinationView: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    urlTemplate,
    method,
    connection: { type: 'string', nullable: true },
    timeoutMs: { type: 'integer', nullable: true },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};
const namePath = { type: 'object', properties: { name }, required: ['name'] };

const schemas = {
  createConnection: {
    body: {
      type: 'object',
      properties: { name, description, auth: authInput },
      required: ['name', 'auth'],
      additionalProperties: false,
    },
    response: connectionView,
  },
  updateConnection: {
    params: namePath,
    body: {
      type: 'object',
      properties: { description: { ...description, nullable: true }, auth: authInput },
      additionalProperties: false,
    },
    response: connectionView,
  },
  listConnections: {
    query: { type: 'object', properties: page, additionalProperties: false },
    response: pageOf(connectionView),
  },
  connectionPath: { params: namePath, response: connectionView },
  deletePath: { params: namePath },
  createDestination: {
    body: {
      type: 'object',
      properties: {
        name,
        description,
        urlTemplate,
        url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
        method,
        connection: name,
        timeoutMs,
      },
      required: ['name', 'method'],
      additionalProperties: false,
    },
    response: {
      ...destinationView,
      properties: {
        ...destinationView.properties,
        signingSecret: {
          type: 'string',
          description: 'the Standard Webhooks signing secret (whsec_…) of its deliveries, shown this once',
        },
      },
    },
  },
  updateDestination: {
    params: namePath,
    body: {
      type: 'object',
      properties: {
        description: { ...description, nullable: true },
        urlTemplate,
        url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
        method,
        connection: { ...name, nullable: true },
        timeoutMs: { ...timeoutMs, nullable: true },
      },
      additionalProperties: false,
    },
    response: destinationView,
  },
  listDestinations: {
    query: { type: 'object', properties: { ...page, connection: name }, additionalProperties: false },
    response: pageOf(destinationView),
  },
  destinationPath: { params: namePath, response: destinationView },
  rotateSigningSecret: {
    params: namePath,
    body: {
      type: 'object',
      properties: {
        overlapSeconds: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_SIGNING_OVERLAP_SECONDS,
          description: `how long the previous secret keeps signing beside the new one (default ${DEFAULT_SIGNING_OVERLAP_SECONDS}; 0: it stops at once)`,
        },
      },
      additionalProperties: false,
    },
    response: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        signingSecret: { type: 'string', description: 'the new Standard Webhooks secret (whsec_…), shown this once' },
        previousValidUntil: {
          type: 'string',
          nullable: true,
          description: 'until when the previous secret still signs',
        },
      },
    },
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export const connectionJson = (c: ConnectionView | ConnectionDoc) => ({
  name: c.name,
  description: c.description ?? null,
  auth: c.auth,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export const destinationJson = (d: ApiDestinationView | DestinationDoc) => ({
  name: d.name,
  description: d.description ?? null,
  urlTemplate: d.urlTemplate,
  method: d.method,
  connection: d.connection ?? null,
  timeoutMs: d.timeoutMs ?? null,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** `urlTemplate` or its shorthand `url` (a URL without variables), never both. */
function urlTemplateOf(b: Body): UrlTemplate | undefined {
  if (b.urlTemplate !== undefined && b.url !== undefined) {
    throw coreError('REQUEST.INVALID', 'give urlTemplate or url, not both', [
      { in: 'body', field: 'url', message: 'is not allowed with urlTemplate', keyword: 'not' },
    ]);
  }
  if (b.url !== undefined) return { url: b.url as string, variables: {} };
  if (b.urlTemplate === undefined) return undefined;
  const t = b.urlTemplate as { url: string; variables?: Record<string, string> };
  return { url: t.url, variables: t.variables ?? {} };
}

export function createDestinationsRouter(deps: DestinationsRouterDeps): Router {
  const { connections, destinations, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const queries = createIntegrationQueries(deps.readStore);
  const router = Router();

  router.use(
    ['/connections', '/api-destinations'].map((p) => `${BRIDGE_ADMIN_BASE}${p}`),
    bearer.authenticate,
    bearer.requireScope(BRIDGE_ADMIN_SCOPE),
  );
  // a rotation may come without a body (the default overlap)
  router.use(`${BRIDGE_ADMIN_BASE}/api-destinations/:name/rotate-signing-secret`, (req, _res, next) => {
    req.body ??= {};
    next();
  });

  const route = (
    m: HttpMethod,
    path: string,
    summary: string,
    s: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
    tag = 'connections',
  ) =>
    registry.route(
      router,
      { method: m, path: `${BRIDGE_ADMIN_BASE}${path}`, summary, schemas: s, successStatus, tags: [`bridge ${tag}`] },
      handler,
    );

  const ctx = (res: Response) => commandContext(res);
  const nameOf = (req: Request) => req.params.name as string;
  // connection answers carry no secret, but say so to caches anyway
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  // ---- connections ----

  route(
    'post',
    '/connections',
    'create a connection (the authentication API destinations use; secrets are never answered)',
    schemas.createConnection,
    async (req, res) => {
      const b = req.body as Body;
      const { connection, created } = await connections.create(
        {
          name: b.name as string,
          ...(b.description !== undefined && { description: b.description as string }),
          auth: b.auth as Body,
        },
        ctx(res),
        commandIdFrom(req),
      );
      noStore(res)
        .status(201)
        .location(`${BRIDGE_ADMIN_BASE}/connections/${connection.name}`)
        .json({ ...connectionJson(connection), ...(created ? {} : { replayed: true }) });
    },
    201,
  );

  route(
    'get',
    '/connections',
    "the tenant's connections (secrets masked; paged)",
    schemas.listConnections,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number };
      const p = await queries.listConnections(tenantOf(res), q);
      noStore(res).json(pageAnswer(p, q, connectionJson));
    },
  );

  route('get', '/connections/:name', 'one connection (secrets masked)', schemas.connectionPath, async (req, res) => {
    const c = await connections.get(tenantOf(res), nameOf(req));
    if (c === null) throw bridgeError('CONNECTION.NOT_FOUND', 'no such connection');
    noStore(res).json(connectionJson(c));
  });

  route(
    'put',
    '/connections/:name',
    'change a connection: description, or the whole auth (secrets left out are kept when the kind is the same)',
    schemas.updateConnection,
    async (req, res) => {
      const b = req.body as Body;
      const c = await connections.update(
        nameOf(req),
        {
          ...(b.description !== undefined && { description: b.description as string | null }),
          ...(b.auth !== undefined && { auth: b.auth as Body }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      noStore(res).json(connectionJson(c));
    },
  );

  route(
    'delete',
    '/connections/:name',
    'delete a connection (409 while API destinations use it)',
    schemas.deletePath,
    async (req, res) => {
      const tenant = tenantOf(res);
      const users = await queries.destinationsUsing(tenant, nameOf(req));
      if (users.length > 0) {
        throw bridgeError('CONNECTION.IN_USE', `the connection is used by API destinations: ${users.join(', ')}`, {
          destinations: users,
        });
      }
      await connections.delete(nameOf(req), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // ---- API destinations ----

  route(
    'post',
    '/api-destinations',
    'create an API destination (URL template, method, connection)',
    schemas.createDestination,
    async (req, res) => {
      const b = req.body as Body;
      const template = urlTemplateOf(b);
      if (template === undefined) {
        throw coreError('REQUEST.INVALID', 'request validation failed: body.urlTemplate is required', [
          { in: 'body', field: 'urlTemplate', message: 'is required (or url)', keyword: 'required' },
        ]);
      }
      const { destination, created, signingSecret } = await destinations.create(
        {
          name: b.name as string,
          ...(b.description !== undefined && { description: b.description as string }),
          urlTemplate: template,
          method: b.method as HttpMethodName,
          ...(b.connection !== undefined && { connection: b.connection as string }),
          ...(b.timeoutMs !== undefined && { timeoutMs: b.timeoutMs as number }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      // the signing secret is in this answer only: no cache may keep it
      noStore(res)
        .status(201)
        .location(`${BRIDGE_ADMIN_BASE}/api-destinations/${destination.name}`)
        .json({
          ...destinationJson(destination),
          ...(signingSecret !== undefined && { signingSecret }),
          ...(created ? {} : { replayed: true }),
        });
    },
    201,
    'API destinations',
  );

  route(
    'get',
    '/api-destinations',
    "the tenant's API destinations (by connection; paged)",
    schemas.listDestinations,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number; connection?: string };
      const p = await queries.listDestinations(tenantOf(res), q);
      res.json(pageAnswer(p, q, destinationJson));
    },
    200,
    'API destinations',
  );

  route(
    'get',
    '/api-destinations/:name',
    'one API destination',
    schemas.destinationPath,
    async (req, res) => {
      const d = await destinations.get(tenantOf(res), nameOf(req));
      if (d === null) throw bridgeError('API_DESTINATION.NOT_FOUND', 'no such API destination');
      res.json(destinationJson(d));
    },
    200,
    'API destinations',
  );

  route(
    'put',
    '/api-destinations/:name',
    'change an API destination (the fields given; null removes description, connection, timeoutMs)',
    schemas.updateDestination,
    async (req, res) => {
      const b = req.body as Body;
      const template = urlTemplateOf(b);
      const d = await destinations.update(
        nameOf(req),
        {
          ...(b.description !== undefined && { description: b.description as string | null }),
          ...(template !== undefined && { urlTemplate: template }),
          ...(b.method !== undefined && { method: b.method as HttpMethodName }),
          ...(b.connection !== undefined && { connection: b.connection as string | null }),
          ...(b.timeoutMs !== undefined && { timeoutMs: b.timeoutMs as number | null }),
        },
        ctx(res),
        commandIdFrom(req),
      );
      res.json(destinationJson(d));
    },
    200,
    'API destinations',
  );

  route(
    'post',
    '/api-destinations/:name/rotate-signing-secret',
    'a new signing secret (shown once); the previous one keeps signing for the overlap',
    schemas.rotateSigningSecret,
    async (req, res) => {
      const b = req.body as Body;
      const r = await destinations.rotateSigningSecret(
        nameOf(req),
        b.overlapSeconds as number | undefined,
        ctx(res),
        commandIdFrom(req),
      );
      noStore(res).json({
        name: r.destination.name,
        ...(r.signingSecret !== undefined && { signingSecret: r.signingSecret }),
        previousValidUntil: r.previousValidUntil,
        ...(r.replayed && { replayed: true }),
      });
    },
    200,
    'API destinations',
  );

  route(
    'delete',
    '/api-destinations/:name',
    'delete an API destination (rules that name it fail their deliveries without retry)',
    schemas.deletePath,
    async (req, res) => {
      await destinations.delete(nameOf(req), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
    'API destinations',
  );

  return router;
}
