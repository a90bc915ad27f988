import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import { businessDataJsonSchema } from '../../domain/bridge/openapi-schema.ts';
import {
  findVersion,
  latestVersion,
  parseDataSchemaId,
  type Schema,
  type SchemaCommand,
  type SchemaEvent,
  type SchemaState,
  schemaDecider,
  schemaStream,
} from '../../domain/bridge/schema.decider.ts';
import { type Decider, fold } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { setNewest } from '../../infra/core/bounded.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import type { SchemaValidator, SchemaViolation } from './bridge.contracts.ts';
import { compileFailure, compileJsonSchema, compileProblems, toViolations } from './schema.compiler.ts';

export type SchemaCommandsDeps = { eventStore: EventStore; clock: Clock };

/** The owner is the context's tenant: the caller's, or PLATFORM_TENANT for a platform schema. */
export type CreateSchemaInput = {
  /** chosen by the caller, or derived from (tenant, command id) */
  schemaId?: string;
  /** default: the document's info.title */
  name?: string;
  description?: string;
  bus?: string;
  /** the first version; default: the document's info.version */
  version?: string;
  /** the OpenAPI 3.0 document */
  content: unknown;
};

export type AddSchemaVersionInput = { version?: string; content: unknown };

/**
 * A 15-digit id (100000000000000 … 999999999999999, below 2^53) derived from the tenant and the command
 * id: a retried create (same Idempotency-Key) lands on the same schema; different commands collide with a
 * chance of about n²/1.8e15 (a collision is a 409, never an overwrite).
 */
export function derivedSchemaId(tenant: string, commandId: string): string {
  const digest = createHash('sha256').update(`schema/${tenant}/${commandId}`).digest();
  return String(100_000_000_000_000n + (digest.readBigUInt64BE(0) % 900_000_000_000_000n));
}

