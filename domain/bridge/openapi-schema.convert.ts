/**
 * OpenAPI 3.0 for the schema registry (spec "Schema"): converting a Schema Object to a JSON Schema
 * (draft-07) that ajv validates event data with.
 *
 * Pure: no I/O and no ajv. Compiling the converted schema with ajv, and turning ajv's errors into
 * violations, is commands/bridge/schema.compiler.ts; the registry document's own checks are
 * openapi-schema.document.ts.
 *
 * Conversion (OpenAPI 3.0.3, "Schema Object"):
 * - `nullable: true` → `type: [t, 'null']`, and `null` added to an `enum`; on a schema that composes others
 *   (allOf/anyOf/oneOf/not), the whole schema is wrapped in `anyOf: [{type: 'null'}, schema]`, since the
 *   composed schemas would otherwise still refuse null;
 * - `$ref: '#/components/schemas/X'` → `$ref: '#/definitions/X'`, every component reached (transitively)
 *   converted once into `definitions` (recursive schemas work); keywords beside a `$ref` are ignored, as
 *   OpenAPI 3.0 says ("any properties added SHALL be ignored"); other references are problems;
 * - `exclusiveMinimum: true` + `minimum: n` → `exclusiveMinimum: n` (draft-07's number form); `false` is
 *   dropped; likewise for the maximum;
 * - `format`: the formats ajv-formats knows (which include OpenAPI's int32, int64, float, double, byte,
 *   binary, password, date, date-time) are kept and checked; unknown formats are dropped (OpenAPI formats
 *   are open-ended: an unknown one is an annotation, never an error);
 * - OpenAPI-only keywords: `example`, `xml`, `externalDocs`, `deprecated` are dropped; `discriminator` is
 *   dropped except its `propertyName`, kept as a `$comment` (documentation only: oneOf/anyOf still decide);
 *   `readOnly`/`writeOnly` stay as draft-07 annotations (an event has no request/response direction, so
 *   they relax nothing); `x-…` extensions are dropped;
 * - any other keyword is not an OpenAPI 3.0 Schema Object keyword (`const`, `patternProperties`, `$schema`,
 *   a type list …) and is reported as a problem at its path (the official 3.0 meta-schema forbids them too).
 */

/** One problem of a document or schema; `path` is dotted from the root given by the caller. */
export type SchemaProblem = { path: string; message: string };

export type JsonSchemaObject = Record<string, unknown>;

export const COMPONENT_REF_PREFIX = '#/components/schemas/';
/** OpenAPI 3.0 components keys: `^[a-zA-Z0-9\.\-_]+$` */
export const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
/**
 * Schema Objects nested in each other at most. convertNode recurses once per level: registry documents
 * are already held to SCHEMA_DOCUMENT_LIMITS (32 JSON levels, domain/core/input-limits.ts) before they
 * are converted, so this cap only matters for documents stored before the limits, or given by other code.
 */
const MAX_DEPTH = 64;
const MAX_PATTERN_LENGTH = 1000;

/** Formats ajv-formats (full mode) validates; OpenAPI's own are among them. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

/**
 * Marks the `anyOf: [{type: 'null'}, schema]` a nullable composed schema becomes: its own errors ("must be
 * null", "must match a schema in anyOf") are noise beside the real ones of `schema` and are not reported.
 */
export const NULLABLE_WRAPPER = 'nullable';

const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
const DROPPED = new Set(['example', 'xml', 'externalDocs', 'deprecated']);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** `path` and one more key, dotted (the root is '') */
export const at = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);
const isNonNegativeInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;

type Ctx = {
  components: Record<string, unknown>;
  componentsPath: string;
  problems: SchemaProblem[];
  /** component names referenced so far */
  refs: Set<string>;
};

