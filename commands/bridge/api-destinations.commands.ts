import { randomBytes } from 'node:crypto';
import {
  type ApiDestination,
  type ApiDestinationCommand,
  type ApiDestinationEvent,
  type ApiDestinationState,
  apiDestinationDecider,
  apiDestinationStream,
  DEFAULT_SIGNING_OVERLAP_SECONDS,
  DESTINATION_NAME,
  type DestinationDefinition,
  type HttpMethodName,
} from '../../domain/bridge/api-destination.decider.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  CONNECTION_NAME,
  type ConnectionEvent,
  connectionDecider,
  connectionStream,
} from '../../domain/bridge/connection.decider.ts';
import type { UrlTemplate } from '../../domain/bridge/destination-url.ts';
import { fold } from '../../domain/core/decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { createSecretBox, type KeySecrets, type SecretBox } from '../core/secret.box.ts';

/**
 * API destinations: create, update, delete, read (from the stream: strongly consistent). A destination
 * that names a connection is only recorded when that connection exists (a 400 naming `connection`
 * otherwise); deleting the connection later is refused by the admin API while destinations use it.
 *
 * Signing secrets (Standard Webhooks, `whsec_` + base64 of 32 random bytes): generated here at creation
 * and at each rotation, sealed with the key-encryption secret (secret.box.ts, as connection secrets) before
 * the decider sees them, and answered in clear exactly once — by the create or rotate call that made them
 * (a replay of that call, same Idempotency-Key, answers without it: rotate again to get a new one).
 * `createApiDestinationReader` is the only way back to clear secrets, for the delivery.
 */
export type ApiDestinationView = ApiDestination & { createdAt: string; updatedAt: string; revision: number };

/** A destination as the delivery needs it: with its signing secrets in clear. Never answered or logged. */
export type DeliverableApiDestination = ApiDestinationView & {
  /** the secrets that sign now: the current one, then the previous one during a rotation's overlap; empty: unsigned */
  signingSecrets: string[];
};

export type ApiDestinationReader = {
  /** null when absent or deleted */
  get(tenant: string, name: string): Promise<DeliverableApiDestination | null>;
};

export type CreateApiDestinationInput = { name: string } & DestinationDefinition;
export type ApiDestinationChanges = {
  description?: string | null;
  urlTemplate?: UrlTemplate;
  method?: HttpMethodName;
  connection?: string | null;
  timeoutMs?: number | null;
};

const notFound = () => bridgeError('API_DESTINATION.NOT_FOUND', 'no such API destination');

/** a fresh Standard Webhooks secret */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
/** the associated data of a destination's sealed signing secret: a ciphertext moved elsewhere does not open */
const signingAad = (tenant: string, name: string) => `apiDestination/${tenant}/${name}/signingSecret`;

const view = (state: ApiDestinationState, revision: number): ApiDestinationView | null =>
  state.status === 'exists'
    ? { ...state.destination, createdAt: state.createdAt, updatedAt: state.updatedAt, revision }
    : null;

async function loadState(
  eventStore: EventStore,
  tenant: string,
  name: string,
): Promise<{ state: ApiDestinationState; revision: number } | null> {
  if (!DESTINATION_NAME.test(name)) return null;
  const events = await eventStore.readStream(apiDestinationStream(tenant, name));
  return {
    state: fold(apiDestinationDecider, events as unknown as ApiDestinationEvent[]),
    revision: events.length - 1,
  };
}

async function load(eventStore: EventStore, tenant: string, name: string): Promise<ApiDestinationView | null> {
  const loaded = await loadState(eventStore, tenant, name);
  return loaded === null ? null : view(loaded.state, loaded.revision);
}

export type ApiDestinationReaderDeps = {
  eventStore: EventStore;
  /** the key-encryption secret (infra/identity/key-secret.ts loadKeyEncryptionSecret) */
  secret: string | KeySecrets;
  /** decides whether the previous signing secret's overlap is over */
  clock: Clock;
};

/** The delivery's reader: the destination with its signing secrets opened (one stream read per call). */
export function createApiDestinationReader({
  eventStore,
  secret,
  clock,
}: ApiDestinationReaderDeps): ApiDestinationReader {
  const box = createSecretBox(secret);
  return {
    async get(tenant, name) {
      const loaded = await loadState(eventStore, tenant, name);
      if (loaded === null || loaded.state.status !== 'exists') return null;
      const { state } = loaded;
      const d = state.destination;
      const open = (sealed: string) => box.open(sealed, signingAad(d.tenant, d.name));
      const signingSecrets: string[] = [];
      if (state.signing !== undefined) {
        signingSecrets.push(open(state.signing.current));
        const previous = state.signing.previous;
        if (previous !== undefined && previous.validUntil > clock.now().toISOString())
          signingSecrets.push(open(previous.secret));
      }
      return { ...view(state, loaded.revision)!, signingSecrets };
    },
  };
}

