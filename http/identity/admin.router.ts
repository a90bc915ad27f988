import { Router, type RequestHandler, type Response } from 'express';
import type { DirectoryCommands } from '../../commands/identity/directory-commands.ts';
import type { Directory } from '../../commands/identity/contracts.ts';
import { MAX_SECRET_LENGTH } from '../../commands/identity/password-hash.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import { CLIENT_ID, type ClientChanges } from '../../domain/identity/client.decider.ts';
import {
  ADMIN_SCOPE,
  AUTH_METHODS,
  PLATFORM_TENANT,
  type AccessContext,
  type Client,
  type PublicJwk,
  type Tenant,
  type User,
} from '../../domain/identity/model.ts';
import { MAX_TOKEN_LIFETIME_SECONDS, TENANT_CODE } from '../../domain/identity/tenant.decider.ts';
import { DIRECTORY_ID, SCOPE_TOKEN, USER_ID, USERNAME, type UserProfileChanges } from '../../domain/identity/user.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createDirectoryQueries, type ClientDoc, type TenantDoc, type UserDoc } from '../../projections/identity/directory.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { commandMetadata } from '../core/request-context.ts';
import { createRouteRegistry, type HttpMethod, type RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';

/**
 * The identity provider's administration API, under `/cas/admin/v1` (the spec shows the portal, not an
 * API: these paths are ours). Every route needs a bearer token with the scope `identity:admin`.
 *
 * Tenant isolation: the tenant comes from the token. Only an admin of the `platform` tenant may name
 * another tenant (`?tenant=` on user and client routes, `tenant_code` when registering a client, the
 * code in `/tenants/{code}`) and create tenants; a tenant admin naming another tenant gets 403. A client
 * of another tenant looked up by id is 404 (its existence is not revealed).
 *
 * Field names are snake_case, the client's those of the spec's registration table; lists are answered
 * as arrays (grant_type, allowed_access_tenants and redirect URLs are also accepted as a comma-separated
 * string, a redirect URL string as one URL). Secrets: `client_secret` appears only in the answer to the
 * registration and to rotate-secret (with `Cache-Control: no-store`); no answer ever carries a hash.
 */
export type AdminRouterDeps = {
  directory: Pick<Directory, 'getTenant' | 'getClient' | 'getUser'>;
  commands: DirectoryCommands;
  readStore: ReadStore;
  auth: { authenticate: RequestHandler; requireScope(scope: string): RequestHandler };
  clock: Clock;
  /** routes are recorded here for the OpenAPI document (a private registry when absent) */
  registry?: RouteRegistry;
};

export const ADMIN_BASE = '/cas/admin/v1';

// ---- schemas ----

const pattern = (re: RegExp) => re.source;
const tenantCode = { type: 'string', pattern: pattern(TENANT_CODE) };
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const stringOrList = (item: JsonSchema): JsonSchema => ({
  anyOf: [{ type: 'string', maxLength: 4000 }, { type: 'array', maxItems: 50, items: item }],
});
const email = { type: 'string', format: 'email', maxLength: 320 };
const name = { type: 'string', minLength: 1, maxLength: 200 };
const status = { type: 'string', enum: ['active', 'disabled'] };
const paging = {
  limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  offset: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
};
const tenantQuery: JsonSchema = { type: 'object', properties: { tenant: tenantCode }, additionalProperties: false };

const jwk = { type: 'object', properties: { kty: { type: 'string' } }, required: ['kty'] };
const jwks: JsonSchema = {
  anyOf: [
    { type: 'array', maxItems: 10, items: jwk },
    { type: 'object', properties: { keys: { type: 'array', maxItems: 10, items: jwk } }, required: ['keys'] },
  ],
};
const redirect = { type: 'string', minLength: 1, maxLength: 2000 };
const clientFields = {
  signin_redirect_url: stringOrList(redirect),
  signout_redirect_url: stringOrList(redirect),
  grant_type: stringOrList({ type: 'string', maxLength: 64 }),
  token_endpoint_auth_method: { type: 'string', enum: [...AUTH_METHODS] },
  user_source_id: { type: 'string', pattern: pattern(DIRECTORY_ID) },
  default_user: { type: 'string', minLength: 1, maxLength: 128 },
  allowed_access_tenants: stringOrList(tenantCode),
  app_name: name,
  scopes: { type: 'array', maxItems: 50, items: { type: 'string', pattern: pattern(SCOPE_TOKEN) } },
  jwks,
  allow_plain_pkce: { type: 'boolean' },
};

const schemas = {
  createTenant: {
    body: {
      type: 'object',
      properties: {
        code: tenantCode,
        name,
        token_lifetime_seconds: { type: 'integer', minimum: 1, maximum: MAX_TOKEN_LIFETIME_SECONDS },
        support_mail_group: email,
      },
      required: ['code', 'name'],
      additionalProperties: false,
    },
  },
  listTenants: { query: { type: 'object', properties: { ...paging, status }, additionalProperties: false } },
  tenantPath: { params: { type: 'object', properties: { code: tenantCode }, required: ['code'] } },
  patchTenant: {
    params: { type: 'object', properties: { code: tenantCode }, required: ['code'] },
    body: {
      type: 'object',
      properties: {
        name,
        token_lifetime_seconds: { type: 'integer', minimum: 1, maximum: MAX_TOKEN_LIFETIME_SECONDS },
        support_mail_group: nullable(email),
      },
      minProperties: 1,
      additionalProperties: false,
    },
  },
  createUser: {
    query: tenantQuery,
    body: {
      type: 'object',
      properties: {
        username: { type: 'string', pattern: pattern(USERNAME) },
        password: { type: 'string', minLength: 8, maxLength: MAX_SECRET_LENGTH },
        name,
        nickname: name,
        email,
        roles: { type: 'array', maxItems: 50, items: { type: 'string', pattern: pattern(SCOPE_TOKEN) } },
        user_source_id: { type: 'string', pattern: pattern(DIRECTORY_ID) },
      },
      required: ['username', 'name'],
      additionalProperties: false,
    },
  },
  listUsers: {
    query: {
      type: 'object',
      properties: {
        ...paging,
        tenant: tenantCode,
        status,
        username_prefix: { type: 'string', maxLength: 128 },
        user_source_id: { type: 'string', pattern: pattern(DIRECTORY_ID) },
      },
      additionalProperties: false,
    },
  },
  userPath: { query: tenantQuery, params: { type: 'object', properties: { id: { type: 'string', pattern: pattern(USER_ID) } }, required: ['id'] } },
  patchUser: {
    query: tenantQuery,
    params: { type: 'object', properties: { id: { type: 'string', pattern: pattern(USER_ID) } }, required: ['id'] },
    body: {
      type: 'object',
      properties: {
        name,
        nickname: nullable(name),
        email: nullable(email),
        roles: { type: 'array', maxItems: 50, items: { type: 'string', pattern: pattern(SCOPE_TOKEN) } },
      },
      minProperties: 1,
      additionalProperties: false,
    },
  },
  resetPassword: {
    query: tenantQuery,
    params: { type: 'object', properties: { id: { type: 'string', pattern: pattern(USER_ID) } }, required: ['id'] },
    body: {
      type: 'object',
      properties: { password: { type: 'string', minLength: 8, maxLength: MAX_SECRET_LENGTH } },
      required: ['password'],
      additionalProperties: false,
    },
  },
  registerClient: {
    body: {
      type: 'object',
      properties: { ...clientFields, tenant_code: tenantCode },
      required: ['grant_type'],
      additionalProperties: false,
    },
  },
  listClients: { query: { type: 'object', properties: { ...paging, tenant: tenantCode, status }, additionalProperties: false } },
  clientPath: { params: { type: 'object', properties: { id: { type: 'string', pattern: pattern(CLIENT_ID) } }, required: ['id'] } },
  patchClient: {
    params: { type: 'object', properties: { id: { type: 'string', pattern: pattern(CLIENT_ID) } }, required: ['id'] },
    body: {
      type: 'object',
      properties: {
        ...clientFields,
        app_name: nullable(name),
        default_user: nullable({ type: 'string', minLength: 1, maxLength: 128 }),
        jwks: nullable(jwks),
      },
      minProperties: 1,
      additionalProperties: false,
    },
  },
} satisfies Record<string, RequestSchemas>;

// ---- views: what the API answers (never a secret hash) ----

export const tenantView = (t: Tenant | TenantDoc) => ({
  code: t.code,
  name: t.name,
  token_lifetime_seconds: t.tokenLifetimeSeconds,
  support_mail_group: t.supportMailGroup ?? null,
  status: t.status,
});

export const userView = (u: User | UserDoc) => ({
  user_id: u.userId,
  tenant: u.tenant,
  user_source_id: u.directory,
  username: u.username,
  name: u.name,
  nickname: u.nickname ?? null,
  email: u.email ?? null,
  roles: u.roles,
  status: u.status,
});

export const clientView = (c: Client | ClientDoc) => ({
  client_id: c.clientId,
  tenant_code: c.tenant,
  app_name: c.appName ?? null,
  signin_redirect_url: c.redirectUris,
  signout_redirect_url: c.postLogoutRedirectUris,
  grant_type: c.grantTypes,
  token_endpoint_auth_method: c.authMethod,
  user_source_id: c.userSourceId,
  default_user: c.defaultUser ?? null,
  allowed_access_tenants: c.allowedAccessTenants,
  scopes: c.scopes,
  jwks: c.jwks ?? null,
  allow_plain_pkce: c.allowPlainPkce,
  has_client_secret: 'hasSecret' in c ? c.hasSecret : c.secretHash !== undefined,
  status: c.status,
});

// ---- request parsing ----

type Body = Record<string, unknown>;

/** `a, b` or `['a', 'b']` → ['a', 'b']; a list of one empty string is no list */
const splitList = (v: unknown): string[] | undefined => {
  if (v === undefined) return undefined;
  const items = Array.isArray(v) ? (v as string[]) : String(v).split(',');
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
};
/** a redirect URL string is one URL (a URL may hold a comma); an array is several */
const urlList = (v: unknown): string[] | undefined => {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? (v as string[]) : [String(v)]).map((s) => s.trim()).filter((s) => s.length > 0);
};
const jwksList = (v: unknown): PublicJwk[] | undefined => {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? (v as PublicJwk[]) : (v as { keys: PublicJwk[] }).keys;
};

