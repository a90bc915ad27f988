import { randomBytes } from 'node:crypto';
import { coreError } from '../../domain/core/core.errors.ts';
import { fold } from '../../domain/core/decider.ts';
import {
  type ClientChanges,
  type ClientRegistration,
  clientDecider,
  clientStream,
  REGISTRATION_DEFAULTS,
  usesSecret,
} from '../../domain/identity/client.decider.ts';
import { type IdentityErrorCode, identityError } from '../../domain/identity/identity.errors.ts';
import {
  type Client,
  DEFAULT_USER_SOURCE,
  type PublicJwk,
  type Tenant,
  type User,
} from '../../domain/identity/model.ts';
import { reservedClientTenant } from '../../domain/identity/platform-clients.constants.ts';
import {
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  TENANT_CODE,
  tenantDecider,
  tenantStream,
} from '../../domain/identity/tenant.decider.ts';
import {
  DIRECTORY_ID,
  type UserCommand,
  type UserProfileChanges,
  userDecider,
  userStream,
} from '../../domain/identity/user.decider.ts';
import {
  type UsernameEvent,
  usernameDecider,
  usernameKey,
  usernameStream,
} from '../../domain/identity/username.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';
import { createDirectory } from './directory.lookups.ts';
import {
  DEFAULT_SCRYPT_PARAMS,
  generateClientSecret,
  hashSecret,
  MAX_SECRET_LENGTH,
  type ScryptParams,
} from './password.hash.ts';

export type DirectoryCommandsDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** a new tenant's token lifetime when the request names none (config.identity.accessTokenTtlSeconds) */
  defaultTokenLifetimeSeconds?: number;
  /** scrypt cost for new hashes (default DEFAULT_SCRYPT_PARAMS) */
  scrypt?: ScryptParams;
  /**
   * what a user or client command appended (the token service notes the disablings: their tokens are
   * refused by this process's next request, before the log reader hands the events over)
   */
  onEvents?(events: Array<{ type: string; data: unknown }>): void;
};

export const MIN_PASSWORD_LENGTH = 8;

/** The tenant created is the context's (the caller builds the context for the new tenant's code). */
export type CreateTenantInput = { name: string; tokenLifetimeSeconds?: number; supportMailGroup?: string };
export type UpdateTenantInput = { name?: string; tokenLifetimeSeconds?: number; supportMailGroup?: string | null };

/** The user is registered in the context's tenant. */
export type RegisterUserInput = {
  /** user directory (user_source_id); DEFAULT_USER_SOURCE when absent */
  directory?: string;
  username: string;
  /** absent: the user gets a random password nobody knows (machine users; set one later by a reset) */
  password?: string;
  name: string;
  nickname?: string;
  email?: string;
  roles?: string[];
  /** normally derived from the command id (so a retry finds the same user); the seed may fix it */
  userId?: string;
};

/** The client is registered in the context's tenant. */
export type RegisterClientInput = {
  /** generated when absent; the seed gives SEED_CLIENT_ID */
  clientId?: string;
  appName?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes: string[];
  /** client_secret_basic when absent */
  authMethod?: string;
  userSourceId?: string;
  /** a user id, or a username in the client's user directory (stored as that user's id) */
  defaultUser?: string;
  allowedAccessTenants?: string[];
  scopes?: string[];
  jwks?: PublicJwk[];
  allowPlainPkce?: boolean;
  /** only for the seed (SEED_CLIENT_SECRET): use this secret instead of generating one */
  clientSecret?: string;
};

/** `changed` is false when the command was a retry (same command id) or changed nothing. */
export type Changed<T> = T & { changed: boolean };

/**
 * The directory's commands: tenants, users (with their username reservations) and clients.
 *
 * Every method takes the caller's context, built for the tenant it acts on (`actor` says who acted; a
 * client's commands are its tenant's), and a command id (the Idempotency-Key or a derived one).
 * One command may write two streams (username, then user): event ids are derived from the command id
 * and the stream, so both appends stay idempotent.
 * Generated ids (user id, client id) are derived from (tenant, command id), so a retry of the same
 * command lands on the same aggregate and appends nothing twice.
 */
