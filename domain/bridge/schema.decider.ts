import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { registryDocumentProblems, type SchemaProblem } from './openapi-schema.ts';

/**
 * A schema of the registry (spec "Schema"): version-controlled, each version an OpenAPI 3.0 document whose
 * components hold a Cloudevents schema and the business-data schema. Stream `schema-<tenant>.<schemaId>`;
 * the platform's schemas (those of its event sources) use the tenant segment `platform` and are readable
 * by every tenant.
 *
 * Ids: the spec types dataSchemaId as Long, so a schema id is a decimal number of 1 to 15 digits without
 * leading zeros: it fits a Java long and survives being sent as a JSON number (below 2^53). The caller may
 * choose it; otherwise the command layer derives a random-looking 15-digit id from (tenant, command id), so
 * a retried request lands on the same schema.
 *
 * Versions: a version name is 1-64 letters, digits, `.`, `_`, `-` (no `:`, so `<id>:<version>` names one
 * version in an event's dataSchemaId; `latest` is reserved for the newest). A version never changes:
 * adding an existing version with other content is 409 SCHEMA.VERSION_IMMUTABLE, with the same content
 * (compared as canonical JSON: key order does not matter) it is an idempotent no-op. "Latest" is the version
 * added last. Content is validated when a version is added (registryDocumentProblems): 400 SCHEMA.INVALID
 * lists every problem with its path (`content.components.schemas.Cloudevents.required`).
 *
 * Deletion marks the schema deleted: its versions stay readable (events that named it keep a downloadable
 * schema), no version can be added, and new events naming it are refused.
 */
export const SCHEMA_CATEGORY = 'schema';
export const SCHEMA_ID = /^[1-9][0-9]{0,14}$/;
export const SCHEMA_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** an event's dataSchemaId: `<schemaId>` (latest version) or `<schemaId>:<version>` */
export const DATA_SCHEMA_ID = /^([1-9][0-9]{0,14})(?::([A-Za-z0-9][A-Za-z0-9._-]{0,63}))?$/;
export const LATEST = 'latest';
export const MAX_SCHEMA_NAME = 200;
export const MAX_SCHEMA_DESCRIPTION = 2000;
export const MAX_SCHEMA_VERSIONS = 200;
/** canonical JSON characters of one version's document */
export const MAX_DOCUMENT_CHARS = 256 * 1024;
/** problems listed in one SCHEMA.INVALID answer at most */
export const MAX_LISTED_PROBLEMS = 200;
const BUS_REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,128}$/;

export const schemaStream = (tenant: string, schemaId: string): string => streamName(SCHEMA_CATEGORY, tenant, schemaId);

/** `123` → {schemaId: '123'}; `123:1.0.0` → {schemaId: '123', version: '1.0.0'}; null when malformed. */
export function parseDataSchemaId(dataSchemaId: string): { schemaId: string; version?: string } | null {
  const m = DATA_SCHEMA_ID.exec(dataSchemaId);
  if (m === null) return null;
  return m[2] === undefined ? { schemaId: m[1]! } : { schemaId: m[1]!, version: m[2] };
}

/**
 * JSON with object keys sorted: two documents are the same content when these are equal. Iterative (a
 * stack of values and literal text, no recursion): it measures a document before the document's input
 * limits are checked (registryDocumentProblems), so it must survive any depth.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // items are values still to print, or `{ text }` to print as it is; the next item is at the end
  const todo: Array<{ value: unknown } | { text: string }> = [{ value }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      todo.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] });
        if (i > 0) todo.push({ text: ',' });
      }
      todo.push({ text: '[' });
    } else if (typeof v === 'object' && v !== null) {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record)
        .sort()
        .filter((k) => record[k] !== undefined);
      todo.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push({ value: record[keys[i]!] });
        todo.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
      todo.push({ text: '{' });
    } else out.push(JSON.stringify(v) ?? 'null');
  }
  return out.join('');
}

export type SchemaCommand =
  | {
      type: 'CreateSchema';
      tenant: string;
      schemaId: string;
      name: string;
      description?: string;
      bus?: string;
      /** the first version */
      version: string;
      content: unknown;
      now: string;
    }
  | { type: 'AddSchemaVersion'; version: string; content: unknown; now: string }
  | { type: 'DeleteSchema'; now: string };