const infoField = (content: unknown, field: 'title' | 'version'): string | undefined => {
  const info = typeof content === 'object' && content !== null ? (content as { info?: unknown }).info : undefined;
  const v = typeof info === 'object' && info !== null ? (info as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** Reads schema aggregates from their streams (consistent right after a command, unlike the listing). */
export function createSchemaReader({ eventStore }: { eventStore: EventStore }) {
  async function load(owner: string, schemaId: string): Promise<Schema | null> {
    const events = (await eventStore.readStream(schemaStream(owner, schemaId))) as unknown as SchemaEvent[];
    const state = fold(schemaDecider, events);
    return state.status === 'exists' ? state.schema : null;
  }
  return {
    load,
    /** the tenant's own schema, else the platform's; null when neither exists */
    async visible(tenant: string, schemaId: string): Promise<Schema | null> {
      for (const owner of ownersFor(tenant)) {
        const schema = await load(owner, schemaId);
        if (schema !== null) return schema;
      }
      return null;
    },
  };
}

export type SchemaReader = ReturnType<typeof createSchemaReader>;

const ownersFor = (tenant: string): string[] =>
  tenant === PLATFORM_TENANT ? [PLATFORM_TENANT] : [tenant, PLATFORM_TENANT];

/**
 * The schema decider plus the one check that needs ajv, which domain/ does not use: a new version's
 * business-data schema must compile (schema.compiler.ts). It runs on what decide accepted, so every other
 * answer (409, 413, the document's problems) comes first, as if the check were part of the decider.
 */
const compilingSchemaDecider: Decider<SchemaCommand, SchemaEvent, SchemaState> = {
  ...schemaDecider,
  decide(command, state) {
    const events = schemaDecider.decide(command, state);
    for (const e of events) {
      if (e.type !== 'SchemaVersionAdded') continue;
      const problems = compileProblems(e.data.content, 'content');
      if (problems.length > 0) throw compileFailure(problems);
    }
    return events;
  },
};

/**
 * The schema registry's commands. Every method takes the context of the schema's owner (the caller's
 * tenant, or the platform's for the seed) and a command id (the Idempotency-Key, or a derived one for the seed).
 */
export function createSchemaCommands({ eventStore, clock }: SchemaCommandsDeps) {
  const handle = commandHandler(eventStore, compilingSchemaDecider);
  const reader = createSchemaReader({ eventStore });
  const now = () => clock.now().toISOString();
  const existing = (state: SchemaState): Schema => {
    if (state.status !== 'exists')
      throw new Error('schema command: the aggregate does not exist after a successful command');
    return state.schema;
  };

  return {
    /** answers the schema; `created` is false when the command was a retry of an earlier one */
    async create(
      input: CreateSchemaInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ schema: Schema; created: boolean }> {
      const { tenant } = ctx;
      const schemaId = input.schemaId ?? derivedSchemaId(tenant, commandId);
      if (tenant !== PLATFORM_TENANT && (await reader.load(PLATFORM_TENANT, schemaId)) !== null) {
        // a tenant's schema would hide the platform's one of the same id from that tenant
        throw bridgeError('SCHEMA.ALREADY_EXISTS', `schema id ${schemaId} is used by a platform schema`, { schemaId });
      }
      const content = input.content;
      const result = await handle({
        stream: schemaStream(tenant, schemaId),
        command: {
          type: 'CreateSchema',
          tenant,
          schemaId,
          name: input.name ?? infoField(content, 'title') ?? '',
          ...(input.description !== undefined && { description: input.description }),
          ...(input.bus !== undefined && { bus: input.bus }),
          version: input.version ?? infoField(content, 'version') ?? '',
          content,
          now: now(),
        },
        commandId,
        now: now(),
        context: ctx,
      });
      return { schema: existing(result.state), created: !result.replayed };
    },

    /** `added` is false when the version already existed with the same content (or on a retry) */
    async addVersion(
      schemaId: string,
      input: AddSchemaVersionInput,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ schema: Schema; version: string; added: boolean }> {
      const version = input.version ?? infoField(input.content, 'version') ?? '';
      const result = await handle({
        stream: schemaStream(ctx.tenant, schemaId),
        command: { type: 'AddSchemaVersion', version, content: input.content, now: now() },
        commandId,
        now: now(),
        context: ctx,
      });
      return { schema: existing(result.state), version, added: !result.replayed && result.events.length > 0 };
    },

    /** marks the schema deleted (its versions stay readable); `deleted` is false when it already was */
    async delete(
      schemaId: string,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ schema: Schema; deleted: boolean }> {
      const result = await handle({
        stream: schemaStream(ctx.tenant, schemaId),
        command: { type: 'DeleteSchema', now: now() },
        commandId,
        now: now(),
        context: ctx,
      });
      return { schema: existing(result.state), deleted: !result.replayed && result.events.length > 0 };
    },
  };
}

export type SchemaCommands = ReturnType<typeof createSchemaCommands>;

// ---- validation of event data at putEvent ----

/** A small LRU map: past its bound the least recently used entries go first (an eighth at once: infra/core/bounded.ts). */
function lru<V>(max: number) {
  const map = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const v = map.get(key);
      if (v !== undefined) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key: string, v: V): void {
      setNewest(map, key, v, max);
    },
  };
}

/**
 * Compiled validators of schema versions, cached by a key naming an immutable version (owner, schema,
 * version): putEvent's checks and the admin API's validate compile a version once. A stored version that
 * no longer converts or compiles (only a converter change could make one so) is SCHEMA.UNUSABLE.
 */
export function createVersionValidators(size = 1000) {
  const compiled = lru<ValidateFunction>(size);
  function validatorFor(key: string, content: unknown, dataSchemaId: string): ValidateFunction {
    const hit = compiled.get(key);
    if (hit !== undefined) return hit;
    const converted = businessDataJsonSchema(content);
    let fn: ValidateFunction;
    try {
      if ('problems' in converted) throw new Error(converted.problems.map((p) => `${p.path} ${p.message}`).join('; '));
      fn = compileJsonSchema(converted.schema);
    } catch (err) {
      throw bridgeError(
        'SCHEMA.UNUSABLE',
        `schema ${dataSchemaId} cannot be used to validate: ${(err as Error).message}`,
        { dataSchemaId },
      );
    }
    compiled.set(key, fn);
    return fn;
  }
  return { validatorFor };
}