export function createDirectoryCommands(deps: DirectoryCommandsDeps) {
  const { eventStore, clock } = deps;
  const defaultTtl = deps.defaultTokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  const scryptParams = deps.scrypt ?? DEFAULT_SCRYPT_PARAMS;
  const directory = createDirectory({ eventStore, clock });
  const tenants = commandHandler(eventStore, tenantDecider);
  const users = commandHandler(eventStore, userDecider);
  const usernames = commandHandler(eventStore, usernameDecider);
  const clients = commandHandler(eventStore, clientDecider);

  const now = () => clock.now().toISOString();
  const hash = (secret: string) => hashSecret(secret, scryptParams);

  const requireTenant = async (code: string): Promise<Tenant> => {
    const tenant = await directory.getTenant(code);
    if (tenant === null) throw identityError('TENANT.NOT_FOUND', `no tenant ${code}`, { tenant: code });
    return tenant;
  };

  const requireUser = async (tenant: string, userId: string): Promise<User> => {
    const user = await directory.getUser(tenant, userId);
    if (user === null) throw identityError('USER.NOT_FOUND', 'no such user');
    return user;
  };

  const requireClient = async (clientId: string): Promise<Client> => {
    const client = await directory.getClient(clientId);
    if (client === null) throw identityError('CLIENT.NOT_FOUND', 'no such client');
    return client;
  };

  const checkPassword = (password: string, code: IdentityErrorCode, field: string) => {
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_SECRET_LENGTH) {
      throw identityError(code, `${field} must be ${MIN_PASSWORD_LENGTH}-${MAX_SECRET_LENGTH} characters`, [
        { field, message: `must be ${MIN_PASSWORD_LENGTH}-${MAX_SECRET_LENGTH} characters` },
      ]);
    }
  };

  const clientInvalid = (field: string, message: string) =>
    identityError('CLIENT.INVALID', `invalid client registration: ${field} ${message}`, [{ field, message }]);

  /** allowed_access_tenants must name existing tenants (a typo would silently grant nothing) */
  const checkTenantsExist = async (codes: string[]) => {
    const missing: string[] = [];
    for (const code of new Set(codes)) {
      if (TENANT_CODE.test(code) && (await directory.getTenant(code)) === null) missing.push(code);
    }
    if (missing.length > 0) throw clientInvalid('allowed_access_tenants', `unknown tenant(s): ${missing.join(', ')}`);
  };

  /** default_user: a user id of the tenant, or a username in the client's directory (resolved to its id) */
  const resolveDefaultUser = async (tenant: string, userSourceId: string, given: string): Promise<string> => {
    const byId = await directory.getUser(tenant, given);
    if (byId !== null) return byId.userId;
    const byName = DIRECTORY_ID.test(userSourceId)
      ? await directory.findUserByUsername(tenant, userSourceId, given)
      : null;
    if (byName !== null) return byName.userId;
    throw clientInvalid('default_user', `no user with id or username ${JSON.stringify(given)} in tenant ${tenant}`);
  };

  const stateClient = (state: Awaited<ReturnType<typeof clients>>['state']): Client => {
    if (state.status !== 'exists') throw new Error('client command left no client');
    return state.client;
  };
  const stateUser = (state: Awaited<ReturnType<typeof users>>['state']): User => {
    if (state.status !== 'exists') throw new Error('user command left no user');
    return state.user;
  };

  async function registerUser(
    input: RegisterUserInput,
    ctx: CommandContext,
    commandId: string,
  ): Promise<{ user: User; created: boolean }> {
    const { tenant } = ctx;
    const dir = input.directory ?? DEFAULT_USER_SOURCE;
    if (!TENANT_CODE.test(tenant)) throw identityError('TENANT.NOT_FOUND', `no tenant ${tenant}`, { tenant });
    await requireTenant(tenant);
    if (input.password !== undefined) checkPassword(input.password, 'USER.INVALID', 'password');
    const userId = input.userId ?? derivedId(`user/${tenant}/${commandId}`);
    const at = now();
    const register: Extract<UserCommand, { type: 'RegisterUser' }> = {
      type: 'RegisterUser',
      tenant,
      userId,
      directory: dir,
      username: input.username,
      name: input.name,
      ...(input.nickname !== undefined && { nickname: input.nickname }),
      ...(input.email !== undefined && { email: input.email }),
      passwordHash: 'pending',
      roles: input.roles ?? [],
      now: at,
    };
    // Validate everything before the reservation: a user rejected after it would strand the username.
    userDecider.decide(register, userDecider.initialState());

    // A retry of a registration that already completed: the same user id exists.
    const existing = await directory.getUser(tenant, userId);
    if (existing !== null) {
      if (existing.directory !== dir || usernameKey(existing.username) !== usernameKey(input.username)) {
        throw coreError('REQUEST.IDEMPOTENCY_KEY_REUSED', 'this command id already registered a different user', {
          userId,
        });
      }
      return { user: existing, created: false };
    }

    // 1. the username, atomically (no_stream on a fresh reservation stream). A reservation held by a user
    // that was never written (or that belongs to another registration) is reclaimable after the grace period.
    const reservationStream = usernameStream(tenant, dir, input.username);
    const reservation = fold(
      usernameDecider,
      (await eventStore.readStream(reservationStream)) as unknown as UsernameEvent[],
    );
    let reclaimFrom: string | undefined;
    if (reservation.status === 'reserved' && reservation.userId !== userId) {
      const holder = await directory.getUser(tenant, reservation.userId);
      if (holder === null || holder.directory !== dir || usernameKey(holder.username) !== usernameKey(input.username)) {
        reclaimFrom = reservation.userId;
      }
    }
    const reserved = await usernames({
      stream: reservationStream,
      command: {
        type: 'ReserveUsername',
        tenant,
        directory: dir,
        username: input.username,
        userId,
        now: at,
        ...(reclaimFrom !== undefined && { reclaimFrom }),
      },
      commandId: commandId,
      now: at,
      context: ctx,
    });
    if (reserved.state.status !== 'reserved' || reserved.state.userId !== userId) {
      throw identityError('USER.USERNAME_TAKEN', `username ${input.username} is already taken`, [
        { field: 'username', message: 'is already taken' },
      ]);
    }

    // 2. the user (no_stream); the hash is made only now that the name is ours
    const passwordHash = await hash(input.password ?? randomBytes(32).toString('base64url'));
    const stream = userStream(tenant, userId);
    const result = await users({
      stream,
      command: { ...register, passwordHash },
      commandId: commandId,
      now: at,
      context: ctx,
    });
    if (result.replayed) return { user: stateUser(result.state), created: false };
    // The store answers an append whose event ids are already stored (a concurrent twin of this very
    // command, e.g. two first starts seeding at once) as a success: only the stored hash tells whose
    // password is in.
    const stored = await requireUser(tenant, userId);
    return { user: stored, created: stored.passwordHash === passwordHash };
  }

  async function userCommand(
    userId: string,
    command: Exclude<UserCommand, { type: 'RegisterUser' }>,
    ctx: CommandContext,
    commandId: string,
  ): Promise<Changed<{ user: User }>> {
    await requireUser(ctx.tenant, userId);
    const stream = userStream(ctx.tenant, userId);
    const result = await users({ stream, command, commandId: commandId, now: command.now, context: ctx });
    deps.onEvents?.(result.events);
    return { user: stateUser(result.state), changed: !result.replayed && result.events.length > 0 };
  }

  async function registerClient(
    input: RegisterClientInput,
    ctx: CommandContext,
    commandId: string,
  ): Promise<{ client: Client; clientSecret?: string; created: boolean }> {
    const { tenant } = ctx;
    if (!TENANT_CODE.test(tenant)) throw clientInvalid('tenant_code', 'must be a tenant code');
    await requireTenant(tenant);
    const authMethod = input.authMethod ?? REGISTRATION_DEFAULTS.authMethod;
    const userSourceId = input.userSourceId ?? REGISTRATION_DEFAULTS.userSourceId;
    const clientId = input.clientId ?? derivedId(`client/${tenant}/${commandId}`);
    const owner = reservedClientTenant(clientId);
    if (owner !== undefined && owner !== tenant)
      throw clientInvalid(
        'client_id',
        `is the platform's own client id of tenant ${owner}: it cannot be registered here`,
      );
    const registration: ClientRegistration = {
      clientId,
      tenant,
      ...(input.appName !== undefined && { appName: input.appName }),
      redirectUris: input.redirectUris ?? [],
      postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
      grantTypes: input.grantTypes,
      authMethod,
      userSourceId,
      ...(input.defaultUser !== undefined && { defaultUser: input.defaultUser }),
      allowedAccessTenants: input.allowedAccessTenants ?? [],
      scopes: input.scopes ?? [],
      ...(input.jwks !== undefined && { jwks: input.jwks }),
      allowPlainPkce: input.allowPlainPkce ?? false,
    };
    const secretWanted = usesSecret(authMethod) || input.clientSecret !== undefined;
    const at = now();
    // the registration rules first (cheap), before any lookup or hashing
    clientDecider.decide(
      { type: 'RegisterClient', registration, ...(secretWanted && { secretHash: 'pending' }), now: at },
      clientDecider.initialState(),
    );
    if (
      input.clientSecret !== undefined &&
      (input.clientSecret.length < MIN_PASSWORD_LENGTH || input.clientSecret.length > MAX_SECRET_LENGTH)
    ) {
      throw clientInvalid('client_secret', `must be ${MIN_PASSWORD_LENGTH}-${MAX_SECRET_LENGTH} characters`);
    }
    await checkTenantsExist(registration.allowedAccessTenants);
    if (registration.defaultUser !== undefined) {
      registration.defaultUser = await resolveDefaultUser(tenant, userSourceId, registration.defaultUser);
    }
    const secret = secretWanted ? (input.clientSecret ?? generateClientSecret()) : undefined;
    const secretHash = secret === undefined ? undefined : await hash(secret);
    const stream = clientStream(clientId);
    const result = await clients({
      stream,
      command: { type: 'RegisterClient', registration, ...(secretHash !== undefined && { secretHash }), now: at },
      commandId: commandId,
      now: at,
      context: ctx,
    });
    if (result.replayed) {
      // A retry answers the client without a secret: only its hash was kept (rotate it if the first answer was lost).
      return { client: stateClient(result.state), created: false };
    }
    // as in registerUser: a concurrent twin's identical append also "succeeds"; the stored hash says whose it is
    const stored = await requireClient(clientId);
    const ours = stored.secretHash === secretHash;
    return { client: stored, created: ours, ...(ours && secret !== undefined && { clientSecret: secret }) };
  }

  async function clientCommand(
    client: Client,
    command: Parameters<typeof clients>[0]['command'],
    ctx: CommandContext,
    commandId: string,
  ) {
    const stream = clientStream(client.clientId);
    const at = now();
    const result = await clients({
      stream,
      command,
      commandId: commandId,
      now: at,
      context: forTenant(ctx, client.tenant),
    });
    deps.onEvents?.(result.events);
    return { client: stateClient(result.state), result };
  }

  return {
    async createTenant(
      input: CreateTenantInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ tenant: Tenant; created: boolean }> {
      const code = ctx.tenant;
      if (!TENANT_CODE.test(code)) {
        throw identityError('TENANT.INVALID', 'invalid tenant: code must be a tenant code', [
          {
            field: 'code',
            message: 'must be 1-63 lower-case letters, digits, _ or -, starting with a letter or digit',
          },
        ]);
      }
      const stream = tenantStream(code);
      const at = now();
      const result = await tenants({
        stream,
        command: {
          type: 'CreateTenant',
          code,
          name: input.name,
          tokenLifetimeSeconds: input.tokenLifetimeSeconds ?? defaultTtl,
          ...(input.supportMailGroup !== undefined && { supportMailGroup: input.supportMailGroup }),
          now: at,
        },
        commandId: commandId,
        now: at,
        context: ctx,
      });
      if (result.state.status !== 'exists') throw new Error('tenant command left no tenant');
      return { tenant: result.state.tenant, created: !result.replayed };
    },

    async updateTenant(
      changes: UpdateTenantInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<Changed<{ tenant: Tenant }>> {
      await requireTenant(ctx.tenant);
      const stream = tenantStream(ctx.tenant);
      const at = now();
      const result = await tenants({
        stream,
        command: { type: 'UpdateTenant', ...changes, now: at },
        commandId: commandId,
        now: at,
        context: ctx,
      });
      if (result.state.status !== 'exists') throw new Error('tenant command left no tenant');
      return { tenant: result.state.tenant, changed: !result.replayed && result.events.length > 0 };
    },

    registerUser,

    updateUser: (userId: string, changes: UserProfileChanges, ctx: CommandContext, commandId: string) =>
      userCommand(userId, { type: 'UpdateUser', changes, now: now() }, ctx, commandId),

    disableUser: (userId: string, ctx: CommandContext, commandId: string) =>
      userCommand(userId, { type: 'DisableUser', now: now() }, ctx, commandId),

    enableUser: (userId: string, ctx: CommandContext, commandId: string) =>
      userCommand(userId, { type: 'EnableUser', now: now() }, ctx, commandId),

    async resetPassword(userId: string, password: string, ctx: CommandContext, commandId: string) {
      checkPassword(password, 'USER.INVALID', 'password');
      await requireUser(ctx.tenant, userId);
      return userCommand(
        userId,
        { type: 'ResetPassword', passwordHash: await hash(password), now: now() },
        ctx,
        commandId,
      );
    },

    registerClient,

    async updateClient(
      clientId: string,
      changes: ClientChanges,
      ctx: CommandContext,
      commandId: string,
    ): Promise<Changed<{ client: Client }>> {
      const client = await requireClient(clientId);
      const resolved: ClientChanges = { ...changes };
      if (changes.allowedAccessTenants !== undefined) await checkTenantsExist(changes.allowedAccessTenants);
      if (typeof changes.defaultUser === 'string') {
        resolved.defaultUser = await resolveDefaultUser(
          client.tenant,
          changes.userSourceId ?? client.userSourceId,
          changes.defaultUser,
        );
      }
      const { client: after, result } = await clientCommand(
        client,
        { type: 'UpdateClient', changes: resolved, now: now() },
        ctx,
        commandId,
      );
      return { client: after, changed: !result.replayed && result.events.length > 0 };
    },

    /** A new secret, answered once (absent on a retry of the same command: only its hash was kept). */
    async rotateClientSecret(
      clientId: string,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ client: Client; clientSecret?: string; rotated: boolean }> {
      const client = await requireClient(clientId);
      if (!usesSecret(client.authMethod)) {
        // let the decider refuse it, without spending a scrypt first
        await clientCommand(client, { type: 'RotateClientSecret', secretHash: '', now: now() }, ctx, commandId);
      }
      const secret = generateClientSecret();
      const secretHash = await hash(secret);
      const { client: after, result } = await clientCommand(
        client,
        { type: 'RotateClientSecret', secretHash, now: now() },
        ctx,
        commandId,
      );
      if (result.replayed) return { client: after, rotated: false };
      const stored = await requireClient(clientId);
      const ours = stored.secretHash === secretHash;
      return { client: stored, rotated: ours, ...(ours && { clientSecret: secret }) };
    },

    async disableClient(
      clientId: string,
      ctx: CommandContext,
      commandId: string,
    ): Promise<Changed<{ client: Client }>> {
      const client = await requireClient(clientId);
      const { client: after, result } = await clientCommand(
        client,
        { type: 'DisableClient', now: now() },
        ctx,
        commandId,
      );
      return { client: after, changed: !result.replayed && result.events.length > 0 };
    },

    async enableClient(clientId: string, ctx: CommandContext, commandId: string): Promise<Changed<{ client: Client }>> {
      const client = await requireClient(clientId);
      const { client: after, result } = await clientCommand(
        client,
        { type: 'EnableClient', now: now() },
        ctx,
        commandId,
      );
      return { client: after, changed: !result.replayed && result.events.length > 0 };
    },
  };
}

export type DirectoryCommands = ReturnType<typeof createDirectoryCommands>;