export type SchemaCreated = DomainEvent<
  'SchemaCreated',
  { tenant: string; schemaId: string; name: string; description?: string; bus?: string; createdAt: string }
>;
export type SchemaVersionAdded = DomainEvent<
  'SchemaVersionAdded',
  {
    tenant: string;
    schemaId: string;
    version: string;
    /** the OpenAPI 3.0 document, as received */
    content: unknown;
    createdAt: string;
  }
>;
export type SchemaDeleted = DomainEvent<'SchemaDeleted', { tenant: string; schemaId: string; deletedAt: string }>;
export type SchemaEvent = SchemaCreated | SchemaVersionAdded | SchemaDeleted;

export const SCHEMA_EVENT_TYPES: ReadonlyArray<SchemaEvent['type']> = [
  'SchemaCreated',
  'SchemaVersionAdded',
  'SchemaDeleted',
];

export type SchemaVersion = { version: string; content: unknown; createdAt: string };

export type Schema = {
  tenant: string;
  schemaId: string;
  name: string;
  description?: string;
  bus?: string;
  /** in the order they were added; the last is the latest */
  versions: SchemaVersion[];
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
};

export type SchemaState = { status: 'none' } | { status: 'exists'; schema: Schema };

export const latestVersion = (schema: Schema): SchemaVersion | undefined => schema.versions[schema.versions.length - 1];

export const findVersion = (schema: Schema, version: string): SchemaVersion | undefined =>
  version === LATEST ? latestVersion(schema) : schema.versions.find((v) => v.version === version);