const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

// ---- the router ----

export function createAdminRouter(deps: AdminRouterDeps): Router {
  const { directory, commands, auth } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const queries = createDirectoryQueries(deps.readStore);
  const router = Router();

  router.use(ADMIN_BASE, auth.authenticate, auth.requireScope(ADMIN_SCOPE));

  const route = (method: HttpMethod, path: string, summary: string, s: RequestSchemas, handler: RequestHandler, successStatus = 200) =>
    registry.route(router, { method, path: `${ADMIN_BASE}${path}`, summary, schemas: s, successStatus, tags: ['identity admin'] }, handler);

  const accessOf = (res: Response): AccessContext => {
    const a = res.locals.auth as AccessContext | undefined;
    if (a === undefined) throw new Error('admin router: authenticate did not set res.locals.auth');
    return a;
  };
  const isPlatformAdmin = (a: AccessContext) => a.tenant === PLATFORM_TENANT;

  /** the token's tenant, or the one a platform admin names */
  const targetTenant = (res: Response, requested: unknown): string => {
    const a = accessOf(res);
    if (requested === undefined || requested === a.tenant) return a.tenant;
    if (isPlatformAdmin(a)) return String(requested);
    throw new DomainError('TENANT.FORBIDDEN', 403, `an admin of tenant ${a.tenant} cannot act on tenant ${String(requested)}`, {
      tenant: requested,
    });
  };

  /** a tenant admin may not hand its clients access to other tenants */
  const checkAllowedTenants = (res: Response, tenants: string[] | undefined) => {
    const a = accessOf(res);
    if (tenants === undefined || isPlatformAdmin(a)) return;
    const others = tenants.filter((t) => t !== a.tenant);
    if (others.length > 0) {
      throw new DomainError('CLIENT.CROSS_TENANT_FORBIDDEN', 403, `only platform administrators may allow access to other tenants (${others.join(', ')})`, [
        { field: 'allowed_access_tenants', message: 'may only name your own tenant' },
      ]);
    }
  };

  const ctx = (res: Response, tenant: string) => {
    const a = accessOf(res);
    return commandMetadata(res, { tenant, actor: `${a.subject}@${a.tenant}` });
  };

  const visibleClient = async (res: Response, clientId: string): Promise<Client> => {
    const a = accessOf(res);
    const client = await directory.getClient(clientId);
    if (client === null || (client.tenant !== a.tenant && !isPlatformAdmin(a))) {
      throw new DomainError('CLIENT.NOT_FOUND', 404, 'no such client');
    }
    return client;
  };

  const existingUser = async (tenant: string, userId: string): Promise<User> => {
    const user = await directory.getUser(tenant, userId);
    if (user === null) throw new DomainError('USER.NOT_FOUND', 404, 'no such user');
    return user;
  };

  // ---- tenants ----

  route('post', '/tenants', 'create a tenant (platform administrators)', schemas.createTenant, async (req, res) => {
    const a = accessOf(res);
    if (!isPlatformAdmin(a)) throw new DomainError('TENANT.FORBIDDEN', 403, 'only administrators of the platform tenant create tenants');
    const b = req.body as Body;
    const { tenant, created } = await commands.createTenant(
      defined({
        code: b.code as string,
        name: b.name as string,
        tokenLifetimeSeconds: b.token_lifetime_seconds as number | undefined,
        supportMailGroup: b.support_mail_group as string | undefined,
      }),
      ctx(res, b.code as string),
      commandIdFrom(req),
    );
    res.status(created ? 201 : 200).json(tenantView(tenant));
  }, 201);

  route('get', '/tenants', 'list tenants (a tenant admin sees its own)', schemas.listTenants, async (req, res) => {
    const a = accessOf(res);
    const q = req.query as unknown as { limit: number; offset: number; status?: 'active' | 'disabled' };
    const page = await queries.listTenants({ ...q, ...(!isPlatformAdmin(a) && { codes: [a.tenant] }) });
    res.json({ ...page, items: page.items.map(tenantView) });
  });

  route('get', '/tenants/:code', 'one tenant', schemas.tenantPath, async (req, res) => {
    const code = targetTenant(res, req.params.code);
    const tenant = await directory.getTenant(code);
    if (tenant === null) throw new DomainError('TENANT.NOT_FOUND', 404, `no tenant ${code}`);
    res.json(tenantView(tenant));
  });

  route('patch', '/tenants/:code', 'change a tenant: name, token lifetime, support mail group', schemas.patchTenant, async (req, res) => {
    const code = targetTenant(res, req.params.code);
    const b = req.body as Body;
    const { tenant } = await commands.updateTenant(
      code,
      defined({
        name: b.name as string | undefined,
        tokenLifetimeSeconds: b.token_lifetime_seconds as number | undefined,
        supportMailGroup: b.support_mail_group as string | null | undefined,
      }),
      ctx(res, code),
      commandIdFrom(req),
    );
    res.json(tenantView(tenant));
  });

  // ---- users ----

  route('post', '/users', 'create a user', schemas.createUser, async (req, res) => {
    const tenant = targetTenant(res, req.query.tenant);
    const b = req.body as Body;
    const { user, created } = await commands.registerUser(
      defined({
        tenant,
        directory: b.user_source_id as string | undefined,
        username: b.username as string,
        password: b.password as string | undefined,
        name: b.name as string,
        nickname: b.nickname as string | undefined,
        email: b.email as string | undefined,
        roles: b.roles as string[] | undefined,
      }),
      ctx(res, tenant),
      commandIdFrom(req),
    );
    res.status(created ? 201 : 200).json(userView(user));
  }, 201);

  route('get', '/users', 'list users (filter by status, username prefix, user source)', schemas.listUsers, async (req, res) => {
    const q = req.query as unknown as {
      limit: number;
      offset: number;
      tenant?: string;
      status?: 'active' | 'disabled';
      username_prefix?: string;
      user_source_id?: string;
    };
    const tenant = targetTenant(res, q.tenant);
    const page = await queries.listUsers(
      defined({
        tenant,
        limit: q.limit,
        offset: q.offset,
        status: q.status,
        usernamePrefix: q.username_prefix,
        directory: q.user_source_id,
      }),
    );
    res.json({ ...page, items: page.items.map(userView) });
  });

  route('get', '/users/:id', 'one user', schemas.userPath, async (req, res) => {
    const tenant = targetTenant(res, req.query.tenant);
    res.json(userView(await existingUser(tenant, req.params.id as string)));
  });

  route('patch', '/users/:id', 'change a user: name, nickname, email, roles', schemas.patchUser, async (req, res) => {
    const tenant = targetTenant(res, req.query.tenant);
    const b = req.body as Body;
    const changes = defined({
      name: b.name as string | undefined,
      nickname: b.nickname as string | null | undefined,
      email: b.email as string | null | undefined,
      roles: b.roles as string[] | undefined,
    }) as UserProfileChanges;
    const { user } = await commands.updateUser(tenant, req.params.id as string, changes, ctx(res, tenant), commandIdFrom(req));
    res.json(userView(user));
  });

  for (const action of ['disable', 'enable'] as const) {
    route('post', `/users/:id/${action}`, `${action} a user`, schemas.userPath, async (req, res) => {
      const tenant = targetTenant(res, req.query.tenant);
      const run = action === 'disable' ? commands.disableUser : commands.enableUser;
      const { user } = await run(tenant, req.params.id as string, ctx(res, tenant), commandIdFrom(req));
      res.json(userView(user));
    });
  }

  route('post', '/users/:id/reset-password', 'set a new password', schemas.resetPassword, async (req, res) => {
    const tenant = targetTenant(res, req.query.tenant);
    await existingUser(tenant, req.params.id as string);
    const { user } = await commands.resetPassword(
      tenant,
      req.params.id as string,
      (req.body as Body).password as string,
      ctx(res, tenant),
      commandIdFrom(req),
    );
    res.json(userView(user));
  });

  // ---- clients ----

  route('post', '/clients', 'register a client; client_secret is shown in this answer only', schemas.registerClient, async (req, res) => {
    const b = req.body as Body;
    const tenant = targetTenant(res, b.tenant_code);
    const allowedAccessTenants = splitList(b.allowed_access_tenants);
    checkAllowedTenants(res, allowedAccessTenants);
    const { client, clientSecret, created } = await commands.registerClient(
      defined({
        tenant,
        appName: b.app_name as string | undefined,
        redirectUris: urlList(b.signin_redirect_url),
        postLogoutRedirectUris: urlList(b.signout_redirect_url),
        grantTypes: splitList(b.grant_type) ?? [],
        authMethod: b.token_endpoint_auth_method as string | undefined,
        userSourceId: b.user_source_id as string | undefined,
        defaultUser: b.default_user as string | undefined,
        allowedAccessTenants,
        scopes: b.scopes as string[] | undefined,
        jwks: jwksList(b.jwks),
        allowPlainPkce: b.allow_plain_pkce as boolean | undefined,
      }),
      ctx(res, tenant),
      commandIdFrom(req),
    );
    res
      .status(created ? 201 : 200)
      .set('Cache-Control', 'no-store')
      .json({ ...clientView(client), ...(clientSecret !== undefined && { client_secret: clientSecret }) });
  }, 201);

  route('get', '/clients', 'list clients', schemas.listClients, async (req, res) => {
    const q = req.query as unknown as { limit: number; offset: number; tenant?: string; status?: 'active' | 'disabled' };
    const tenant = targetTenant(res, q.tenant);
    const page = await queries.listClients(defined({ tenant, limit: q.limit, offset: q.offset, status: q.status }));
    res.json({ ...page, items: page.items.map(clientView) });
  });

  route('get', '/clients/:id', 'one client (never its secret)', schemas.clientPath, async (req, res) => {
    res.json(clientView(await visibleClient(res, req.params.id as string)));
  });

  route('patch', '/clients/:id', 'change a client registration', schemas.patchClient, async (req, res) => {
    const client = await visibleClient(res, req.params.id as string);
    const b = req.body as Body;
    const allowedAccessTenants = splitList(b.allowed_access_tenants);
    checkAllowedTenants(res, allowedAccessTenants);
    const changes = defined({
      appName: b.app_name as string | null | undefined,
      redirectUris: urlList(b.signin_redirect_url),
      postLogoutRedirectUris: urlList(b.signout_redirect_url),
      grantTypes: splitList(b.grant_type),
      authMethod: b.token_endpoint_auth_method as string | undefined,
      userSourceId: b.user_source_id as string | undefined,
      defaultUser: b.default_user as string | null | undefined,
      allowedAccessTenants,
      scopes: b.scopes as string[] | undefined,
      jwks: b.jwks === null ? null : jwksList(b.jwks),
      allowPlainPkce: b.allow_plain_pkce as boolean | undefined,
    }) as ClientChanges;
    const { client: after } = await commands.updateClient(client.clientId, changes, ctx(res, client.tenant), commandIdFrom(req));
    res.json(clientView(after));
  });

  route('post', '/clients/:id/rotate-secret', 'a new client secret, shown in this answer only', schemas.clientPath, async (req, res) => {
    const client = await visibleClient(res, req.params.id as string);
    const { client: after, clientSecret } = await commands.rotateClientSecret(client.clientId, ctx(res, client.tenant), commandIdFrom(req));
    res.set('Cache-Control', 'no-store').json({ ...clientView(after), ...(clientSecret !== undefined && { client_secret: clientSecret }) });
  });

  for (const action of ['disable', 'enable'] as const) {
    route('post', `/clients/:id/${action}`, `${action} a client`, schemas.clientPath, async (req, res) => {
      const client = await visibleClient(res, req.params.id as string);
      const run = action === 'disable' ? commands.disableClient : commands.enableClient;
      const { client: after } = await run(client.clientId, ctx(res, client.tenant), commandIdFrom(req));
      res.json(clientView(after));
    });
  }

  return router;
}
