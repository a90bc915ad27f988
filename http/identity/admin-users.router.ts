import { Router } from 'express';
import type { DirectoryCommands } from '../../commands/identity/directory.commands.ts';
import type { Directory } from '../../commands/identity/identity.contracts.ts';
import { MAX_SECRET_LENGTH } from '../../commands/identity/password.hash.ts';
import { identityError } from '../../domain/identity/identity.errors.ts';
import type { User } from '../../domain/identity/model.ts';
import {
  DIRECTORY_ID,
  SCOPE_TOKEN,
  USER_ID,
  USERNAME,
  type UserProfileChanges,
} from '../../domain/identity/user.decider.ts';
import type { DirectoryQueries } from '../../projections/identity/directory.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { pageOf } from '../core/paging.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { adminCommandContext, adminTenant } from './admin.access.ts';
import { type Body, defined } from './admin.request.ts';
import { adminRoute } from './admin.route.ts';
import {
  email,
  name,
  nullable,
  paging,
  pattern,
  status,
  tenantCode,
  tenantQuery,
  userAnswer,
  userExample,
} from './admin.schemas.ts';
import { userView } from './admin.views.ts';

/**
 * `/users`: the users of the token's tenant (a platform admin names another with `?tenant=`): create,
 * list, read, change the profile, disable and enable, set a new password.
 */
export type AdminUsersDeps = {
  directory: Pick<Directory, 'getUser'>;
  commands: Pick<DirectoryCommands, 'registerUser' | 'updateUser' | 'disableUser' | 'enableUser' | 'resetPassword'>;
  queries: Pick<DirectoryQueries, 'listUsers'>;
  registry: RouteRegistry;
};

const roles = { type: 'array', maxItems: 50, items: { type: 'string', pattern: pattern(SCOPE_TOKEN) } };
const password = { type: 'string', minLength: 8, maxLength: MAX_SECRET_LENGTH };
const userSourceId = { type: 'string', pattern: pattern(DIRECTORY_ID) };
const idPath = { type: 'object', properties: { id: { type: 'string', pattern: pattern(USER_ID) } }, required: ['id'] };

const schemas = {
  createUser: {
    query: tenantQuery,
    body: {
      type: 'object',
      properties: {
        username: { type: 'string', pattern: pattern(USERNAME) },
        password,
        name,
        nickname: name,
        email,
        roles,
        user_source_id: userSourceId,
      },
      required: ['username', 'name'],
      additionalProperties: false,
      // a full profile: the user's ID token then carries every claim of the spec's table
      example: {
        username: userExample.username,
        password: 'correct horse battery staple',
        name: userExample.name,
        nickname: userExample.nickname,
        email: userExample.email,
        roles: [],
      },
    },
    response: userAnswer,
  },
  listUsers: {
    query: {
      type: 'object',
      properties: {
        ...paging,
        tenant: tenantCode,
        status,
        username_prefix: { type: 'string', maxLength: 128 },
        user_source_id: userSourceId,
      },
      additionalProperties: false,
    },
    response: pageOf(userAnswer),
  },
  userPath: { query: tenantQuery, params: idPath, response: userAnswer },
  patchUser: {
    query: tenantQuery,
    params: idPath,
    body: {
      type: 'object',
      properties: { name, nickname: nullable(name), email: nullable(email), roles },
      minProperties: 1,
      additionalProperties: false,
      example: { nickname: 'Janie', email: 'jane@acme.example' },
    },
    response: userAnswer,
  },
  resetPassword: {
    query: tenantQuery,
    params: idPath,
    body: { type: 'object', properties: { password }, required: ['password'], additionalProperties: false },
    response: userAnswer,
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export function createAdminUsersRouter(deps: AdminUsersDeps): Router {
  const { directory, commands, queries } = deps;
  const router = Router();
  const route = adminRoute(router, deps.registry);

  const existingUser = async (tenant: string, userId: string): Promise<User> => {
    const user = await directory.getUser(tenant, userId);
    if (user === null) throw identityError('USER.NOT_FOUND', 'no such user');
    return user;
  };

  route(
    'post',
    '/users',
    'create a user',
    schemas.createUser,
    async (req, res) => {
      const tenant = adminTenant(res, req.query.tenant);
      const b = req.body as Body;
      const { user, created } = await commands.registerUser(
        defined({
          directory: b.user_source_id as string | undefined,
          username: b.username as string,
          password: b.password as string | undefined,
          name: b.name as string,
          nickname: b.nickname as string | undefined,
          email: b.email as string | undefined,
          roles: b.roles as string[] | undefined,
        }),
        adminCommandContext(res, tenant),
        commandIdFrom(req),
      );
      res.status(created ? 201 : 200).json(userView(user));
    },
    201,
  );

  route(
    'get',
    '/users',
    'list users (filter by status, username prefix, user source)',
    schemas.listUsers,
    async (req, res) => {
      const q = req.query as unknown as {
        limit: number;
        offset: number;
        tenant?: string;
        status?: 'active' | 'disabled';
        username_prefix?: string;
        user_source_id?: string;
      };
      const tenant = adminTenant(res, q.tenant);
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
    },
  );

  route('get', '/users/:id', 'one user', schemas.userPath, async (req, res) => {
    const tenant = adminTenant(res, req.query.tenant);
    res.json(userView(await existingUser(tenant, req.params.id as string)));
  });

  route('patch', '/users/:id', 'change a user: name, nickname, email, roles', schemas.patchUser, async (req, res) => {
    const tenant = adminTenant(res, req.query.tenant);
    const b = req.body as Body;
    const changes = defined({
      name: b.name as string | undefined,
      nickname: b.nickname as string | null | undefined,
      email: b.email as string | null | undefined,
      roles: b.roles as string[] | undefined,
    }) as UserProfileChanges;
    const { user } = await commands.updateUser(
      req.params.id as string,
      changes,
      adminCommandContext(res, tenant),
      commandIdFrom(req),
    );
    res.json(userView(user));
  });

  for (const action of ['disable', 'enable'] as const) {
    route('post', `/users/:id/${action}`, `${action} a user`, schemas.userPath, async (req, res) => {
      const tenant = adminTenant(res, req.query.tenant);
      const run = action === 'disable' ? commands.disableUser : commands.enableUser;
      const { user } = await run(req.params.id as string, adminCommandContext(res, tenant), commandIdFrom(req));
      res.json(userView(user));
    });
  }

  route('post', '/users/:id/reset-password', 'set a new password', schemas.resetPassword, async (req, res) => {
    const tenant = adminTenant(res, req.query.tenant);
    await existingUser(tenant, req.params.id as string);
    const { user } = await commands.resetPassword(
      req.params.id as string,
      (req.body as Body).password as string,
      adminCommandContext(res, tenant),
      commandIdFrom(req),
    );
    res.json(userView(user));
  });

  return router;
}