const invalid = (problems: SchemaProblem[]): never => {
  throw bridgeError(
    'SCHEMA.INVALID',
    `invalid schema: ${problems
      .slice(0, 5)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
    // a pathological document could have thousands; the first ones are enough to fix it
    problems.slice(0, MAX_LISTED_PROBLEMS),
  );
};

const notFound = () => bridgeError('SCHEMA.NOT_FOUND', 'no such schema');

function versionProblems(version: string, content: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (!SCHEMA_VERSION.test(version))
    problems.push({
      path: 'version',
      message:
        'must be 1-64 letters, digits, . _ or -, starting with a letter or digit (default: content.info.version)',
    });
  else if (version === LATEST)
    problems.push({ path: 'version', message: `"${LATEST}" is reserved for the newest version` });
  problems.push(...registryDocumentProblems(content, 'content'));
  return problems;
}

function checkSize(content: unknown): void {
  const size = canonicalJson(content).length;
  if (size > MAX_DOCUMENT_CHARS) {
    throw bridgeError(
      'SCHEMA.TOO_LARGE',
      `the schema document has ${size} characters, more than ${MAX_DOCUMENT_CHARS}`,
      {
        size,
        limit: MAX_DOCUMENT_CHARS,
      },
    );
  }
}

export const schemaDecider: Decider<SchemaCommand, SchemaEvent, SchemaState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'SchemaCreated': {
        const d = event.data;
        return {
          status: 'exists',
          schema: {
            tenant: d.tenant,
            schemaId: d.schemaId,
            name: d.name,
            ...(d.description !== undefined && { description: d.description }),
            ...(d.bus !== undefined && { bus: d.bus }),
            versions: [],
            deleted: false,
            createdAt: d.createdAt,
            updatedAt: d.createdAt,
          },
        };
      }
      case 'SchemaVersionAdded': {
        if (state.status !== 'exists') return state;
        const d = event.data;
        const versions = [...state.schema.versions, { version: d.version, content: d.content, createdAt: d.createdAt }];
        return { status: 'exists', schema: { ...state.schema, versions, updatedAt: d.createdAt } };
      }
      case 'SchemaDeleted': {
        if (state.status !== 'exists') return state;
        const at = event.data.deletedAt;
        return { status: 'exists', schema: { ...state.schema, deleted: true, deletedAt: at, updatedAt: at } };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateSchema': {
        if (state.status === 'exists') {
          throw bridgeError('SCHEMA.ALREADY_EXISTS', `schema ${command.schemaId} already exists`, {
            schemaId: command.schemaId,
          });
        }
        checkSize(command.content);
        const problems: SchemaProblem[] = [];
        if (!SCHEMA_ID.test(command.schemaId))
          problems.push({ path: 'schemaId', message: 'must be a decimal number of 1-15 digits without leading zeros' });
        const name = command.name.trim();
        if (name.length === 0 || name.length > MAX_SCHEMA_NAME)
          problems.push({
            path: 'name',
            message: `must be 1-${MAX_SCHEMA_NAME} characters, not blank (default: content.info.title)`,
          });
        if (command.description !== undefined && command.description.length > MAX_SCHEMA_DESCRIPTION) {
          problems.push({ path: 'description', message: `must be at most ${MAX_SCHEMA_DESCRIPTION} characters` });
        }
        if (command.bus !== undefined && !BUS_REF.test(command.bus))
          problems.push({ path: 'bus', message: 'must be a bus name' });
        problems.push(...versionProblems(command.version, command.content));
        if (problems.length > 0) invalid(problems);
        const base = { tenant: command.tenant, schemaId: command.schemaId };
        return [
          {
            type: 'SchemaCreated',
            data: {
              ...base,
              name,
              ...(command.description !== undefined && { description: command.description }),
              ...(command.bus !== undefined && { bus: command.bus }),
              createdAt: command.now,
            },
          },
          {
            type: 'SchemaVersionAdded',
            data: { ...base, version: command.version, content: command.content, createdAt: command.now },
          },
        ];
      }

      case 'AddSchemaVersion': {
        if (state.status === 'none') throw notFound();
        const { schema } = state;
        if (schema.deleted)
          throw bridgeError('SCHEMA.DELETED', `schema ${schema.schemaId} was deleted: no version can be added`);
        const existing = schema.versions.find((v) => v.version === command.version);
        if (existing !== undefined) {
          // immutable: the same content again is a no-op, other content a conflict
          if (canonicalJson(existing.content) === canonicalJson(command.content)) return [];
          throw bridgeError(
            'SCHEMA.VERSION_IMMUTABLE',
            `version ${command.version} of schema ${schema.schemaId} exists with other content; versions cannot be changed: add a new version`,
            { schemaId: schema.schemaId, version: command.version },
          );
        }
        if (schema.versions.length >= MAX_SCHEMA_VERSIONS) {
          throw bridgeError(
            'SCHEMA.TOO_MANY_VERSIONS',
            `schema ${schema.schemaId} has ${MAX_SCHEMA_VERSIONS} versions, the most it may have`,
          );
        }
        checkSize(command.content);
        const problems = versionProblems(command.version, command.content);
        if (problems.length > 0) invalid(problems);
        return [
          {
            type: 'SchemaVersionAdded',
            data: {
              tenant: schema.tenant,
              schemaId: schema.schemaId,
              version: command.version,
              content: command.content,
              createdAt: command.now,
            },
          },
        ];
      }

      case 'DeleteSchema': {
        if (state.status === 'none') throw notFound();
        if (state.schema.deleted) return [];
        return [
          {
            type: 'SchemaDeleted',
            data: { tenant: state.schema.tenant, schemaId: state.schema.schemaId, deletedAt: command.now },
          },
        ];
      }

      default:
        return assertNever(command);
    }
  },
};
