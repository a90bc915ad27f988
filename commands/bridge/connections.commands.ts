import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  AUTH_KINDS,
  CONNECTION_CATEGORY,
  CONNECTION_NAME,
  type ConnectionAuth,
  type ConnectionAuthInput,
  type ConnectionEvent,
  type ConnectionState,
  connectionDecider,
  connectionStream,
  MAX_SECRET_LENGTH,
  maskConnectionAuth,
  SECRET_FIELDS,
  type SECRET_MASK,
} from '../../domain/bridge/connection.decider.ts';
import { hasControlCharacters } from '../../domain/core/control-characters.ts';
import { assertNever, fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { createSecretBox, type KeySecrets, type SecretBox } from '../core/secret.box.ts';

/**
 * Connections (the API destinations' outbound authentication): create, update, delete, read. Secrets
 * arrive in clear from the admin API and are sealed here (secret.box.ts) before the decider sees them:
 * the log, the read models and every answer only ever hold them sealed or masked. `createConnectionReader`
 * is the only way back to clear secrets, for the API destination target at delivery time.
 */
export type ConnectionView = {
  tenant: string;
  name: string;
  description?: string;
  /** secrets masked (`******`) */
  auth: ConnectionAuth<typeof SECRET_MASK>;
  createdAt: string;
  updatedAt: string;
  revision: number;
};

/** A connection with its secrets in clear: for the delivery only, never answered, logged or recorded. */
export type ResolvedConnection = { tenant: string; name: string; revision: number; auth: ConnectionAuth<string> };

export type ConnectionReader = {
  /** null when absent or deleted */
  resolve(tenant: string, name: string): Promise<ResolvedConnection | null>;
};

export type CreateConnectionInput = { name: string; description?: string; auth: ConnectionAuthInput };
export type ConnectionChanges = { description?: string | null; auth?: ConnectionAuthInput };

const notFound = () => bridgeError('CONNECTION.NOT_FOUND', 'no such connection');
const secretAad = (tenant: string, name: string, field: string) => `connection/${tenant}/${name}/${field}`;

const view = (state: ConnectionState, revision: number): ConnectionView | null =>
  state.status === 'exists'
    ? {
        tenant: state.connection.tenant,
        name: state.connection.name,
        ...(state.connection.description !== undefined && { description: state.connection.description }),
        auth: maskConnectionAuth(state.connection.auth),
        createdAt: state.createdAt,
        updatedAt: state.updatedAt,
        revision,
      }
    : null;

async function load(
  eventStore: EventStore,
  tenant: string,
  name: string,
): Promise<{ state: ConnectionState; revision: number } | null> {
  if (!CONNECTION_NAME.test(name)) return null;
  const events = await eventStore.readStream(connectionStream(tenant, name));
  return { state: fold(connectionDecider, events as unknown as ConnectionEvent[]), revision: events.length - 1 };
}

/**
 * Seals the clear secrets of an auth input (the fields of its kind that are present). A secret that is
 * not a usable header value (empty, too long, control characters) is a 400 here: after sealing nobody
 * could tell.
 */
function sealAuth(box: SecretBox, tenant: string, name: string, input: ConnectionAuthInput): ConnectionAuthInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const kind = input.kind as ConnectionAuth['kind'];
  if (!AUTH_KINDS.includes(kind)) return input;
  const out: ConnectionAuthInput = { ...input };
  for (const field of SECRET_FIELDS[kind]) {
    const clear = input[field];
    if (clear === undefined) continue;
    if (
      typeof clear !== 'string' ||
      clear.length === 0 ||
      clear.length > MAX_SECRET_LENGTH ||
      hasControlCharacters(clear)
    ) {
      throw bridgeError(
        'CONNECTION.INVALID',
        `invalid connection: auth.${field} must be 1-${MAX_SECRET_LENGTH} characters without control characters`,
        [
          {
            field: `auth.${field}`,
            message: `must be a string of 1-${MAX_SECRET_LENGTH} characters without control characters`,
          },
        ],
      );
    }
    out[field] = box.seal(clear, secretAad(tenant, name, field));
  }
  return out;
}

function openAuth(box: SecretBox, tenant: string, name: string, auth: ConnectionAuth): ConnectionAuth<string> {
  const open = (field: string, sealed: string) => box.open(sealed, secretAad(tenant, name, field));
  switch (auth.kind) {
    case 'BASIC':
      return { ...auth, password: open('password', auth.password) };
    case 'BEARER':
      return auth.source === 'fixed' ? { ...auth, token: open('token', auth.token) } : auth;
    case 'OAUTH_CLIENT_CREDENTIALS':
      return { ...auth, clientSecret: open('clientSecret', auth.clientSecret) };
    case 'API_KEY':
      return { ...auth, value: open('value', auth.value) };
    default:
      return assertNever(auth);
  }
}

export type ConnectionCommandsDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** the key-encryption secret (infra/identity/key-secret.ts loadKeyEncryptionSecret) */
  secret: string | KeySecrets;
};