export type SchemaValidatorDeps = {
  eventStore: EventStore;
  /** schema streams and compiled versions kept in memory (default 1000 each) */
  cacheSize?: number;
  /** violations answered at most (default 100; allErrors on a large array could list thousands) */
  maxViolations?: number;
};

const unknownSchema = (dataSchemaId: string, message: string, details: Record<string, unknown> = {}) =>
  bridgeError('SCHEMA.UNKNOWN', message, { dataSchemaId, ...details });

/**
 * The SchemaValidator putEvent calls. `dataSchemaId` is `<schemaId>` (latest version) or
 * `<schemaId>:<version>`; the schema is the tenant's own, else the platform's (the own one decides even
 * when the version asked for is missing there). Unknown ids, unknown versions and deleted schemas throw
 * SCHEMA.NOT_FOUND (400).
 *
 * Cost per event: each stream's folded state is cached with its revision and only newer events are read
 * (one indexed read, normally empty, so another process's new version or deletion is seen at once); the
 * compiled validator is cached per (stream, version), which is safe because versions are immutable.
 */
export function createSchemaValidator(deps: SchemaValidatorDeps): SchemaValidator {
  const { eventStore } = deps;
  const size = deps.cacheSize ?? 1000;
  const maxViolations = deps.maxViolations ?? 100;
  const streams = lru<{ revision: number; state: SchemaState }>(size);
  const { validatorFor } = createVersionValidators(size);

  async function current(stream: string): Promise<SchemaState> {
    const cached = streams.get(stream) ?? { revision: -1, state: schemaDecider.initialState() };
    const newer = (await eventStore.readStream(stream, {
      fromRevision: cached.revision + 1,
    })) as unknown as RecordedEvent[];
    if (newer.length === 0) {
      streams.set(stream, cached);
      return cached.state;
    }
    let state = cached.state;
    for (const e of newer) state = schemaDecider.evolve(state, e as unknown as SchemaEvent);
    const next = { revision: newer[newer.length - 1]!.revision, state };
    streams.set(stream, next);
    return state;
  }

  return {
    async validate(tenant: string, dataSchemaId: string, data: unknown): Promise<SchemaViolation[] | null> {
      const ref = parseDataSchemaId(dataSchemaId);
      if (ref === null)
        throw unknownSchema(
          dataSchemaId,
          `dataSchemaId ${JSON.stringify(dataSchemaId)} is not <schemaId> or <schemaId>:<version>`,
        );
      let found: { stream: string; schema: Schema } | undefined;
      for (const owner of ownersFor(tenant)) {
        const stream = schemaStream(owner, ref.schemaId);
        const state = await current(stream);
        if (state.status === 'exists') {
          found = { stream, schema: state.schema };
          break;
        }
      }
      if (found === undefined) throw unknownSchema(dataSchemaId, `no schema ${ref.schemaId} in the registry`);
      const { stream, schema } = found;
      if (schema.deleted) throw unknownSchema(dataSchemaId, `schema ${ref.schemaId} was deleted`, { deleted: true });
      const version = ref.version === undefined ? latestVersion(schema) : findVersion(schema, ref.version);
      if (version === undefined) {
        throw unknownSchema(dataSchemaId, `schema ${ref.schemaId} has no version ${ref.version ?? ''}`, {
          version: ref.version,
        });
      }
      const fn = validatorFor(`${stream}@${version.version}`, version.content, dataSchemaId);
      if (fn(data)) return null;
      return toViolations((fn.errors ?? []).slice(0, maxViolations), 'data');
    },
  };
}