function convertNode(node: unknown, path: string, ctx: Ctx, depth: number): JsonSchemaObject {
  const problem = (p: string, message: string) => ctx.problems.push({ path: p, message });
  if (!isObject(node)) {
    problem(path, 'must be a Schema Object (a JSON object)');
    return {};
  }
  if (depth > MAX_DEPTH) {
    problem(path, `nests deeper than ${MAX_DEPTH} levels`);
    return {};
  }

  if ('$ref' in node) {
    const ref = node.$ref;
    if (typeof ref !== 'string') {
      problem(at(path, '$ref'), 'must be a string');
      return {};
    }
    if (!ref.startsWith(COMPONENT_REF_PREFIX)) {
      problem(at(path, '$ref'), `only local references ${COMPONENT_REF_PREFIX}<name> are supported`);
      return {};
    }
    const name = ref.slice(COMPONENT_REF_PREFIX.length);
    if (!COMPONENT_NAME.test(name) || !Object.hasOwn(ctx.components, name)) {
      problem(at(path, '$ref'), `references ${JSON.stringify(name)}, which is not in ${ctx.componentsPath}`);
      return {};
    }
    ctx.refs.add(name);
    return { $ref: `#/definitions/${name}` };
  }

  const out: JsonSchemaObject = {};
  const sub = (v: unknown, p: string) => convertNode(v, p, ctx, depth + 1);
  const schemaList = (key: string, v: unknown) => {
    if (!Array.isArray(v) || v.length === 0) {
      problem(at(path, key), 'must be a non-empty array of Schema Objects');
      return;
    }
    out[key] = v.map((s, i) => sub(s, at(at(path, key), i)));
  };
  let nullable = false;
  let exclusiveMinimum = false;
  let exclusiveMaximum = false;

  for (const [key, v] of Object.entries(node)) {
    const p = at(path, key);
    if (key.startsWith('x-') || DROPPED.has(key)) continue;
    switch (key) {
      case 'type':
        if (typeof v !== 'string' || !(TYPES as readonly string[]).includes(v))
          problem(p, `must be one of ${TYPES.join(', ')}`);
        else out.type = v;
        break;
      case 'nullable':
        if (typeof v !== 'boolean') problem(p, 'must be a boolean');
        else nullable = v;
        break;
      case 'format':
        if (typeof v !== 'string') problem(p, 'must be a string');
        else if (KNOWN_FORMATS.has(v)) out.format = v;
        break;
      case 'title':
      case 'description':
        if (typeof v !== 'string') problem(p, 'must be a string');
        else out[key] = v;
        break;
      case 'default':
        out.default = v;
        break;
      case 'multipleOf':
        if (typeof v !== 'number' || !(v > 0)) problem(p, 'must be a number greater than 0');
        else out.multipleOf = v;
        break;
      case 'minimum':
      case 'maximum':
        if (typeof v !== 'number') problem(p, 'must be a number');
        else out[key] = v;
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof v !== 'boolean')
          problem(
            p,
            `must be a boolean in OpenAPI 3.0 (${key}: true beside ${key === 'exclusiveMinimum' ? 'minimum' : 'maximum'})`,
          );
        else if (key === 'exclusiveMinimum') exclusiveMinimum = v;
        else exclusiveMaximum = v;
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties':
        if (!isNonNegativeInteger(v)) problem(p, 'must be a non-negative integer');
        else out[key] = v;
        break;
      case 'pattern':
        if (typeof v !== 'string') problem(p, 'must be a string');
        else if (v.length > MAX_PATTERN_LENGTH) problem(p, `must be at most ${MAX_PATTERN_LENGTH} characters`);
        else {
          try {
            // ajv compiles patterns with the unicode flag
            new RegExp(v, 'u');
            out.pattern = v;
          } catch (err) {
            problem(p, `is not a valid regular expression: ${(err as Error).message}`);
          }
        }
        break;
      case 'uniqueItems':
      case 'readOnly':
      case 'writeOnly':
        if (typeof v !== 'boolean') problem(p, 'must be a boolean');
        else out[key] = v;
        break;
      case 'required':
        if (!Array.isArray(v) || v.some((r) => typeof r !== 'string')) problem(p, 'must be an array of property names');
        else if (new Set(v).size !== v.length) problem(p, 'must not list a property twice');
        else out.required = v;
        break;
      case 'enum':
        if (!Array.isArray(v) || v.length === 0) problem(p, 'must be a non-empty array');
        else out.enum = [...v];
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        schemaList(key, v);
        break;
      case 'not':
      case 'items':
        if (key === 'items' && Array.isArray(v)) problem(p, 'must be a Schema Object (OpenAPI 3.0 has no tuple items)');
        else out[key] = sub(v, p);
        break;
      case 'properties':
        if (!isObject(v)) problem(p, 'must be an object of Schema Objects');
        else out.properties = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, sub(s, at(p, name))]));
        break;
      case 'additionalProperties':
        if (typeof v === 'boolean') out.additionalProperties = v;
        else out.additionalProperties = sub(v, p);
        break;
      case 'discriminator':
        if (!isObject(v) || typeof v.propertyName !== 'string')
          problem(at(p, 'propertyName'), 'is required (a string)');
        else out.$comment = `discriminator: ${v.propertyName}`;
        break;
      default:
        problem(p, 'is not an OpenAPI 3.0 Schema Object keyword');
    }
  }

  if (out.type === 'array' && !('items' in node)) problem(at(path, 'items'), 'is required when type is array');
  if (exclusiveMinimum && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  }
  if (exclusiveMaximum && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  }
  if (!nullable) return out;
  if ('allOf' in out || 'anyOf' in out || 'oneOf' in out || 'not' in out) {
    return { $comment: NULLABLE_WRAPPER, anyOf: [{ $comment: NULLABLE_WRAPPER, type: 'null' }, out] };
  }
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum.push(null);
  return out;
}

export type ConvertOptions = {
  /** the document's components.schemas, for `$ref` resolution */
  components?: Record<string, unknown>;
  /** where `schema` sits, for problem paths (default: the root, '') */
  path?: string;
  /** where the components sit, for problem paths (default `components.schemas`) */
  componentsPath?: string;
};

/**
 * An OpenAPI 3.0 Schema Object as a draft-07 JSON Schema. Referenced components are converted into
 * `definitions` (each once, transitively). `problems` lists everything that is not valid OpenAPI 3.0 or
 * cannot be resolved; the schema is usable (best effort) only when there are none.
 */
export function openApiToJsonSchema(
  schema: unknown,
  options: ConvertOptions = {},
): { schema: JsonSchemaObject; problems: SchemaProblem[] } {
  const componentsPath = options.componentsPath ?? 'components.schemas';
  const ctx: Ctx = { components: options.components ?? {}, componentsPath, problems: [], refs: new Set() };
  const root = convertNode(schema, options.path ?? '', ctx, 0);
  const definitions: Record<string, JsonSchemaObject> = {};
  // every component reached, once each, whatever the cycles
  for (
    let pending = [...ctx.refs];
    pending.length > 0;
    pending = [...ctx.refs].filter((r) => !Object.hasOwn(definitions, r))
  ) {
    for (const name of pending) definitions[name] = convertNode(ctx.components[name], at(componentsPath, name), ctx, 0);
  }
  const converted = Object.keys(definitions).length === 0 ? root : { ...root, definitions };
  return { schema: converted, problems: dedupe(ctx.problems) };
}

/** the problems without repeats (a component reached twice reports its problems once) */
export const dedupe = (problems: SchemaProblem[]): SchemaProblem[] => {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};
