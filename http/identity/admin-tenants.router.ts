import { Router } from 'express';
import type { DirectoryCommands } from '../../commands/identity/directory.commands.ts';
import type { Directory } from '../../commands/identity/identity.contracts.ts';
import { identityError } from '../../domain/identity/identity.errors.ts';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../../domain/identity/tenant.decider.ts';
import type { DirectoryQueries } from '../../projections/identity/directory.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageOf } from '../core/paging.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { isPlatformAdmin, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { adminCommandContext, adminTenant, requirePlatformAdmin } from './admin.access.ts';
import { type Body, defined } from './admin.request.ts';
import { adminRoute } from './admin.route.ts';
import { email, name, nullable, paging, status, tenantAnswer, tenantCode } from './admin.schemas.ts';
import { tenantView } from './admin.views.ts';

/**
 * `/tenants`: platform administrators create tenants and see them all; a tenant admin sees and changes
 * its own (another tenant's code is 403).
 */
export type AdminTenantsDeps = {
  directory: Pick<Directory, 'getTenant'>;
  commands: Pick<DirectoryCommands, 'createTenant' | 'updateTenant'>;
  queries: Pick<DirectoryQueries, 'listTenants'>;
  registry: RouteRegistry;
};

const tokenLifetime = { type: 'integer', minimum: 1, maximum: MAX_TOKEN_LIFETIME_SECONDS };
const codePath = { type: 'object', properties: { code: tenantCode }, required: ['code'] };

const schemas = {
  createTenant: {
    body: {
      type: 'object',
      properties: { code: tenantCode, name, token_lifetime_seconds: tokenLifetime, support_mail_group: email },
      required: ['code', 'name'],
      additionalProperties: false,
      example: { code: 'acme', name: 'ACME Insurance', support_mail_group: 'support@acme.example' },
    },
    response: tenantAnswer,
  },
  listTenants: {
    query: { type: 'object', properties: { ...paging, status }, additionalProperties: false },
    response: pageOf(tenantAnswer),
  },
  tenantPath: { params: codePath, response: tenantAnswer },
  patchTenant: {
    params: codePath,
    body: {
      type: 'object',
      properties: { name, token_lifetime_seconds: tokenLifetime, support_mail_group: nullable(email) },
      minProperties: 1,
      additionalProperties: false,
    },
    response: tenantAnswer,
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export function createAdminTenantsRouter(deps: AdminTenantsDeps): Router {
  const { directory, commands, queries } = deps;
  const router = Router();
  const route = adminRoute(router, deps.registry);

  route(
    'post',
    '/tenants',
    'create a tenant (platform administrators)',
    schemas.createTenant,
    async (req, res) => {
      requirePlatformAdmin(res);
      const b = req.body as Body;
      const { tenant, created } = await commands.createTenant(
        defined({
          name: b.name as string,
          tokenLifetimeSeconds: b.token_lifetime_seconds as number | undefined,
          supportMailGroup: b.support_mail_group as string | undefined,
        }),
        adminCommandContext(res, b.code as string),
        commandIdFrom(req),
      );
      res.status(created ? 201 : 200).json(tenantView(tenant));
    },
    201,
  );

  route('get', '/tenants', 'list tenants (a tenant admin sees its own)', schemas.listTenants, async (req, res) => {
    const q = req.query as unknown as { limit: number; offset: number; status?: 'active' | 'disabled' };
    const page = await queries.listTenants({ ...q, ...(!isPlatformAdmin(res) && { codes: [tenantOf(res)] }) });
    res.json({ ...page, items: page.items.map(tenantView) });
  });

  route('get', '/tenants/:code', 'one tenant', schemas.tenantPath, async (req, res) => {
    const code = adminTenant(res, req.params.code);
    const tenant = await directory.getTenant(code);
    if (tenant === null) throw identityError('TENANT.NOT_FOUND', `no tenant ${code}`);
    res.json(tenantView(tenant));
  });

  route(
    'patch',
    '/tenants/:code',
    'change a tenant: name, token lifetime, support mail group',
    schemas.patchTenant,
    async (req, res) => {
      const code = adminTenant(res, req.params.code);
      const b = req.body as Body;
      const { tenant } = await commands.updateTenant(
        defined({
          name: b.name as string | undefined,
          tokenLifetimeSeconds: b.token_lifetime_seconds as number | undefined,
          supportMailGroup: b.support_mail_group as string | null | undefined,
        }),
        adminCommandContext(res, code),
        commandIdFrom(req),
      );
      res.json(tenantView(tenant));
    },
  );

  return router;
}