export function createConnectionCommands({ eventStore, clock, secret }: ConnectionCommandsDeps) {
  const box = createSecretBox(secret);
  const handle = commandHandler(eventStore, connectionDecider);
  const now = () => clock.now().toISOString();
  const checkedName = (name: string) => {
    if (!CONNECTION_NAME.test(name)) throw notFound();
    return name;
  };

  return {
    async create(
      input: CreateConnectionInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ connection: ConnectionView; created: boolean }> {
      if (!CONNECTION_NAME.test(input.name)) {
        throw bridgeError('CONNECTION.INVALID', 'invalid connection: name must be 1-64 letters, digits, _ or -', [
          { field: 'name', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' },
        ]);
      }
      const at = now();
      const r = await handle({
        stream: connectionStream(ctx.tenant, input.name),
        command: {
          type: 'CreateConnection',
          tenant: ctx.tenant,
          name: input.name,
          ...(input.description !== undefined && { description: input.description }),
          auth: sealAuth(box, ctx.tenant, input.name, input.auth),
          now: at,
        },
        commandId,
        now: at,
        context: ctx,
      });
      const connection = view(r.state, r.revision);
      if (connection === null) throw notFound(); // a replayed create whose connection was deleted since
      return { connection, created: !r.replayed };
    },

    async update(
      name: string,
      changes: ConnectionChanges,
      ctx: CommandContext,
      commandId: string,
    ): Promise<ConnectionView> {
      const { tenant } = ctx;
      const at = now();
      const r = await handle({
        stream: connectionStream(tenant, checkedName(name)),
        command: {
          type: 'UpdateConnection',
          changes: {
            ...(changes.description !== undefined && { description: changes.description }),
            ...(changes.auth !== undefined && { auth: sealAuth(box, tenant, name, changes.auth) }),
          },
          now: at,
        },
        commandId,
        now: at,
        context: ctx,
      });
      const connection = view(r.state, r.revision);
      if (connection === null) throw notFound();
      return connection;
    },

    async delete(name: string, ctx: CommandContext, commandId: string): Promise<void> {
      const at = now();
      await handle({
        stream: connectionStream(ctx.tenant, checkedName(name)),
        command: { type: 'DeleteConnection', now: at },
        commandId,
        now: at,
        context: ctx,
      });
    },

    /**
     * `platform keys rotate-config`: every connection with a secret the current key-encryption secret alone
     * cannot open (sealed under a previous one) gets its secrets sealed again, as an UpdateConnection with
     * the same clear auth. Answers `<tenant>/<name>` of those resealed, and those no secret opens.
     */
    async reseal(
      ctx: CommandContext,
    ): Promise<{ resealed: string[]; current: number; failed: Array<{ entry: string; error: string }> }> {
      const current = createSecretBox(typeof secret === 'string' ? secret : secret.current);
      const result = { resealed: [] as string[], current: 0, failed: [] as Array<{ entry: string; error: string }> };
      const streams = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = await eventStore.readAll({
          ...(after !== undefined && { after }),
          filter: { categories: [CONNECTION_CATEGORY] },
          limit: 1000,
        });
        for (const e of page) streams.add(e.stream);
        if (page.length < 1000) break;
        after = page[page.length - 1]!.position;
      }
      for (const stream of streams) {
        const events = await eventStore.readStream(stream);
        const state = fold(connectionDecider, events as unknown as ConnectionEvent[]);
        if (state.status !== 'exists') continue;
        const c = state.connection;
        const entry = `${c.tenant}/${c.name}`;
        try {
          openAuth(current, c.tenant, c.name, c.auth);
          result.current++;
          continue;
        } catch {
          // sealed under a previous secret (or none of ours): open with all of them below
        }
        let clear: ConnectionAuth<string>;
        try {
          clear = openAuth(box, c.tenant, c.name, c.auth);
        } catch (err) {
          result.failed.push({ entry, error: err instanceof Error ? err.message : String(err) });
          continue;
        }
        const at = now();
        await handle({
          stream,
          command: {
            type: 'UpdateConnection',
            changes: { auth: sealAuth(box, c.tenant, c.name, clear as unknown as ConnectionAuthInput) },
            now: at,
          },
          commandId: `rotate-config/${stream}@${events.length - 1}`,
          now: at,
          context: forTenant(ctx, c.tenant),
        });
        result.resealed.push(entry);
      }
      return result;
    },

    /** the connection as its stream says now (secrets masked), null when absent or deleted */
    async get(tenant: string, name: string): Promise<ConnectionView | null> {
      const loaded = await load(eventStore, tenant, name);
      return loaded === null ? null : view(loaded.state, loaded.revision);
    },
  };
}

export type ConnectionCommands = ReturnType<typeof createConnectionCommands>;

/** The delivery's reader: the connection with its secrets opened (one stream read per call). */
export function createConnectionReader({
  eventStore,
  secret,
}: {
  eventStore: EventStore;
  secret: string | KeySecrets;
}): ConnectionReader {
  const box = createSecretBox(secret);
  return {
    async resolve(tenant, name) {
      const loaded = await load(eventStore, tenant, name);
      if (loaded === null || loaded.state.status !== 'exists') return null;
      const c = loaded.state.connection;
      return {
        tenant: c.tenant,
        name: c.name,
        revision: loaded.revision,
        auth: openAuth(box, c.tenant, c.name, c.auth),
      };
    },
  };
}