export type ApiDestinationCommandsDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** the key-encryption secret that seals signing secrets (infra/identity/key-secret.ts loadKeyEncryptionSecret) */
  secret: string | KeySecrets;
};

export type SigningSecretRotation = {
  destination: ApiDestinationView;
  /** the new secret in clear; absent when the call is a replay (the secret was answered the first time) */
  signingSecret?: string;
  /** until when the previous secret keeps signing; null: it stopped at once (or there was none) */
  previousValidUntil: string | null;
  replayed: boolean;
};

export function createApiDestinationCommands({ eventStore, clock, secret }: ApiDestinationCommandsDeps) {
  const handle = commandHandler(eventStore, apiDestinationDecider);
  const now = () => clock.now().toISOString();
  let sealer: SecretBox | undefined;
  const box = () => (sealer ??= createSecretBox(secret));

  const requireConnection = async (tenant: string, name: string | null | undefined) => {
    if (name === undefined || name === null || !CONNECTION_NAME.test(name)) return; // absent, or the decider names the bad value
    const events = await eventStore.readStream(connectionStream(tenant, name));
    if (fold(connectionDecider, events as unknown as ConnectionEvent[]).status !== 'exists') {
      throw bridgeError('API_DESTINATION.INVALID', `invalid API destination: connection ${name} does not exist`, [
        { field: 'connection', message: `no connection named ${name}` },
      ]);
    }
  };

  const run = async (name: string, command: ApiDestinationCommand, ctx: CommandContext, commandId: string) => {
    if (!DESTINATION_NAME.test(name)) throw notFound();
    const r = await handle({
      stream: apiDestinationStream(ctx.tenant, name),
      command,
      commandId,
      now: command.now,
      context: ctx,
    });
    return { destination: view(r.state, r.revision), replayed: r.replayed };
  };

  return {
    /** `signingSecret`: the new destination's signing secret in clear, answered once (absent on a replay) */
    async create(
      input: CreateApiDestinationInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ destination: ApiDestinationView; created: boolean; signingSecret?: string }> {
      if (!DESTINATION_NAME.test(input.name)) {
        throw bridgeError(
          'API_DESTINATION.INVALID',
          'invalid API destination: name must be 1-64 letters, digits, _ or -',
          [{ field: 'name', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' }],
        );
      }
      await requireConnection(ctx.tenant, input.connection);
      const signingSecret = newSigningSecret();
      const sealed = box().seal(signingSecret, signingAad(ctx.tenant, input.name));
      const { destination, replayed } = await run(
        input.name,
        { type: 'CreateApiDestination', ...input, tenant: ctx.tenant, signingSecret: sealed, now: now() },
        ctx,
        commandId,
      );
      if (destination === null) throw notFound();
      return { destination, created: !replayed, ...(!replayed && { signingSecret }) };
    },

    /**
     * A new signing secret (answered once); the current one keeps signing beside it for `overlapSeconds`
     * (default 24 h; 0: it stops at once).
     */
    async rotateSigningSecret(
      name: string,
      overlapSeconds: number | undefined,
      ctx: CommandContext,
      commandId: string,
    ): Promise<SigningSecretRotation> {
      if (!DESTINATION_NAME.test(name)) throw notFound();
      const { tenant } = ctx;
      const signingSecret = newSigningSecret();
      const at = now();
      const r = await handle({
        stream: apiDestinationStream(tenant, name),
        command: {
          type: 'RotateApiDestinationSigningSecret',
          secret: box().seal(signingSecret, signingAad(tenant, name)),
          overlapSeconds: overlapSeconds ?? DEFAULT_SIGNING_OVERLAP_SECONDS,
          now: at,
        },
        commandId,
        now: at,
        context: ctx,
      });
      const destination = view(r.state, r.revision);
      if (destination === null) throw notFound();
      const rotated = r.events.find((e) => e.type === 'ApiDestinationSigningSecretRotated');
      const previousValidUntil =
        (rotated?.data as { previousValidUntil?: string | null } | undefined)?.previousValidUntil ?? null;
      return { destination, ...(!r.replayed && { signingSecret }), previousValidUntil, replayed: r.replayed };
    },

    async update(
      name: string,
      changes: ApiDestinationChanges,
      ctx: CommandContext,
      commandId: string,
    ): Promise<ApiDestinationView> {
      await requireConnection(ctx.tenant, changes.connection);
      const { destination } = await run(name, { type: 'UpdateApiDestination', changes, now: now() }, ctx, commandId);
      if (destination === null) throw notFound();
      return destination;
    },

    async delete(name: string, ctx: CommandContext, commandId: string): Promise<void> {
      await run(name, { type: 'DeleteApiDestination', now: now() }, ctx, commandId);
    },

    get: (tenant: string, name: string): Promise<ApiDestinationView | null> => load(eventStore, tenant, name),
  };
}

export type ApiDestinationCommands = ReturnType<typeof createApiDestinationCommands>;
