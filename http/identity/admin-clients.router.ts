import { type Response, Router } from 'express';
import type { DirectoryCommands } from '../../commands/identity/directory.commands.ts';
import type { Directory } from '../../commands/identity/identity.contracts.ts';
import { CLIENT_ID, type ClientChanges } from '../../domain/identity/client.decider.ts';
import { identityError } from '../../domain/identity/identity.errors.ts';
import { AUTH_METHODS, type Client } from '../../domain/identity/model.ts';
import { DIRECTORY_ID, SCOPE_TOKEN } from '../../domain/identity/user.decider.ts';
import type { DirectoryQueries } from '../../projections/identity/directory.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageOf } from '../core/paging.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { adminCommandContext, adminTenant, checkAllowedTenants, mayAdminister } from './admin.access.ts';
import { type Body, defined, jwksList, splitList, urlList } from './admin.request.ts';
import { adminRoute } from './admin.route.ts';
import { clientAnswer, name, nullable, paging, pattern, status, stringOrList, tenantCode } from './admin.schemas.ts';
import { clientView } from './admin.views.ts';

/**
 * `/clients`: client registrations. Field names are those of the spec's registration table; lists are
 * answered as arrays (grant_type, allowed_access_tenants and redirect URLs are also accepted as a
 * comma-separated string, a redirect URL string as one URL). `client_secret` appears only in the answer
 * to the registration and to rotate-secret (with `Cache-Control: no-store`). A client of another tenant
 * looked up by id is 404 (its existence is not revealed); a platform admin registers for another tenant
 * with `tenant_code`.
 */
export type AdminClientsDeps = {
  directory: Pick<Directory, 'getClient'>;
  commands: Pick<
    DirectoryCommands,
    'registerClient' | 'updateClient' | 'rotateClientSecret' | 'disableClient' | 'enableClient'
  >;
  queries: Pick<DirectoryQueries, 'listClients'>;
  registry: RouteRegistry;
};

const jwk = { type: 'object', properties: { kty: { type: 'string' } }, required: ['kty'] };
const jwks: JsonSchema = {
  anyOf: [
    { type: 'array', maxItems: 10, items: jwk },
    { type: 'object', properties: { keys: { type: 'array', maxItems: 10, items: jwk } }, required: ['keys'] },
  ],
};
const redirect = { type: 'string', minLength: 1, maxLength: 2000 };
const defaultUser = { type: 'string', minLength: 1, maxLength: 128 };
const clientFields = {
  signin_redirect_url: stringOrList(redirect),
  signout_redirect_url: stringOrList(redirect),
  grant_type: stringOrList({ type: 'string', maxLength: 64 }),
  token_endpoint_auth_method: { type: 'string', enum: [...AUTH_METHODS] },
  user_source_id: { type: 'string', pattern: pattern(DIRECTORY_ID) },
  default_user: defaultUser,
  allowed_access_tenants: stringOrList(tenantCode),
  app_name: name,
  scopes: { type: 'array', maxItems: 50, items: { type: 'string', pattern: pattern(SCOPE_TOKEN) } },
  jwks,
  allow_plain_pkce: { type: 'boolean' },
};
const idPath = {
  type: 'object',
  properties: { id: { type: 'string', pattern: pattern(CLIENT_ID) } },
  required: ['id'],
};

const schemas = {
  registerClient: {
    body: {
      type: 'object',
      properties: { ...clientFields, tenant_code: tenantCode },
      required: ['grant_type'],
      additionalProperties: false,
      example: {
        app_name: 'Claims portal',
        signin_redirect_url: 'https://claims.acme.example/callback',
        signout_redirect_url: 'https://claims.acme.example/',
        grant_type: 'authorization_code, refresh_token',
        token_endpoint_auth_method: 'client_secret_basic',
      },
    },
    response: clientAnswer,
  },
  listClients: {
    query: { type: 'object', properties: { ...paging, tenant: tenantCode, status }, additionalProperties: false },
    response: pageOf(clientAnswer),
  },
  clientPath: { params: idPath, response: clientAnswer },
  patchClient: {
    params: idPath,
    body: {
      type: 'object',
      properties: {
        ...clientFields,
        app_name: nullable(name),
        default_user: nullable(defaultUser),
        jwks: nullable(jwks),
      },
      minProperties: 1,
      additionalProperties: false,
    },
    response: clientAnswer,
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

/** the secret, when the command produced one: shown in this answer only */
const withSecret = (client: Client, clientSecret: string | undefined) => ({
  ...clientView(client),
  ...(clientSecret !== undefined && { client_secret: clientSecret }),
});

export function createAdminClientsRouter(deps: AdminClientsDeps): Router {
  const { directory, commands, queries } = deps;
  const router = Router();
  const route = adminRoute(router, deps.registry);

  /** the client, when the request may act on its tenant (404 otherwise: another tenant's client is not revealed) */
  const visibleClient = async (res: Response, clientId: string): Promise<Client> => {
    const client = await directory.getClient(clientId);
    if (client === null || !mayAdminister(res, client.tenant)) {
      throw identityError('CLIENT.NOT_FOUND', 'no such client');
    }
    return client;
  };

  route(
    'post',
    '/clients',
    'register a client; client_secret is shown in this answer only',
    schemas.registerClient,
    async (req, res) => {
      const b = req.body as Body;
      const tenant = adminTenant(res, b.tenant_code);
      const allowedAccessTenants = splitList(b.allowed_access_tenants);
      checkAllowedTenants(res, allowedAccessTenants);
      const { client, clientSecret, created } = await commands.registerClient(
        defined({
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
        adminCommandContext(res, tenant),
        commandIdFrom(req),
      );
      res
        .status(created ? 201 : 200)
        .set('Cache-Control', 'no-store')
        .json(withSecret(client, clientSecret));
    },
    201,
  );

  route('get', '/clients', 'list clients', schemas.listClients, async (req, res) => {
    const q = req.query as unknown as {
      limit: number;
      offset: number;
      tenant?: string;
      status?: 'active' | 'disabled';
    };
    const tenant = adminTenant(res, q.tenant);
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
    const { client: after } = await commands.updateClient(
      client.clientId,
      changes,
      adminCommandContext(res, client.tenant),
      commandIdFrom(req),
    );
    res.json(clientView(after));
  });

  route(
    'post',
    '/clients/:id/rotate-secret',
    'a new client secret, shown in this answer only',
    schemas.clientPath,
    async (req, res) => {
      const client = await visibleClient(res, req.params.id as string);
      const { client: after, clientSecret } = await commands.rotateClientSecret(
        client.clientId,
        adminCommandContext(res, client.tenant),
        commandIdFrom(req),
      );
      res.set('Cache-Control', 'no-store').json(withSecret(after, clientSecret));
    },
  );

  for (const action of ['disable', 'enable'] as const) {
    route('post', `/clients/:id/${action}`, `${action} a client`, schemas.clientPath, async (req, res) => {
      const client = await visibleClient(res, req.params.id as string);
      const run = action === 'disable' ? commands.disableClient : commands.enableClient;
      const { client: after } = await run(client.clientId, adminCommandContext(res, client.tenant), commandIdFrom(req));
      res.json(clientView(after));
    });
  }

  return router;
}
